import AFCurl

/// What a response says about when its server may be asked again: `Retry-After` (RFC 9110
/// §10.2.3, delta-seconds or an HTTP-date), the IETF draft's `RateLimit`/`RateLimit-Policy`
/// structured fields (`"default";r=0;t=30`, and the earlier drafts' `limit=10, remaining=0,
/// reset=5` and `RateLimit-Remaining`/`RateLimit-Reset`), and the common `X-RateLimit-Remaining`/
/// `X-RateLimit-Reset` (seconds, or a Unix time as GitHub sends it).
///
/// A rate-limit reset is a wait only when the quota is used up (remaining 0) or the answer is a
/// 429; `Retry-After` is always one. Values that are not numbers are ignored, never guessed at.
package struct ServerWait: Equatable, Sendable {
    /// Seconds to wait from now; nil when the response names no wait.
    package var seconds: Double?
    /// Where the wait came from (`Retry-After`, `RateLimit`, `X-RateLimit-Reset`), for notes.
    package var source: String?

    package init(seconds: Double? = nil, source: String? = nil) {
        self.seconds = seconds
        self.source = source
    }

    /// The wait `head` (a response with status `statusCode`) asks for, `now` being the wall-clock
    /// time in seconds since the Unix epoch (an HTTP-date and a Unix reset time are absolute).
    package static func read(_ head: ResponseHead, now: Double) -> ServerWait {
        if let value = head.value(for: "retry-after"), let seconds = retryAfter(value, now: now) {
            return ServerWait(seconds: seconds, source: "Retry-After")
        }
        let throttled = head.statusCode == 429
        if let value = head.value(for: "ratelimit") {
            var limit = rateLimit(value)
            if limit.reset == nil, let policy = head.value(for: "ratelimit-policy") {
                limit.reset = rateLimit(policy).window
            }
            if let reset = limit.reset, throttled || limit.remaining == 0 {
                return ServerWait(seconds: reset, source: "RateLimit")
            }
        }
        for prefix in ["ratelimit-", "x-ratelimit-"] {
            guard let value = head.value(for: prefix + "reset"), let reset = resetSeconds(value, now: now) else {
                continue
            }
            let remaining = head.value(for: prefix + "remaining").flatMap { Int(Substring($0).trimmingBlanks()) }
            if throttled || remaining == 0 {
                return ServerWait(seconds: reset, source: prefix == "x-ratelimit-" ? "X-RateLimit-Reset" : "RateLimit-Reset")
            }
        }
        return ServerWait()
    }

    /// A `Retry-After` value as seconds from `now`: delta-seconds, or an HTTP-date (a date in the
    /// past is 0); nil when it is neither.
    package static func retryAfter(_ value: String, now: Double) -> Double? {
        let text = Substring(value).trimmingBlanks()
        if let seconds = digits(text) { return seconds }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date - now)
    }

    /// An `X-RateLimit-Reset` (or `RateLimit-Reset`) value as seconds from `now`: seconds, or a
    /// Unix time when the number is one (after 2001); nil when it is not a number.
    package static func resetSeconds(_ value: String, now: Double) -> Double? {
        guard let number = digits(Substring(value).trimmingBlanks()) else { return nil }
        return number >= unixTimeFloor ? max(0, number - now) : number
    }

    /// Numbers from here on are Unix times (2001-09-09), not seconds: no reset window is 31 years.
    static let unixTimeFloor = 1_000_000_000.0

    /// The members of a `RateLimit` or `RateLimit-Policy` field: the least remaining quota
    /// (`r`, `remaining`), the reset of that member (`t`, `reset`), and the window (`w`,
    /// `window`) of a policy. Members are separated by commas, parameters by semicolons; the
    /// earlier drafts' dictionary (`limit=10, remaining=0, reset=5`) reads as one member.
    package static func rateLimit(_ value: String) -> (remaining: Int?, reset: Double?, window: Double?) {
        var result: (remaining: Int?, reset: Double?, window: Double?) = (nil, nil, nil)
        // The earlier drafts' dictionary spreads one policy over comma-separated keys.
        let dictionary = !value.contains(";")
        let members: [Substring] =
            dictionary ? [Substring(value.split(separator: ",").joined(separator: ";"))] : value.split(separator: ",")
        for member in members {
            var remaining: Int?
            var reset: Double?
            for parameter in member.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let key = ASCIICase.lowercased(pair[0].trimmingBlanks())
                guard let number = digits(pair[1].trimmingBlanks()) else { continue }
                switch key {
                case "r", "remaining": remaining = Int(exactly: number.rounded(.down))
                case "t", "reset": reset = number
                case "w", "window": result.window = number
                default: break
                }
            }
            // The member with the least quota left decides.
            if let remaining, result.remaining.map({ remaining < $0 }) ?? true {
                result.remaining = remaining
                result.reset = reset
            } else if result.remaining == nil, result.reset == nil {
                result.reset = reset
            }
        }
        return result
    }

    /// `text` as a non-negative number of seconds: decimal digits with at most one dot, up to 12
    /// digits (a hostile value cannot overflow a wait); nil otherwise.
    private static func digits(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 16, bytes.first != 0x2E,
            bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }), bytes.filter({ $0 == 0x2E }).count <= 1
        else { return nil }
        return Double(text)
    }
}
