import AFKit

/// Composes the encryption, decryption and envelope stages from the options and the environment,
/// so that RequestCommand only calls them in pipeline order.
final class CryptoStages {
    private let options: OptionValues
    private let encryptCommand: String?
    private let decryptCommand: String?
    private let envelopeSpec: EnvelopeSpec?
    private var envelope: EnvelopeDelegate?

    init(options: OptionValues, profile: EnvironmentProfile?) {
        self.options = options
        let settings = SettingsResolver(options, profile: profile)
        encryptCommand = settings.encryptCommand
        decryptCommand = settings.decryptCommand
        envelopeSpec = settings.envelope
    }

    /// Encrypts the serialized body, when a command is set and there is a body. `--curl` is refused
    /// then: the encrypted body lives only in afcli's temporary file, which a curl command could not
    /// read (`--offline` shows it).
    func encrypt(_ prepared: inout PreparedRequest) throws {
        guard let command = encryptCommand, prepared.body != nil else { return }
        if options.curl {
            throw UsageError.refusedFlag(
                option: "--curl",
                reason: "cannot show an encrypted body (it exists only while afcli runs); --offline shows it")
        }
        try BodyEncryption.apply(
            to: &prepared, command: command,
            contentType: options.crypto.encryptedType ?? BodyEncryption.defaultContentType)
    }

    /// The parts to print: with `--envelope` and no `--print`/`--verbose`, only the body, since
    /// stdout gets only the result.
    func printParts(_ resolved: OptionValues.PrintParts) -> OptionValues.PrintParts {
        guard envelopeSpec != nil, options.printParts == nil, !options.verbose, !options.offline else {
            return resolved
        }
        return [.responseBody]
    }

    /// The delegate the transport talks to: decryption, then the outcome recorder, then the
    /// envelope, then the printer; and the recorder, which sees the body as decrypted.
    func wrap(_ delegate: PrintingDelegate) -> (delegate: HTTPClientDelegate, recorder: OutcomeRecorder) {
        var next: HTTPClientDelegate = delegate
        if let envelopeSpec {
            let envelope = EnvelopeDelegate(next: delegate, spec: envelopeSpec)
            self.envelope = envelope
            next = envelope
        }
        let recorder = OutcomeRecorder(next: next)
        guard let decryptCommand else { return (recorder, recorder) }
        let decrypting = DecryptingDelegate(next: recorder, command: decryptCommand)
        let printer = delegate.printer
        decrypting.willDecrypt = { printer.finalBodyContentType = "text/plain" }
        return (decrypting, recorder)
    }

    /// Prints the envelope's result once the exchange is over; what the envelope stage read, nil
    /// when it read nothing (no `--envelope`, not a 2xx).
    func concludeEnvelope() throws -> EnvelopeReading? {
        try envelope?.conclude()
    }
}

/// The envelope stage between the transport (or decryption) and the printer: the final 2xx
/// body is kept (bounded by `ResponseEnvelope.maximumBodyBytes`) instead of printed, then read
/// as an envelope; only the result is printed.
final class EnvelopeDelegate: HTTPClientDelegate {
    private let next: PrintingDelegate
    private let spec: EnvelopeSpec
    private var collecting = false
    private var finished = false
    private var finalHop = 0
    private var body: [UInt8] = []

    init(next: PrintingDelegate, spec: EnvelopeSpec) {
        self.next = next
        self.spec = spec
    }

    func willSend(hop: Int, request: SentRequest) throws {
        try next.willSend(hop: hop, request: request)
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        collecting = isFinal && (200...299).contains(head.statusCode)
        if collecting { next.printer.finalBodyContentType = "application/json" }
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
        try next.printer.passFinalBody(chunk)
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

    func willFollowInsecureRedirect(hop: Int, to: String) {
        next.willFollowInsecureRedirect(hop: hop, to: to)
    }

    func didUpgradeByHSTS(hop: Int, requested: String) {
        next.didUpgradeByHSTS(hop: hop, requested: requested)
    }

    func didProgressUpload(hop: Int, uploaded: Int64, expected: Int64) {
        next.didProgressUpload(hop: hop, uploaded: uploaded, expected: expected)
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
            try result.withUnsafeBytes { try next.printer.renderBody($0) }
            try next.didFinishResponse(hop: finalHop, isFinal: true)
        } else {
            try next.printer.finish()
        }
        return EnvelopeReading(outcome)
    }
}
