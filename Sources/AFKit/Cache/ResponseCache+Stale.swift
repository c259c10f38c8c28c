import AFCurl

/// Stale answers RFC 5861 allows: a stored response stale within its `stale-if-error` window
/// answers a server error (500, 502, 503, 504) or a connection that failed, with a warning.
extension ResponseCache {
    /// After a transfer that failed: the stale fallback's answer, when the fetch has one, nothing
    /// reached the delegate yet and the failure is the network's (not Ctrl-C, not a limit); nil
    /// otherwise, and the caller rethrows.
    package func recover(_ fetch: CacheFetch, from error: any Error) throws -> Step? {
        guard let curlError = error as? CurlError, !fetch.tee.forwardedResponse else { return nil }
        switch curlError.kind {
        case .timeout, .couldNotResolve, .couldNotConnect, .sendFailed, .receiveFailed:
            return try answerStale(fetch, instead: curlError.description, network: nil)
        default:
            return nil
        }
    }

    /// Replays the fetch's stale fallback to its delegate in place of `failure`, with a warning;
    /// nil when there is no fallback or its body is gone. `network` is the server's answer, whose
    /// metrics the stale answer keeps.
    func answerStale(_ fetch: CacheFetch, instead failure: String, network: HTTPClientResult?) throws -> Step? {
        fetch.tee.writer?.discard()
        guard let fallback = fetch.fallback else { return nil }
        let age = age(fallback.entry, now: configuration.now())
        guard
            let replayed = try replay(
                fallback, age: age, request: fetch.original, maxBodyBytes: fetch.maxBodyBytes, to: fetch.target)
        else { return nil }
        let answered = network.map {
            HTTPClientResult(replayed, totalTime: $0.totalTime, hopMetrics: $0.hopMetrics)
        } ?? replayed
        warn("\(failure); a stale response from the cache answers (stale-if-error)")
        return .done(answered, .stale(age: age, directive: "stale-if-error"))
    }
}
