import AFKit

/// The envelope stage between the outcome recorder and the reporter (the printer, a run's body
/// sink): the final 2xx body is kept (bounded by `ResponseEnvelope.maximumBodyBytes`) instead of
/// passed on, then read as an envelope; only the result is passed on, as the final body.
final class EnvelopeDelegate: ForwardingDelegate {
    let next: HTTPClientDelegate
    private let spec: EnvelopeSpec
    /// The printer of a single request, told that the body is the result's JSON and shown it.
    private let printer: ExchangePrinter?
    private var collecting = false
    private var finished = false
    private var finalHop = 0
    private var body: [UInt8] = []

    init(next: HTTPClientDelegate, spec: EnvelopeSpec, printer: ExchangePrinter? = nil) {
        self.next = next
        self.spec = spec
        self.printer = printer
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        collecting = isFinal && (200...299).contains(head.statusCode)
        if collecting { printer?.finalBodyContentType = "application/json" }
        try next.didReceive(hop: hop, head: head, isFinal: isFinal)
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        guard collecting, isFinal else {
            try next.didReceiveBody(hop: hop, chunk: chunk, isFinal: isFinal)
            return
        }
        guard body.count + chunk.count <= ResponseEnvelope.maximumBodyBytes else {
            throw EnvelopeError.tooLarge(limit: ResponseEnvelope.maximumBodyBytes)
        }
        try printer?.passFinalBody(chunk)
        body.append(contentsOf: chunk)
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        guard collecting, isFinal else {
            try next.didFinishResponse(hop: hop, isFinal: isFinal)
            return
        }
        finished = true
        finalHop = hop
    }

    func needsMoreFinalBody() -> Bool {
        collecting || next.needsMoreFinalBody()
    }

    /// Reads the kept body: on success prints the result; whatever it says, returns the reading
    /// (the `OutcomeJudge` tells a failure); nil when no final 2xx body was kept.
    func conclude() throws -> EnvelopeReading? {
        guard finished else { return nil }
        let outcome: ResponseEnvelope.Outcome
        do {
            outcome = try ResponseEnvelope.evaluate(body, spec: spec)
        } catch {
            return .unreadable(error)
        }
        body = []
        if case .success(let result) = outcome {
            try result.withUnsafeBytes { chunk in
                if let printer {
                    try printer.renderBody(chunk)
                } else {
                    try next.didReceiveBody(hop: finalHop, chunk: chunk, isFinal: true)
                }
            }
            try next.didFinishResponse(hop: finalHop, isFinal: true)
        } else {
            try printer?.finish()
        }
        return EnvelopeReading(outcome)
    }
}
