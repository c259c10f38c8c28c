import AFCurl

/// The cache stage around one transport, for a single request: `ResponseCache` decides, the
/// wrapped transport sends what it says to send.
package final class CachingTransport: RequestTransport {
    package let cache: ResponseCache
    let inner: RequestTransport
    /// What libcurl adds to requests by itself (netrc, cookies), told apart in the key.
    let credentials: CacheCredentials
    /// Whether the transport follows redirects (a stored redirect then never answers).
    let follows: Bool
    /// `--max-filesize`, which a stored answer is held to as the network's is.
    package var maxBodyBytes: Int64?
    /// What the stage did for the last request.
    package private(set) var outcome: CacheOutcome?

    package init(wrapping inner: RequestTransport, cache: ResponseCache, credentials: CacheCredentials, follows: Bool) {
        self.inner = inner
        self.cache = cache
        self.credentials = credentials
        self.follows = follows
    }

    package func send(_ request: PreparedRequest, delegate: HTTPClientDelegate) throws -> HTTPClientResult {
        var step = try cache.plan(
            request, credentials: credentials, follows: follows, maxBodyBytes: maxBodyBytes, revalidatesLater: true,
            delegate: delegate)
        while true {
            switch step {
            case .done(let result, let outcome):
                self.outcome = outcome
                return result
            case .asIs(let outcome):
                self.outcome = outcome
                return try inner.send(request, delegate: delegate)
            case .unsafe:
                let result = try inner.send(request, delegate: delegate)
                if let outcome = cache.invalidate(after: result, request: request) { self.outcome = outcome }
                return result
            case .fetch(let fetch):
                let result: HTTPClientResult
                do {
                    result = try inner.send(fetch.request, delegate: fetch.delegate)
                } catch {
                    guard let recovered = try cache.recover(fetch, from: error) else {
                        fetch.abandon()
                        throw error
                    }
                    step = recovered
                    continue
                }
                step = try cache.finish(fetch, result: result)
            case .answeredStale(let result, let outcome, let refresh):
                // The stale answer is given; the process refreshes the entry before it exits.
                self.outcome = outcome
                if let fresh = try? inner.send(refresh.request, delegate: refresh.delegate) {
                    _ = try? cache.finish(refresh, result: fresh)
                } else {
                    refresh.abandon()
                }
                return result
            }
        }
    }
}
