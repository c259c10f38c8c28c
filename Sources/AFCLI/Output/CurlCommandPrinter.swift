import AFKit
import Glibc

/// `--curl`: prints the curl command line that sends the same request, and sends nothing.
enum CurlCommandPrinter {
    /// Writes the command (one shell-quoted line) on standard output and its notes on standard
    /// error; `settings` are the client options the request would be sent with, `stored` the
    /// secrets that came from files (a session).
    static func print(
        _ prepared: PreparedRequest, settings: TransferSettings, options: Settings, spec: RequestSpec,
        stored: CurlSecrets
    ) throws {
        var secrets = options.request.showSecrets ? CurlSecrets() : secrets(spec, options).union(stored)
        if !options.request.authStages.isEmpty, !options.request.showSecrets {
            secrets = secrets.union(AuthStages.curlSecrets(prepared, options: options))
        }
        var command = try CurlCommand(request: prepared, options: settings, secrets: secrets)
        for note in AuthStages.curlNotes(options) { ErrorReporter.note(note) }
        // afcli's --write-out is curl's, format and @FILE alike.
        if let writeOut = options.output.writeOut { command.arguments += ["--write-out", writeOut] }
        for note in command.notes { ErrorReporter.note(note) }
        let stream = OutputStream(descriptor: STDOUT_FILENO, target: "standard output")
        try stream.write(command.shellLine + "\n")
        try stream.flush()
    }

    /// The secrets that were not typed on the command line: a password asked for on the terminal
    /// (`-a USER` without `:PASS`), and the header value made from it. A password typed with `-a`
    /// is printed as typed, as the command line already shows it.
    static func secrets(_ spec: RequestSpec, _ options: Settings) -> CurlSecrets {
        guard let auth = options.request.auth, !auth.contains(":"), options.request.authType != .bearer else {
            return CurlSecrets()
        }
        return spec.credentials.map(CurlSecrets.credentials) ?? CurlSecrets()
    }
}

/// Shows a single request as the curl command that sends it (`--curl`), instead of sending it.
final class CurlCommandPreviewer: RequestPreviewer {
    private let options: Settings
    private let spec: RequestSpec
    private let stored: CurlSecrets

    /// `spec` is what the user asked for (the credentials typed or asked for), `stored` what the
    /// session supplied: both are redacted unless `--show-secrets`.
    init(options: Settings, spec: RequestSpec, stored: CurlSecrets) {
        self.options = options
        self.spec = spec
        self.stored = stored
    }

    func show(_ request: PlannedRequest, settings: TransferSettings) throws {
        try CurlCommandPrinter.print(request.prepared, settings: settings, options: options, spec: spec, stored: stored)
    }
}
