import AFCurl

/// What sends exchanges (DESIGN §3's exchange engine): `start` hands one over, and the engine
/// tells when it completed. A serial engine (libcurl's easy handle, `--local`: every
/// `RequestTransport`) completes it before `start` returns; a parallel one (`MultiClient`, the
/// multi handle of a run) returns nil from `start` and the completion from a later `run`.
///
/// The response cache is one decorator over this seam (`CachingEngine`), the same for both.
package protocol ExchangeEngine: AnyObject {
    /// Starts `order`; its completion when it completed already, else nil (a later `run` returns
    /// it). Throws when it cannot be started at all: nothing is then in flight for its tag.
    func start(_ order: ExchangeOrder) throws -> ExchangeCompletion?
    /// Runs what can run now without waiting; the exchanges that completed, in order.
    func run() throws -> [ExchangeCompletion]
    /// Waits up to `timeoutMilliseconds` for activity on an exchange in flight; `run` handles it.
    func poll(timeoutMilliseconds: Int) throws
    /// The number of exchanges started and not completed.
    var inFlight: Int { get }
    /// Stops every exchange in flight; each completes as interrupted.
    func cancelAll() -> [ExchangeCompletion]
    /// The cookies the engine's own cookie store would send to `url` now, as a `Cookie` value;
    /// nil for none, or when the engine keeps none apart from each request's settings.
    func cookieHeader(for url: String) -> String?
    /// Moves the `Cookie` fields of `request` into the engine's own cookie store, bound to the
    /// request's host, so that libcurl sends them with the store's in one `Cookie` field (RFC 6265
    /// §5.4 allows one); an engine without a store of its own leaves them to be sent as they are.
    func adoptCookieFields(of request: inout PreparedRequest) throws
}

/// One exchange an engine is asked to send: the request, where its events go, and how.
package struct ExchangeOrder {
    package var request: PreparedRequest
    package var delegate: HTTPClientDelegate
    /// The transfer settings. A serial transport was made with them and does not read them again.
    package var options: TransferSettings
    /// What the completion is told apart by.
    package var tag: Int
    /// When the request was ready to go (monotonic seconds): its queue time starts then.
    package var readyAt: Double
    /// Whether it uses the engine's cookie store (`# @no-cookie-jar` turns it off).
    package var sendsCookies: Bool
    /// What plans its tries (a download); nil for an order sent as it is. Only a `RetryingEngine`
    /// reads it: a stack that sends such orders has one.
    package var tries: (any TryPlanner)? = nil

    package init(
        _ request: PreparedRequest, delegate: HTTPClientDelegate, options: TransferSettings, tag: Int = 0,
        readyAt: Double = 0, sendsCookies: Bool = true
    ) {
        self.request = request
        self.delegate = delegate
        self.options = options
        self.tag = tag
        self.readyAt = readyAt
        self.sendsCookies = sendsCookies
    }
}

/// One exchange that completed.
package struct ExchangeCompletion {
    /// The order's tag.
    package let tag: Int
    /// The exchange's result (its final outcome's metrics carry the queue time), or its error
    /// (a transport `CurlError`, an `HTTPClientError`, the cache's or the delegate's own error).
    package var result: Result<HTTPClientResult, any Error>
    /// The times of the last transfer libcurl ran for it, with the queue time: also when the
    /// exchange failed after that transfer (a delegate's error, a refused redirect) or was
    /// cancelled; nil when no transfer ran (or a serial engine, whose result carries them).
    package var metrics: TransferMetrics? = nil
    /// Whether that transfer itself failed or was cancelled, so its times end there.
    package var transferFailed = false
    /// What the response cache did for it; nil when it took no part (or there is none).
    package var cache: CacheOutcome? = nil
    /// How many tries it took and why it was retried (`RetryingEngine`); nil when retries are off.
    package var retry: RetryRecord? = nil

    package init(tag: Int, result: Result<HTTPClientResult, any Error>) {
        self.tag = tag
        self.result = result
    }
}
