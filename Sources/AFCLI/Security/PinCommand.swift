import AFKit
import Glibc

/// Runs `afcli pin URL`: a TLS handshake (no HTTP request) that prints the `sha256//` pin of every
/// certificate in the server's chain, leaf first, ready to paste into `--pin-key`.
///
/// The chain printed is the verified one, up to the trust anchor that verified it (AF's
/// `AFPublicKeyTrustChainForServerTrust` walks the evaluated chain too); with `--insecure` it is
/// the chain as the server sent it. The TLS options apply as for a request, so `--pin-key` here
/// checks a pin against the server.
struct PinCommand {
    var positionals: [String]
    var options: Settings

    /// Connects, prints the pins and returns the exit status (TLS failures are thrown).
    func run() throws -> ExitStatus {
        let text = positionals.dropFirst().first ?? ""
        let url = Self.httpsURL(text)
        guard let host = CertificateChainProbe.httpsHost(of: url) else {
            throw UsageError.invalidValue(option: "pin", value: text, reason: "is not an https URL or host name")
        }
        let proxy = options.transfer.proxy.flatMap { $0.scope != .http ? $0.url : nil }
        let report = try CertificateChainProbe.connect(
            url: url, tls: try SecurityOptions.tlsOptions(options, forURL: url),
            connectTimeout: options.transfer.connectTimeout, timeout: options.transfer.timeout, proxy: proxy,
            resolve: options.tls.resolve)
        let stream = OutputStream(descriptor: STDOUT_FILENO, target: "standard output")
        if options.request.encoding == .json {
            try stream.write(try Self.json(report, url: url) + "\n")
        } else {
            // A subject is the server's text: on a terminal its control characters are shown, not obeyed.
            let toTerminal = isatty(STDOUT_FILENO) == 1
            for (depth, certificate) in report.chain.enumerated() {
                let pin = PinnedPublicKey(digest: certificate.keySHA256)?.description ?? "?"
                let subject = toTerminal ? certificate.subject.escapingTerminalControls : certificate.subject
                try stream.write("\(pin)  \(depth)  \(Self.role(depth: depth, in: report))  \(subject)\n")
            }
        }
        try stream.flush()
        if report.chain.isEmpty {
            ErrorReporter.warn("this libcurl cannot show the certificate chain (its TLS library is not OpenSSL)")
            return .failure
        }
        if let problem = report.verificationProblem, !options.output.quiet {
            ErrorReporter.warn(
                "the chain of \(host) did not verify (\(problem)): these are the certificates as sent")
        }
        return .success
    }

    /// `https://` plus the text unless it has a scheme; `:8443` means localhost, as for requests.
    static func httpsURL(_ text: String) -> String {
        if text.contains("://") { return text }
        if text.hasPrefix(":") { return "https://localhost" + text }
        return "https://" + text
    }

    /// `leaf`, `intermediate`, or `root` for the verified chain's anchor (`top` when unverified).
    private static func role(depth: Int, in report: ConnectionReport) -> String {
        if depth == 0 { return "leaf" }
        if depth == report.chain.count - 1 { return report.chainIsVerified ? "root" : "top" }
        return "intermediate"
    }

    /// `{"url":…,"verified":…,"certificates":[{"depth":0,"pin":…,"subject":…,"issuer":…}]}`.
    private static func json(_ report: ConnectionReport, url: String) throws -> String {
        let certificates = report.chain.enumerated().map { depth, certificate in
            JSONValue.object([
                JSONMember(key: "depth", value: .number(String(depth))),
                JSONMember(key: "role", value: .string(role(depth: depth, in: report))),
                JSONMember(
                    key: "pin", value: .string(PinnedPublicKey(digest: certificate.keySHA256)?.description ?? "")),
                JSONMember(key: "subject", value: .string(certificate.subject)),
                JSONMember(key: "issuer", value: .string(certificate.issuer)),
            ])
        }
        return try JSONWriter.encodeToString(
            .object([
                JSONMember(key: "url", value: .string(url)),
                JSONMember(key: "address", value: report.address.map { .string($0) } ?? .null),
                JSONMember(key: "verified", value: .bool(report.chainIsVerified)),
                JSONMember(key: "certificates", value: .array(certificates)),
            ]))
    }
}
