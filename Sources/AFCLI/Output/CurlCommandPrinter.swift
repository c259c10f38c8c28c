import AFKit
import Glibc

/// `--curl`: prints the curl command line that sends the same request, and sends nothing.
enum CurlCommandPrinter {
    /// Writes the command (one shell-quoted line) on standard output and its notes on standard
    /// error; `settings` are the client options the request would be sent with, `stored` the
    /// secrets that came from files (a session).
    static func print(
        _ prepared: PreparedRequest, settings: ClientOptions, options: OptionValues, spec: RequestSpec,
        stored: CurlSecrets
    ) throws -> ExitStatus {
        let secrets = options.showSecrets ? CurlSecrets() : secrets(spec, options).union(stored)
        var command = try CurlCommand(request: prepared, options: settings, secrets: secrets)
        // afcli's --write-out is curl's, format and @FILE alike.
        if let writeOut = options.writeOut { command.arguments += ["--write-out", writeOut] }
        for note in command.notes { ErrorReporter.note(note) }
        let stream = OutputStream(descriptor: STDOUT_FILENO, target: "standard output")
        try stream.write(command.shellLine + "\n")
        try stream.flush()
        return .success
    }

    /// The secrets that were not typed on the command line: a password asked for on the terminal
    /// (`-a USER` without `:PASS`), and the header value made from it. A password typed with `-a`
    /// is printed as typed, as the command line already shows it.
    static func secrets(_ spec: RequestSpec, _ options: OptionValues) -> CurlSecrets {
        guard let auth = options.auth, !auth.contains(":"), options.authType != .bearer else { return CurlSecrets() }
        return spec.credentials.map(CurlSecrets.credentials) ?? CurlSecrets()
    }
}
