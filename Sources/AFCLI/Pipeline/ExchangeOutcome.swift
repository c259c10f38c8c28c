import AFKit

/// What one exchange ended with, as its events recorded it: the final status, the body's type and
/// size, the transfer's error, the envelope's reading and the cache's part. The `OutcomeJudge`
/// decides the verdict from it and the request log reads it; neither asks the reporter (the
/// printer, a run's line) what it saw.
struct ExchangeOutcome {
    /// The final response's status code; nil when none arrived.
    var statusCode: Int?
    /// The final response's reason phrase, as shown.
    var reasonPhrase = ""
    /// The final response's raw `Content-Type`; nil when it had none.
    var contentType: String?
    /// Bytes of the final response's body, after content decoding and decryption.
    var bodyBytes = 0
    /// Why the transfer failed; nil when it completed.
    var transferError: (any Error)?
    /// What `--envelope` read in the final 2xx body; nil without `--envelope` or for another status.
    var envelope: EnvelopeReading?
    /// What the response cache did; nil when it took no part.
    var cache: CacheOutcome?
    /// The request's assertions (`??` lines), checked against the response; empty for none.
    var assertions: [AssertionResult] = []
}

/// What the envelope stage read in a final 2xx body.
enum EnvelopeReading {
    /// A success status: the result was passed on as the body.
    case success
    /// Another status, with the envelope's message (exit status 13).
    case failure(message: String)
    /// A status of the common-failure list, with the envelope's message (exit status 14).
    case commonFailure(message: String)
    /// The body is no envelope.
    case unreadable(EnvelopeError)

    /// The reading of the envelope stage's `outcome`.
    init(_ outcome: ResponseEnvelope.Outcome) {
        switch outcome {
        case .success: self = .success
        case .failure(_, let message): self = .failure(message: message)
        case .commonFailure(_, let message): self = .commonFailure(message: message)
        }
    }
}

/// The outcome recorder, the event stage between the decryption (or the transport) and what
/// follows (the envelope, the reporter): notes the final head, counts the final body's bytes as
/// the reporter receives them and keeps its start for the request log, forwarding every event.
final class OutcomeRecorder: ForwardingDelegate {
    let next: HTTPClientDelegate
    /// Whether the final body's start is kept for the request log (which then reads it whole).
    var keepsBodyForLog: Bool {
        get { keptBodyLimit > 0 }
        set { keptBodyLimit = max(keptBodyLimit, newValue ? RequestLogger.bodyLimit : 0) }
    }
    /// The most of the final body kept (for the log, for assertions); 0 keeps none.
    var keptBodyLimit = 0
    /// The final response's head, once it arrived.
    private(set) var finalHead: ResponseHead?
    /// Body bytes of the final response so far.
    private(set) var bodyBytes: Int64 = 0
    /// The final body's start, for assertions (at most `keptBodyLimit` bytes).
    private(set) var keptBody = LoggedBody()
    /// The final body's start, for the request log.
    var loggedBody: LoggedBody { keptBody.prefix(RequestLogger.bodyLimit) }

    init(next: HTTPClientDelegate) {
        self.next = next
    }

    /// The outcome as the events alone tell it: the final head and body, nothing about how the
    /// exchange ended.
    var recorded: ExchangeOutcome {
        ExchangeOutcome(
            statusCode: finalHead?.statusCode, reasonPhrase: finalHead?.shownReasonPhrase ?? "",
            contentType: finalHead?.value(for: "Content-Type"), bodyBytes: Int(clamping: bodyBytes))
    }

    /// The outcome of the exchange that ended with `result`; the status and reason are the
    /// result's (a cache may answer with a stored response), the type is the final head's.
    func outcome(
        _ result: Result<HTTPClientResult, any Error>, envelope: EnvelopeReading? = nil, cache: CacheOutcome? = nil
    ) -> ExchangeOutcome {
        var outcome = recorded
        outcome.envelope = envelope
        outcome.cache = cache
        switch result {
        case .success(let exchange):
            outcome.statusCode = exchange.statusCode
            outcome.reasonPhrase = exchange.reasonPhrase
            if finalHead == nil { outcome.contentType = exchange.head.value(for: "Content-Type") }
        case .failure(let error):
            outcome.transferError = error
        }
        return outcome
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        if isFinal {
            finalHead = head
            bodyBytes = 0
            keptBody = LoggedBody(limit: keptBodyLimit)
        }
        try next.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        if isFinal {
            bodyBytes += Int64(chunk.count)
            if keptBodyLimit > 0 { keptBody.append(chunk) }
        }
        try next.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal)
    }

    func needsMoreFinalBody() -> Bool { keepsBodyForLog || next.needsMoreFinalBody() }
}
