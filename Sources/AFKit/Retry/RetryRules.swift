import AFCurl

/// curl's retry rules for requests (`--retry`, `--retry-delay`, `--retry-max-time`,
/// `--retry-all-errors`): which failures are transient, which methods may be sent again, and how
/// long to wait before the next try.
///
/// Transient: a timeout, a name that did not resolve, a connection that could not be made, and
/// HTTP 408, 429, 500, 502, 503 and 504. Only idempotent methods (RFC 9110 §9.2.2) are sent
/// again unless `allErrors`, which also retries every other transfer failure (a connection
/// reset, a response cut short) except an interrupt and a URL libcurl refused.
package struct RetryRules: Equatable, Sendable {
    /// How many times a request is sent again after its first try.
    package var retries: Int
    /// A fixed wait between tries (`--retry-delay`); nil for the exponential backoff.
    package var delay: Double?
    /// Seconds from the first try after which no retry starts (`--retry-max-time`); nil for none.
    package var maxTime: Double?
    /// Whether every failure and every method is retried (`--retry-all-errors`).
    package var allErrors: Bool
    /// For a download: the longest wait, the server's cut to it, with `delay` the first wait of a
    /// backoff that doubles without jitter; nil for curl's backoff.
    package var doublingUpTo: Double?

    package init(
        retries: Int, delay: Double? = nil, maxTime: Double? = nil, allErrors: Bool = false,
        doublingUpTo: Double? = nil
    ) {
        self.retries = retries
        self.delay = delay
        self.maxTime = maxTime
        self.allErrors = allErrors
        self.doublingUpTo = doublingUpTo
    }

    /// The first wait of the backoff, in seconds (curl's).
    package static let firstBackoff = 1.0
    /// The longest wait of the backoff, and of a server's wait when there is no `maxTime` (curl
    /// caps its backoff at ten minutes).
    package static let longestWait = 600.0
    /// The statuses that are transient failures.
    package static let transientStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// The methods that may be sent again without `allErrors`.
    package static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]

    /// Whether a request with `method` may be retried at all.
    package func mayRetry(method: String) -> Bool {
        allErrors || Self.idempotentMethods.contains(method.uppercased())
    }

    /// Why a response with `statusCode` would be retried (`HTTP 503`); nil when it is final.
    package func reason(status statusCode: Int) -> String? {
        Self.transientStatuses.contains(statusCode) ? "HTTP \(statusCode)" : nil
    }

    /// Why a failed exchange would be retried (`timeout`); nil when the failure is final.
    package func reason(error: any Error) -> String? {
        guard let error = error as? CurlError else { return nil }
        switch error.kind {
        case .timeout: return "timeout"
        case .couldNotResolve: return "name not resolved"
        case .couldNotConnect: return "connection failed"
        case .interrupted, .badURL: return nil
        case .tls, .limitExceeded, .bodyReadFailed, .responseHandlerFailed, .sendFailed, .receiveFailed, .other:
            return allErrors ? error.description : nil
        }
    }

    /// The wait before retry number `retry` (1 for the first) when the server named none: the
    /// fixed `delay`, else 1 s doubling each time up to `longestWait`, less up to a fifth at
    /// random (jitter), so that clients failing together do not come back together. `random`
    /// is a number in 0..<1.
    package func backoff(beforeRetry retry: Int, random: Double = Double.random(in: 0..<1)) -> Double {
        let doubling = Double(1 << min(max(retry, 1) - 1, 20))
        if let doublingUpTo { return min((delay ?? Self.firstBackoff) * doubling, doublingUpTo) }
        if let delay { return delay }
        let doubled = Self.firstBackoff * doubling
        let wait = min(doubled, Self.longestWait)
        return wait * (1 - 0.2 * random)
    }

    /// The longest wait a retry may follow: what remains of `maxTime` after `elapsed` seconds,
    /// else `doublingUpTo` or `longestWait`. A server asking for more is not retried (a download's
    /// waits are cut to it instead).
    package func longestWait(elapsed: Double) -> Double {
        maxTime.map { max(0, $0 - elapsed) } ?? doublingUpTo ?? Self.longestWait
    }
}
