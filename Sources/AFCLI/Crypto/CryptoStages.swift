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
        wrap(delegate, printer: delegate.printer, rendersResult: true)
    }

    /// The same stages over any reporter `delegate` whose answer `printer` shows (a cache's stored
    /// answer goes through them as the network's does). With `rendersResult` the envelope's result
    /// is rendered by `printer`; without, it is passed on to `delegate` as the final body.
    func wrap(
        _ delegate: HTTPClientDelegate, printer: ExchangePrinter, rendersResult: Bool
    ) -> (delegate: HTTPClientDelegate, recorder: OutcomeRecorder) {
        var next: HTTPClientDelegate = delegate
        if let envelopeSpec {
            let envelope = EnvelopeDelegate(next: delegate, spec: envelopeSpec, printer: rendersResult ? printer : nil)
            self.envelope = envelope
            next = envelope
        }
        let recorder = OutcomeRecorder(next: next)
        guard let decryptCommand else { return (recorder, recorder) }
        let decrypting = DecryptingDelegate(next: recorder, command: decryptCommand)
        decrypting.willDecrypt = { printer.finalBodyContentType = "text/plain" }
        return (decrypting, recorder)
    }

    /// Prints the envelope's result once the exchange is over; what the envelope stage read, nil
    /// when it read nothing (no `--envelope`, not a 2xx).
    func concludeEnvelope() throws -> EnvelopeReading? {
        try envelope?.conclude()
    }
}
