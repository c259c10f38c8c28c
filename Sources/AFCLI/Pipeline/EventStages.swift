import AFKit

/// The event stages of one exchange, in pipeline order: decryption (`--decrypt-cmd`), the
/// outcome recorder, the envelope (`--envelope`), then the reporter's receiver. Built the same
/// for a single request, each request of a run and a cache's stored answer.
struct EventStages {
    /// Where the engine delivers the exchange's events.
    let first: HTTPClientDelegate
    /// What the events recorded, after decryption.
    let recorder: OutcomeRecorder
    /// The envelope stage, read once the answer is in; nil without `--envelope`.
    let envelope: EnvelopeDelegate?

    /// The stages in front of `receiver`. When the receiver has a printer, the envelope's result
    /// is rendered by it (else passed on as the final body), and it is told when a body is
    /// decrypted (the decrypted body is shown as text).
    init(receiver: ReportedExchange, decryptCommand: String?, envelope spec: EnvelopeSpec?) {
        let printer = receiver.printer
        var next = receiver.delegate
        envelope = spec.map { EnvelopeDelegate(next: receiver.delegate, spec: $0, printer: printer) }
        if let envelope { next = envelope }
        recorder = OutcomeRecorder(next: next)
        guard let decryptCommand else {
            first = recorder
            return
        }
        let decrypting = DecryptingDelegate(next: recorder, command: decryptCommand)
        if let printer { decrypting.willDecrypt = { printer.finalBodyContentType = "text/plain" } }
        first = decrypting
    }
}
