/// The delegate `RetryingEngine` puts between one try of an exchange and the event stages, so
/// that a try which will be retried never reaches the reporter: nothing of it is printed,
/// recorded or logged, and the next try's events arrive as if they were the first.
///
/// Whether a try is retried is known at its final head (a retryable status), before its body:
/// the gate then drops the body and ends the transfer there (`needsMoreFinalBody`), holding
/// nothing. Until a head arrives it holds only the `willSend` events of the try (one per hop,
/// each a request head), so `-v` shows the request once; a try that fails without a head has
/// them dropped when it is retried, or passed on when its failure is final.
///
/// For an event stream that is reconnected (`--reconnect`), the body goes on whole events at a
/// time (`EventStreamResumption` holds an open one), and a reconnection's head is not passed on:
/// its events go on as more of the first response's body. The end of a response that ends only
/// by a close is kept back while a reconnection may follow. A reconnection answered by anything
/// but a 200 event stream ends the stream (`refused`), its events dropped.
final class RetryGate: ForwardingDelegate {
    let next: HTTPClientDelegate
    /// Asked at the final head: the retry's wait and reason when this try is to be retried.
    private let decide: (ResponseHead, _ url: String) -> RetryingEngine.Plan?
    /// The request heads of the try, held until its first response head.
    private var held: [(hop: Int, request: SentRequest)] = []
    /// Whether events now go straight on (a response head was passed on).
    private var passing = false
    /// The URL of the hop the last response came from (where a wait applies).
    private(set) var lastURL: String
    /// The retry the final head asked for; its events are dropped from then on.
    private(set) var retry: RetryingEngine.Plan?
    /// The event stream the exchange reconnects, when it does (`--reconnect`).
    private let stream: EventStreamResumption?
    /// Whether this reconnection was answered by something else than an event stream.
    private(set) var refused = false
    /// Whether the exchange has a try left to connect its stream again.
    private let mayReconnect: () -> Bool
    /// The try's final head (a reconnection's too, which is not passed on).
    private var finalHead: ResponseHead?

    init(
        next: HTTPClientDelegate, url: String, stream: EventStreamResumption?,
        mayReconnect: @escaping () -> Bool = { false },
        decide: @escaping (ResponseHead, String) -> RetryingEngine.Plan?
    ) {
        self.next = next
        self.lastURL = url
        self.stream = stream
        self.mayReconnect = mayReconnect
        self.decide = decide
    }

    func willSend(hop: Int, request: SentRequest) throws {
        lastURL = request.url
        if passing { return try next.willSend(hop: hop, request: request) }
        held.append((hop, request))
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        if isFinal { finalHead = head }
        if isFinal, let stream, stream.reconnecting {
            held.removeAll()
            passing = true
            guard EventStreamResumption.isEventStream(head) else {
                refused = true
                return
            }
            let closing = stream.closingBytes()
            if !closing.isEmpty {
                try closing.withUnsafeBytes { try next.didReceiveBody(hop: hop, chunk: $0, isFinal: true) }
            }
            return
        }
        if isFinal, let plan = decide(head, lastURL) {
            retry = plan
            held.removeAll()
            return
        }
        try passHeld()
        if isFinal, let stream, EventStreamResumption.isEventStream(head) { stream.started = true }
        try next.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        if dropsEvents { return }
        if isFinal, let stream, stream.started {
            stream.lastHop = hop
            return try stream.feed(chunk) { try next.didReceiveBody(hop: hop, chunk: $0, isFinal: true) }
        }
        try next.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal)
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        if dropsEvents { return }
        if isFinal, let stream, stream.started {
            // A close ended it, which may be a drop: the stream goes on over a new connection.
            if let finalHead, EventStreamResumption.endsByClose(finalHead), mayReconnect() {
                stream.pendingFinish = hop
                return
            }
            try stream.release { try next.didReceiveBody(hop: hop, chunk: $0, isFinal: true) }
        }
        try next.didFinishResponse(hop: hop, isFinal: isFinal)
    }

    func needsMoreFinalBody() -> Bool {
        !dropsEvents && next.needsMoreFinalBody()
    }

    /// Whether the try's response is not the reporter's: it is retried, or a refused reconnection.
    private var dropsEvents: Bool { retry != nil || refused }

    /// Passes on the request heads held so far (once a response head or a final failure shows
    /// the try is the one the reporter gets).
    func passHeld() throws {
        passing = true
        let requests = held
        held.removeAll()
        for (hop, request) in requests { try next.willSend(hop: hop, request: request) }
    }
}
