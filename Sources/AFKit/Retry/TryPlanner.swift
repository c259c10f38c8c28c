/// An exchange that plans each of its tries and says what the end of one means, while
/// `RetryingEngine` decides whether and when a failed one is tried again: a download, whose every
/// try continues from the bytes on disk (`Range`), whose restart from zero is a try too, and which
/// may find its file already whole and send nothing.
///
/// The order carries it (`ExchangeOrder.tries`); its tries then pass no `RetryGate`: the statuses
/// that call for a retry are its own to judge.
package protocol TryPlanner: AnyObject {
    /// Plans the next try: changes `request` (its range), or returns the exchange's result when
    /// there is nothing to send.
    func planTry(_ request: inout PreparedRequest) -> Result<HTTPClientResult, any Error>?
    /// What the try that ended with `result` means.
    func tryEnded(_ result: Result<HTTPClientResult, any Error>) -> TryEnd
    /// The failure `error` is tried again in `wait` seconds: the `retry`th retry of `retries`.
    func willRetry(after error: any Error, wait: Double, retry: Int, of retries: Int)
}

/// How a planned try ended (`TryPlanner.tryEnded`).
package enum TryEnd {
    /// The exchange is over, with this result.
    case over(Result<HTTPClientResult, any Error>)
    /// Another try at once, which is no retry (a download starting again from zero).
    case again
    /// The try failed with `error`; tried again while the rules allow when `transient`, after the
    /// server's `wait` when it named one, else the backoff.
    case failed(any Error, transient: Bool, serverWait: Double?)
}
