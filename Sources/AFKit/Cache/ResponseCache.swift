import AFCurl
import Glibc

/// The cache stage of the request pipeline (DESIGN §3), apart from any transport: before a
/// request goes out, `plan` answers it from the store when it may (replaying the head and body to
/// the delegate, so the stages after it see the same events) or says how to send it (as it is, or
/// through a `CacheFetch` that revalidates with conditional headers and tees the body into the
/// store); after the answer, `finish` stores it or answers a 304 with the stored response.
/// `CachingEngine` drives it, the same around the single request's transport and a run's multi
/// handle.
///
/// A cache that cannot be opened or read never fails a request: `warn` is called once and the
/// request goes to the network (except `--cache=only`, which then has nothing to answer).
package final class ResponseCache {
    /// The Accept-Encoding requests the cache may answer are prepared with, known without loading
    /// libcurl (`ContentCoding.cacheAcceptEncoding`).
    package static let acceptEncoding = ContentCoding.cacheAcceptEncoding

    /// What the stage is asked to do, from the options and the environment.
    package struct Configuration: Sendable {
        package var mode: CacheMode
        /// The CJ strategies' lifetime (`--cache-ttl`).
        package var lifetime: CacheLifetime?
        /// The environment's namespace (CJNetwork's app-version slot); "" for none.
        package var namespace: String
        package var directory: String
        package var now: @Sendable () -> Double

        package init(
            mode: CacheMode, lifetime: CacheLifetime?, namespace: String, directory: String,
            now: @escaping @Sendable () -> Double
        ) {
            self.mode = mode
            self.lifetime = lifetime
            self.namespace = namespace
            self.directory = directory
            self.now = now
        }
    }

    /// What to do with a request, as `plan` and `finish` decide it.
    package enum Step {
        /// Over: the result (replayed from the store, or the network's answer already handled)
        /// and what the stage did.
        case done(HTTPClientResult, CacheOutcome?)
        /// Send the request as it is; the outcome says why the stage takes no part (nil: off).
        case asIs(CacheOutcome?)
        /// A POST, PUT, PATCH or DELETE: send it as it is, then `invalidate(after:request:)`.
        case unsafe
        /// Send `fetch.request` to `fetch.delegate`, then `finish(_:result:)` (or `recover` from a
        /// failure, else `abandon` it).
        case fetch(CacheFetch)
        /// Answered by a stale stored response within its stale-while-revalidate window: over for
        /// the caller, but `fetch` (whose events go nowhere) then refreshes the entry.
        case answeredStale(HTTPClientResult, CacheOutcome, CacheFetch)
    }

    package let configuration: Configuration
    private var store: CacheStore?
    private var storeFailed = false
    /// Told once about a cache that cannot be used or a body that could not be stored.
    package var warn: (String) -> Void = { _ in }
    /// `cj-then-network`: receives the stored answer before the network is asked.
    package var transitionDelegate: HTTPClientDelegate?
    /// Called after the stored answer went to `transitionDelegate`.
    package var transitionEnded: () throws -> Void = {}

    package init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The store, opened on first use; nil (after one warning) when it cannot be used.
    private func openStore() -> CacheStore? {
        if let store { return store }
        guard !storeFailed else { return nil }
        do {
            store = try CacheStore(directory: configuration.directory)
        } catch {
            storeFailed = true
            warn("\(error); the cache is bypassed (afcli cache prune rebuilds it)")
        }
        return store
    }

    /// Runs a store operation; a failure is reported once and the cache bypassed from then on.
    func guarded<T>(_ body: (CacheStore) throws -> T) -> T? {
        guard let store = openStore() else { return nil }
        do {
            return try body(store)
        } catch {
            storeFailed = true
            self.store = nil
            warn(
                "the cache in \(configuration.directory) is unreadable: \(error); it is bypassed "
                    + "(afcli cache prune rebuilds it)")
            return nil
        }
    }

    /// What to do with `request` before the network: answer it from the store (replayed to
    /// `delegate`), or how to send it, heeding the request's own Cache-Control (max-age, min-fresh,
    /// max-stale, no-cache, no-store, only-if-cached). `credentials` are what libcurl adds by itself
    /// (netrc, the cookies sent to this URL) and the key must tell apart; when the request `follows`
    /// redirects, a stored redirect never answers it. When the caller `revalidatesLater`, a stale
    /// response within its stale-while-revalidate window answers (`.answeredStale`). A stored body over `maxBodyBytes` (`--max-filesize`) fails the request as
    /// the network's would. Throws `CacheMissError` for `--cache=only` with nothing to answer.
    package func plan(
        _ request: PreparedRequest, credentials: CacheCredentials, follows: Bool, maxBodyBytes: Int64? = nil,
        revalidatesLater: Bool = false, delegate: HTTPClientDelegate
    ) throws -> Step {
        let mode = configuration.mode
        guard mode != .off else { return .asIs(nil) }
        let isSafe = request.method == "GET" || request.method == "HEAD"
        if !isSafe, !mode.isCJStrategy {
            // `only` sends nothing, ever: an unsafe method has no stored answer to give.
            if mode == .only { throw CacheMissError(method: request.method, url: request.url) }
            return .unsafe
        }
        let requestControl = CacheControl(
            request.headers.filter { ASCIICase.equal($0.name, "cache-control") }.map(\.value))
        // A request's no-store: the cache neither answers nor keeps anything (RFC 9111 §5.2.1.5).
        if requestControl.noStore, !mode.isCJStrategy {
            if mode == .only { throw CacheMissError(method: request.method, url: request.url) }
            return .asIs(.bypassed)
        }
        let key = CacheKey(
            request: request, namespace: configuration.namespace,
            credentials: credentials.material(for: request.url, now: configuration.now()))
        guard let key, !Self.hasOwnConditions(request) else {
            if mode == .only { throw CacheMissError(method: request.method, url: request.url) }
            return .asIs(.bypassed)
        }
        let now = configuration.now()
        let found = guarded { try lookup(key, request: request, follows: follows, in: $0) }
        if found == nil, storeFailed, mode != .only { return .asIs(.bypassed) }
        var candidate = found ?? nil
        var answeringKey = key
        if candidate == nil, request.method == "HEAD", !mode.isCJStrategy,
            let stored = storedGET(for: request, credentials: credentials, follows: follows)
        {
            // A stored GET response may answer a HEAD (RFC 9110 §9.3.2): its head without the body.
            (candidate, answeringKey) = (stored.candidate, stored.key)
        }
        if let candidate {
            let entry = candidate.entry
            let age = CacheFreshness.age(
                entry.head, requestTime: entry.requestTime, responseTime: entry.responseTime, now: now)
            let answers: Bool
            switch mode {
            case .http:
                answers =
                    CacheFreshness.answers(entry, request: requestControl, now: now)
                    || (requestControl.onlyIfCached && CacheFreshness.mayServeStale(entry))
            case .only:
                answers =
                    CacheFreshness.answers(entry, request: requestControl, now: now)
                    || CacheFreshness.mayServeStale(entry)
            case .cjFirst, .cjThenNetwork: answers = configuration.lifetime?.covers(age: age) ?? false
            case .refresh, .off: answers = false
            }
            if answers, mode == .cjThenNetwork, let transition = transitionDelegate {
                // The stored answer first; the network's follows whatever happens to it.
                if try replay(candidate, age: age, request: request, maxBodyBytes: nil, to: transition) != nil {
                    try transitionEnded()
                }
            } else if answers,
                let result = try replay(
                    candidate, age: age, request: request, maxBodyBytes: maxBodyBytes, to: delegate)
            {
                // A write costs a WAL append and a checkpoint when the process ends: the least
                // recently used order only needs the minute.
                if now - entry.lastUsed >= 60 {
                    _ = guarded { try $0.touch(key: answeringKey.digest, variant: candidate.variant, at: now) }
                }
                return .done(result, .hit(age: age))
            }
        }
        if mode == .only { throw CacheMissError(method: request.method, url: request.url) }
        if requestControl.onlyIfCached, !mode.isCJStrategy {
            // HTTP's only-if-cached typed as a header: a 504 from the cache, nothing sent (§5.2.1.7).
            return .done(try gatewayTimeout(request, key: key, to: delegate), .unsatisfiable)
        }
        // A GET response that did not answer a HEAD is not revalidated by it.
        if answeringKey != key { candidate = nil }
        let revalidating = mode.isCJStrategy ? nil : candidate.flatMap { Self.hasValidators($0.entry) ? $0 : nil }
        if mode == .http, revalidatesLater, let candidate,
            CacheFreshness.mayAnswerStale(candidate.entry, request: requestControl, now: now, ifError: false),
            let result = try replay(
                candidate, age: age(candidate.entry, now: now), request: request, maxBodyBytes: maxBodyBytes,
                to: delegate)
        {
            let refresh = startFetch(
                request, key: key, revalidating: revalidating, requestControl: requestControl,
                maxBodyBytes: maxBodyBytes, delegate: DiscardingDelegate())
            refresh.credentials = credentials
            let outcome = CacheOutcome.stale(age: age(candidate.entry, now: now), directive: "stale-while-revalidate")
            return .answeredStale(result, outcome, refresh)
        }
        let fetch = startFetch(
            request, key: key, revalidating: revalidating, requestControl: requestControl,
            maxBodyBytes: maxBodyBytes, delegate: delegate)
        fetch.credentials = credentials
        if mode == .http, let candidate,
            CacheFreshness.mayAnswerStale(candidate.entry, request: requestControl, now: now, ifError: true),
            hasBody(candidate.entry)
        {
            fetch.fallback = candidate
            fetch.tee.interceptsServerErrors = true
        }
        return .fetch(fetch)
    }

    /// The stored GET response a HEAD request selects, with its key; nil when there is none.
    private func storedGET(
        for request: PreparedRequest, credentials: CacheCredentials, follows: Bool
    ) -> (candidate: Candidate, key: CacheKey)? {
        var get = request
        get.method = "GET"
        guard
            let key = CacheKey(
                request: get, namespace: configuration.namespace,
                credentials: credentials.material(for: request.url, now: configuration.now())),
            let found = guarded({ try lookup(key, request: request, follows: follows, in: $0) }) ?? nil
        else { return nil }
        return (found, key)
    }

    /// Whether a stored entry's body can still be read (a body file may have been removed).
    private func hasBody(_ entry: CacheEntry) -> Bool {
        guard case .file(let digest) = entry.body else { return true }
        guard let descriptor = guarded({ $0.openBody(digest: digest, size: entry.bodySize) }) ?? nil else {
            return false
        }
        close(descriptor)
        return true
    }

    /// How old a stored entry is at `now`.
    func age(_ entry: CacheEntry, now: Double) -> Double {
        CacheFreshness.age(entry.head, requestTime: entry.requestTime, responseTime: entry.responseTime, now: now)
    }

    /// The 504 (Gateway Timeout) a cache answers an only-if-cached request it cannot satisfy.
    private func gatewayTimeout(_ request: PreparedRequest, key: CacheKey, to delegate: HTTPClientDelegate) throws
        -> HTTPClientResult
    {
        let now = configuration.now()
        let entry = CacheEntry(
            namespace: key.namespace, method: key.method, url: key.url, varyNames: [], statusCode: 504,
            reasonPhrase: "Gateway Timeout", httpVersion: "HTTP/1.1", headers: [("Content-Length", "0")],
            body: .inline([]), bodySize: 0, requestTime: now, responseTime: now, expires: now, lastUsed: now)
        guard let result = try replay(("", entry), age: 0, request: request, maxBodyBytes: nil, to: delegate) else {
            throw CacheMissError(method: request.method, url: request.url)
        }
        return result
    }

    /// A stored response and the variant it is stored under.
    typealias Candidate = (variant: String, entry: CacheEntry)

    /// The stored variant `request` selects, if any.
    private func lookup(
        _ key: CacheKey, request: PreparedRequest, follows: Bool, in store: CacheStore
    ) throws -> Candidate? {
        for (variant, entry) in try store.variants(of: key.digest) {
            if follows, (300...399).contains(entry.statusCode) { continue }
            if CacheKey.variant(names: entry.varyNames, headers: request.headers) == variant { return (variant, entry) }
        }
        return nil
    }

    /// Whether the user sent validators or a range of their own: the exchange is then theirs.
    private static func hasOwnConditions(_ request: PreparedRequest) -> Bool {
        let names: Set<String> = [
            "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "range", "if-range",
        ]
        return request.headers.contains { names.contains(ASCIICase.lowercased($0.name)) }
    }

    private static func hasValidators(_ entry: CacheEntry) -> Bool {
        entry.head.value(for: "ETag") != nil || entry.head.value(for: "Last-Modified") != nil
    }

    /// After an unsafe method's answer: a success invalidates the URL's stored responses.
    /// Returns what the stage did (nil when the answer was a failure and nothing changed).
    /// The URLs in the answer's `Location` and `Content-Location` are invalidated too when they are
    /// of the same origin (RFC 9111 §4.4): another origin's entries are not this server's to drop.
    package func invalidate(after result: HTTPClientResult, request: PreparedRequest) -> CacheOutcome? {
        guard (200...399).contains(result.statusCode) else { return nil }
        guard let target = CacheKey.targetURI(request) else { return nil }
        var urls = [target]
        for name in ["Location", "Content-Location"] {
            if let value = result.head.value(for: name), let url = CacheKey.sameOrigin(value, as: target) {
                urls.append(url)
            }
        }
        _ = guarded { store in for url in urls { try store.invalidate(url: url) } }
        return storeFailed ? .bypassed : .invalidated
    }
}
