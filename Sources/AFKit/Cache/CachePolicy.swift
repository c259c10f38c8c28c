import Glibc

/// How the cache stage treats a request (`--cache[=MODE]`, `--no-cache`, an environment's policy).
package enum CacheMode: String, Equatable, Sendable, CaseIterable {
    /// No cache at all (`--no-cache`).
    case off
    /// HTTP caching for a private cache (RFC 9111): `--cache`, `--cache=http`.
    case http
    /// Revalidate a stored response even when it is fresh.
    case refresh
    /// Answer from the cache or fail (HTTP's only-if-cached).
    case only
    /// CJNetwork's "end with cache if it exists": a stored answer younger than the TTL answers.
    case cjFirst = "cj-first"
    /// CJNetwork's "use cache as a transition": the stored answer first, then the network's.
    case cjThenNetwork = "cj-then-network"

    /// The mode a `--cache` value names; nil for an unknown value.
    package init?(value: String) {
        if value.isEmpty {
            self = .http
            return
        }
        self.init(rawValue: value)
        if self == .off { return nil }
    }

    /// Whether this is one of CJNetwork's strategies, which need an explicit lifetime.
    package var isCJStrategy: Bool { self == .cjFirst || self == .cjThenNetwork }
}

/// How long a CJ strategy's entry answers: a number of seconds, or until removed.
package enum CacheLifetime: Equatable, Sendable {
    case seconds(Double)
    case forever

    /// Parses `forever`, or a number with an optional unit: s, m, h, d (`90`, `10m`, `1h`, `7d`).
    package init?(_ text: String) {
        if text == "forever" {
            self = .forever
            return
        }
        var digits = text
        var unit: Double = 1
        if let last = text.last, let scale = ["s": 1.0, "m": 60, "h": 3600, "d": 86400][String(last)] {
            unit = scale
            digits.removeLast()
        }
        guard !digits.isEmpty, digits.utf8.count <= 12, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Double(digits)
        else { return nil }
        self = .seconds(number * unit)
    }

    /// Whether an entry `age` seconds old is still within the lifetime.
    package func covers(age: Double) -> Bool {
        switch self {
        case .forever: return true
        case .seconds(let limit): return age < limit
        }
    }
}

/// The time the cache reads: the real clock, or a fixed one the tests set (`AFCLI_TEST_NOW`, in
/// seconds since the epoch), so that expiry is tested without sleeping.
package enum CacheClock {
    /// A clock for `environment`.
    package static func clock(environment: [String: String]) -> @Sendable () -> Double {
        if let fixed = environment["AFCLI_TEST_NOW"].flatMap(Double.init) { return { fixed } }
        return { WallClock.now() }
    }
}

/// `--cache=only` found nothing it may answer with; nothing was sent.
package struct CacheMissError: ClassifiedError, CustomStringConvertible {
    package var method: String
    package var url: String

    package init(method: String, url: String) {
        self.method = method
        self.url = url
    }

    /// Its own outcome: nothing was sent.
    package var failureClass: FailureClass { .cacheMiss }

    package var description: String {
        "no usable response for \(method) \(url) in the cache (--cache=only sends nothing)"
    }
}

/// What the cache stage did for one request, as `--print=m` and `-v` show it.
package enum CacheOutcome: Equatable, Sendable {
    /// Answered from the cache, nothing sent; the answer's age in seconds.
    case hit(age: Double)
    /// A stale stored response answered, as RFC 5861 allows: while it was revalidated
    /// (stale-while-revalidate) or in place of a server error or failed connection (stale-if-error).
    case stale(age: Double, directive: String)
    /// A stored response was revalidated with a 304 and answered.
    case revalidated
    /// The network answered and the response was stored.
    case stored
    /// The network answered; the response was not stored (not storable, or a write failed).
    case notStored
    /// The network answered and invalidated the stored responses of the URL.
    case invalidated
    /// The cache could not be used (unreadable) or does not apply (a streamed body).
    case bypassed
    /// The request said only-if-cached and nothing stored could answer: a 504, nothing sent.
    case unsatisfiable

    /// Whether the answer came from the store.
    package var isStoredAnswer: Bool {
        switch self {
        case .hit, .stale: return true
        default: return false
        }
    }

    /// The text after `cache: `.
    package var text: String {
        switch self {
        case .hit(let age): return "hit, age \(Int(age.rounded(.down))) s"
        case .stale(let age, let directive): return "hit, stale, age \(Int(age.rounded(.down))) s (\(directive))"
        case .revalidated: return "revalidated"
        case .stored: return "miss, stored"
        case .notStored: return "miss, not stored"
        case .invalidated: return "invalidated"
        case .bypassed: return "bypassed"
        case .unsatisfiable: return "miss, only-if-cached: 504, nothing sent"
        }
    }

    /// One word for machines (`afcli run`'s NDJSON): hit, stale, revalidated, stored, not-stored,
    /// invalidated, bypassed or only-if-cached.
    package var word: String {
        switch self {
        case .hit: return "hit"
        case .stale: return "stale"
        case .revalidated: return "revalidated"
        case .stored: return "stored"
        case .notStored: return "not-stored"
        case .invalidated: return "invalidated"
        case .bypassed: return "bypassed"
        case .unsatisfiable: return "only-if-cached"
        }
    }
}
