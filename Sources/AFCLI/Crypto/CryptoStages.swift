import AFKit

/// The encryption stage of a request from the options and the environment, and what the envelope
/// changes in what is printed. (The decryption and envelope stages are `EventStages`.)
final class CryptoStages {
    private let settings: ResolvedSettings
    private var options: Settings { settings.options }

    init(_ settings: ResolvedSettings) {
        self.settings = settings
    }

    /// Encrypts the serialized body, when a command is set and there is a body. `--curl` is refused
    /// then: the encrypted body lives only in afcli's temporary file, which a curl command could not
    /// read (`--offline` shows it).
    func encrypt(_ prepared: inout PreparedRequest) throws {
        guard let command = settings.encryptCommand, prepared.body != nil else { return }
        if options.request.curl {
            throw UsageError.refusedFlag(
                option: "--curl",
                reason: "cannot show an encrypted body (it exists only while afcli runs); --offline shows it")
        }
        try BodyEncryption.apply(
            to: &prepared, command: command,
            contentType: options.pipeline.crypto.encryptedType ?? BodyEncryption.defaultContentType)
    }

    /// The parts to print: with `--envelope` and no `--print`/`--verbose`, only the body, since
    /// stdout gets only the result.
    func printParts(_ resolved: Settings.PrintParts) -> Settings.PrintParts {
        guard settings.envelope != nil, options.output.printParts == nil, !options.output.verbose,
            !options.request.offline
        else {
            return resolved
        }
        return [.responseBody]
    }
}
