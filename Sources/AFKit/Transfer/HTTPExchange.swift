import AFCurl

/// One request's way through its hops: which transfer to run next, and what each ended transfer
/// means (the final response, a redirect to follow, or a failure).
///
/// Both transports drive it: `HTTPClient` runs each hop with `EasyHandle.perform`, one after the
/// other; `MultiClient` queues each hop as a new transfer on a multi handle. The redirect rules,
/// the hop limit, the total timeout and the delegate's events are therefore the same for a single
/// request and for a request of a batch.
package final class HTTPExchange {
    /// How the request is sent.
    let options: TransferSettings
    /// Where every hop's events go.
    let delegate: HTTPClientDelegate
    /// The request of the hop in progress (or next).
    private(set) var current: PreparedRequest
    /// The index of that hop; 0 for the original request.
    private(set) var hop = 0
    /// Seconds spent on the hops that ended.
    private var elapsed = 0.0
    /// Each hop's metrics, in order, for the result.
    private var hopMetrics: [TransferMetrics] = []
    /// The events of the hop in progress.
    private var events: HopEvents?
    /// Header lines of earlier requests, reused when this one's fields are the same; nil to make
    /// them each time.
    private let headerLines: HeaderLinesMemo?

    /// An exchange for `request`, not yet started.
    package convenience init(_ request: PreparedRequest, options: TransferSettings, delegate: HTTPClientDelegate) {
        self.init(request, options: options, delegate: delegate, headerLines: nil)
    }

    /// An exchange whose transfers take their header lines from `headerLines` (a batch's).
    init(_ request: PreparedRequest, options: TransferSettings, delegate: HTTPClientDelegate, headerLines: HeaderLinesMemo?) {
        self.current = request
        self.options = options
        self.delegate = delegate
        self.headerLines = headerLines
    }

    /// The transfer of the next hop and the events libcurl reports it to; announces the request
    /// to the delegate unless its raw head will be reported as sent.
    package func nextTransfer() throws -> (TransferRequest, TransferEvents) {
        let hopEvents = HopEvents(hop: hop, request: current, options: options, delegate: delegate)
        events = hopEvents
        let transfer = try HTTPClient.transferRequest(
            for: current, options: options, elapsed: elapsed, headerLines: headerLines)
        if !transfer.options.reportsRequestHeads {
            try hopEvents.announce()
        }
        return (transfer, hopEvents)
    }

    /// Concludes the hop in progress with libcurl's `result`: the exchange's result when its
    /// response is final, nil when a redirect is to be followed (call `nextTransfer` again).
    /// Throws the transfer's error (a delegate's own error unwrapped), or a redirect failure.
    package func hopEnded(_ result: TransferResult) throws -> HTTPClientResult? {
        guard let hopEvents = events else { preconditionFailure("hopEnded without nextTransfer") }
        events = nil
        let outcome: TransferOutcome
        switch result {
        case .success(let value):
            try hopEvents.announce()
            outcome = value
        case .failure(var error):
            if error.kind == .responseHandlerFailed, let underlying = error.underlyingError {
                throw underlying
            }
            // The request never got out (or its head was not reported): still tell the delegate.
            try? hopEvents.announce()
            if HSTSUpgrade.happened(requested: current.url, effective: error.metrics?.effectiveURL) {
                error.description += " (" + HSTSUpgrade.explanation + ")"
            }
            throw error
        }
        if HSTSUpgrade.happened(requested: current.url, effective: outcome.effectiveURL) {
            delegate.didUpgradeByHSTS(hop: hop, requested: current.url)
        }
        elapsed += outcome.totalTime
        hopMetrics.append(outcome.metrics)
        try delegate.didFinishResponse(hop: hop, isFinal: hopEvents.redirectTarget == nil)
        if let refused = hopEvents.refusedTarget { throw HTTPClientError.refusedRedirect(target: refused) }
        guard let target = hopEvents.redirectTarget else {
            let head = outcome.head ?? HTTPExchange.syntheticHead(outcome)
            return HTTPClientResult(
                head: head, outcome: outcome, url: current.url, method: current.method, redirectCount: hop,
                totalTime: elapsed, hopMetrics: hopMetrics)
        }
        guard hop < options.maxRedirects else {
            throw HTTPClientError.tooManyRedirects(options.maxRedirects)
        }
        // With pins the plain-http hop is refused anyway (pinning needs https): no warning then.
        if RedirectPolicy.isDowngrade(from: current.url, to: target), !options.tls.isPinning {
            delegate.willFollowInsecureRedirect(hop: hop, to: target)
        }
        current = try RedirectPolicy.follow(
            current, status: outcome.statusCode, to: target, trusted: options.locationTrusted)
        hop += 1
        return nil
    }

    /// A head for the rare transfer that ends without one having been reported.
    private static func syntheticHead(_ outcome: TransferOutcome) -> ResponseHead {
        ResponseHead(statusCode: outcome.statusCode, reasonPhrase: "", httpVersion: outcome.httpVersion, headers: [])
    }
}
