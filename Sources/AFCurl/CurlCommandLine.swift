import Glibc

/// How the body of a transfer is handed to the curl command-line tool.
package enum CurlBodyArgument: Equatable, Sendable {
    /// No body.
    case none
    /// Bytes given inline (`--data-binary 'text'`); bytes that are not text without NUL are read
    /// from standard input instead, with a note.
    case bytes([UInt8])
    /// A file read by curl (`--data-binary @path`).
    case file(path: String)
    /// Multipart parts as curl arguments (`--form-string name=value`, `-F name=@path;…`): curl
    /// writes its own boundary and `Content-Type`, so afcli's `Content-Type` line is left out.
    case form([String])
    /// The body read from standard input (`--data-binary @-`); `note` says what to pipe.
    case standardInput(note: String?)
}

/// The curl command line that sends what a `TransferRequest` sends: the same method, URL, header
/// lines, body bytes and connection settings.
///
/// It reads the same `TransferRequest` that `EasyHandle.perform` applies to libcurl, through the
/// same helpers for the values that are derived (the header list, the connect timeout, whether
/// HSTS is used), so the printed command cannot drift from what is sent. `coverage` names the
/// curl flag (or the reason for none) of every field of the transfer options; a unit test fails
/// when a field has no entry.
package struct CurlCommandLine: Equatable, Sendable {
    /// The arguments after `curl`, in order, the URL last.
    package var arguments: [String]
    /// Where the command differs from what afcli does, or what it needs (standard input).
    package var notes: [String]

    /// The longest body written inline: longer ones would not fit a shell's argument list
    /// (ARG_MAX is 2 MiB on Linux, shared with the environment) and are read from standard input.
    static let maxInlineBody = 64 * 1024

    /// The curl tool's own default headers, which afcli suppresses when it does not send them.
    static let curlToolDefaultHeaders = ["User-Agent", "Accept"]

    /// The command for `request` with `body`; `maxRedirects` is non-nil when redirects are
    /// followed, `locationTrusted` keeps credentials on them; `cookies` are the `--cookie` and
    /// `--cookie-jar` arguments that start the cookie engine as afcli does (`--cookie ''` when
    /// the engine runs with none).
    package init(
        request: TransferRequest, body: CurlBodyArgument, maxRedirects: Int?, locationTrusted: Bool = false,
        cookies: [String] = []
    ) {
        var builder = CurlCommandLineBuilder()
        // First, as curl requires: no ~/.curlrc adds options afcli did not set.
        builder.add("--disable")
        builder.addMethod(request.method, body: body)
        builder.add("--proto", "=http,https")
        if let maxRedirects {
            builder.add("--location", "--max-redirs", String(maxRedirects), "--proto-redir", "=http,https")
            if locationTrusted { builder.add("--location-trusted") }
            if request.body != nil || request.method == "POST" {
                builder.note(
                    "after a redirect that turns the request into a GET, curl still sends the body's -H headers "
                        + "(Content-Type) that afcli drops")
            }
            if request.method != "GET", request.method != "POST", request.method != "HEAD" {
                builder.note("curl's -X keeps \(request.method) after every redirect; afcli sends GET after a 303")
            }
        }
        builder.addHeaders(request, body: body)
        builder.addBody(body)
        builder.addOptions(request.options, url: request.url)
        if request.options.cookieEngine { builder.arguments += cookies.isEmpty ? ["--cookie", ""] : cookies }
        if let file = request.options.netrcFile, access(file, F_OK) == 0 {
            builder.add("--netrc-optional", "--netrc-file", file)
        }
        builder.add(request.url)
        arguments = builder.arguments
        notes = builder.notes
    }

    /// The command as one line for a POSIX shell, starting with `curl`.
    package var shellLine: String {
        (["curl"] + arguments).map(CurlCommandLine.shellQuoted).joined(separator: " ")
    }

    /// `text` as one POSIX shell word: unchanged when it holds only characters no shell treats
    /// specially, else between single quotes, each `'` written as `'\''`.
    package static func shellQuoted(_ text: String) -> String {
        let safe =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "_@%+=:,./-".unicodeScalars.contains(scalar))
            }
        if safe { return text }
        return "'" + text.replacingSingleQuotes() + "'"
    }

    /// Seconds as curl reads them: up to milliseconds, trailing zeros dropped; at most the 2^31−1
    /// milliseconds afcli gives libcurl (`--timeout 99999999999999999999` is no crash).
    package static func seconds(_ value: Double) -> String {
        let milliseconds = Int(min(value * 1000, Double(Int32.max)).rounded())
        var fraction = String(milliseconds % 1000)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000)" + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// Every field of `TransferOptions`, `NetworkOptions` and `TLSOptions` with the curl flag it
    /// becomes, or why it has none.
    package static let coverage: [String: String] = [
        "TransferOptions.connectTimeout": "--connect-timeout",
        "TransferOptions.totalTimeout": "--max-time",
        "TransferOptions.idleTimeout": "--speed-limit 1 --speed-time N (curl aborts below 1 byte/s over N s), "
            + "and --connect-timeout when none is given",
        "TransferOptions.limits": "--max-filesize (the header and expansion limits have no curl flag)",
        "TransferOptions.proxy": "--proxy",
        "TransferOptions.noProxy": "--noproxy",
        "TransferOptions.httpVersion": "--http1.1, --http2, --http2-prior-knowledge, --http3",
        "TransferOptions.acceptEncoding": "--compressed (the Accept-Encoding line itself is a -H)",
        "TransferOptions.digestCredentials": "--digest, --ntlm or --negotiate, with --user",
        "TransferOptions.tls": "see TLSOptions",
        "TransferOptions.reportsRequestHeads": "none: only changes what afcli shows, not what is sent",
        "TransferOptions.resolve": "--resolve",
        "TransferOptions.network": "see NetworkOptions",
        "TransferOptions.cookieEngine": "--cookie ('' for the engine alone; a --cookie-jar file, or the "
            + "session's name=value pairs for this URL)",
        "TransferOptions.netrcFile": "--netrc-optional --netrc-file (left out when the file does not exist, "
            + "which libcurl ignores too)",
        "NetworkOptions.connectTo": "--connect-to",
        "NetworkOptions.addressFamily": "--ipv4, --ipv6",
        "NetworkOptions.unixSocket": "--unix-socket",
        "NetworkOptions.interface": "--interface",
        "NetworkOptions.maxReceiveRate": "--limit-rate (curl's limits uploads too)",
        "NetworkOptions.chunked": "-H 'Transfer-Encoding: chunked'",
        "NetworkOptions.hstsFile": "--hsts",
        "TLSOptions.verifyPeer": "--insecure",
        "TLSOptions.verifyHost": "--insecure (curl cannot skip the host name alone)",
        "TLSOptions.caFile": "--cacert",
        "TLSOptions.caPath": "--capath",
        "TLSOptions.pinnedPublicKey": "--pinnedpubkey",
        "TLSOptions.clientCertificate": "--cert",
        "TLSOptions.clientKey": "--key",
        "TLSOptions.minimumVersion": "--tlsv1.2, --tlsv1.3",
        "TLSOptions.pinnedKeyDigests": "--pinnedpubkey (curl checks the leaf's key only; a note says so)",
        "TLSOptions.pinnedCertificateDigests": "none: a note says curl has no certificate pinning",
        "TLSOptions.trustedCertificatesPEM": "none: a note says to save the pinned certificates for --cacert",
    ]
}

/// Accumulates the arguments and notes of a `CurlCommandLine`.
struct CurlCommandLineBuilder {
    var arguments: [String] = []
    var notes: [String] = []

    mutating func add(_ values: String...) { arguments += values }

    mutating func note(_ text: String) { notes.append(text) }

    /// `-X` only where curl would not infer the method: curl sends GET without a body, POST with
    /// one, and HEAD with `--head`.
    mutating func addMethod(_ method: String, body: CurlBodyArgument) {
        switch (method, body) {
        case ("HEAD", _): add("--head")
        case ("GET", .none), ("POST", .bytes), ("POST", .file), ("POST", .form), ("POST", .standardInput): break
        default: add("--request", method)
        }
    }

    /// Every header line libcurl is given, in the same order, through the same function; plus
    /// the lines that keep curl's tool from adding what afcli does not send.
    mutating func addHeaders(_ request: TransferRequest, body: CurlBodyArgument) {
        let effectiveBody = EasyHandle.effectiveBody(method: request.method, body: request.body)
        var lines = EasyHandle.sentHeaderLines(request.headerLines, uploading: effectiveBody != nil)
        let names = Set(lines.map(EasyHandle.headerName(of:)))
        for name in CurlCommandLine.curlToolDefaultHeaders where !names.contains(ASCIICase.lowercased(name)) {
            lines.append("\(name):")
        }
        switch body {
        case .form:
            // curl writes the multipart Content-Type with its own boundary.
            lines.removeAll { EasyHandle.headerName(of: $0) == "content-type" }
            note("curl writes its own multipart boundary: the parts are the same, the boundary differs")
        case .bytes, .file, .standardInput:
            // --data-binary would add Content-Type: application/x-www-form-urlencoded.
            if !names.contains("content-type") { lines.append("Content-Type:") }
        case .none:
            break
        }
        if let effectiveBody, !names.contains("transfer-encoding"),
            request.options.network.chunked || effectiveBody.length == nil
        {
            // libcurl frames a body of unknown length (or any, with --chunked) in chunks.
            lines.append("Transfer-Encoding: chunked")
        }
        for line in lines { add("--header", line) }
    }

    /// The body arguments.
    mutating func addBody(_ body: CurlBodyArgument) {
        switch body {
        case .none:
            break
        case .bytes(let bytes):
            if bytes.count > CurlCommandLine.maxInlineBody {
                add("--data-binary", "@-")
                note(
                    "the body (\(bytes.count) bytes) is too long for a command line: pipe it into curl's standard "
                        + "input (afcli --offline --print=B with the same arguments writes it)")
            } else if !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) {
                // --data-binary would read a file for a leading @.
                add(text.hasPrefix("@") ? "--data-raw" : "--data-binary", text)
            } else {
                add("--data-binary", "@-")
                note("the body is \(bytes.count) bytes that are not text: pipe them into curl's standard input")
            }
        case .file(let path):
            add("--data-binary", "@" + path)
        case .form(let parts):
            arguments += parts
        case .standardInput(let why):
            add("--data-binary", "@-")
            if let why { note(why) }
        }
    }

    /// Timeouts, limits, proxy, protocol, routing and TLS.
    mutating func addOptions(_ options: TransferOptions, url: String) {
        switch options.httpVersion {
        case .automatic: break
        case .http1_1: add("--http1.1")
        case .http2: add("--http2")
        case .http2PriorKnowledge: add("--http2-prior-knowledge")
        case .http3: add("--http3")
        }
        if options.acceptEncoding != nil { add("--compressed") }
        if let digest = options.digestCredentials {
            add(digest.scheme.curlOption, "--user", "\(digest.user):\(digest.password)")
        }
        if let seconds = options.effectiveConnectTimeout { add("--connect-timeout", CurlCommandLine.seconds(seconds)) }
        if let seconds = options.totalTimeout { add("--max-time", CurlCommandLine.seconds(seconds)) }
        if let seconds = options.idleTimeout {
            add("--speed-limit", "1", "--speed-time", String(Int(seconds.rounded(.up))))
            note(
                "--speed-limit 1 --speed-time \(Int(seconds.rounded(.up))) approximates afcli's idle --timeout: curl stops below 1 byte/s on average"
            )
        }
        if let bytes = options.limits.maxBodyBytes { add("--max-filesize", String(bytes)) }
        if let proxy = options.proxy { add("--proxy", proxy) }
        if let noProxy = options.noProxy { add("--noproxy", noProxy) }
        for entry in options.resolve { add("--resolve", entry) }
        addNetwork(options.network, url: url)
        addTLS(options.tls)
    }

    /// The `NetworkOptions` flags.
    mutating func addNetwork(_ network: NetworkOptions, url: String) {
        for entry in network.connectTo { add("--connect-to", entry) }
        switch network.addressFamily {
        case .any: break
        case .ipv4: add("--ipv4")
        case .ipv6: add("--ipv6")
        }
        if let path = network.unixSocket { add("--unix-socket", path) }
        if let name = network.interface { add("--interface", name) }
        if let rate = network.maxReceiveRate {
            add("--limit-rate", String(rate))
            note("curl's --limit-rate also paces the upload; afcli's paces the download only")
        }
        if let file = network.hstsFile, EasyHandle.needsHSTS(file: file, url: url) { add("--hsts", file) }
    }

    /// The `TLSOptions` flags.
    mutating func addTLS(_ tls: TLSOptions) {
        if !tls.verifyPeer || !tls.verifyHost {
            add("--insecure")
            if tls.verifyPeer != tls.verifyHost {
                note("curl's --insecure skips both the certificate and the host name check")
            }
        }
        if tls.trustedCertificatesPEM != nil {
            note("the pinned certificates are afcli's only trust anchors: save them to a file and add --cacert FILE")
        }
        if !tls.pinnedCertificateDigests.isEmpty { note("curl has no certificate pinning (--pin-cert)") }
        if let file = tls.caFile { add("--cacert", file) }
        if let directory = tls.caPath { add("--capath", directory) }
        switch tls.minimumVersion {
        case .tls12?: add("--tlsv1.2")
        case .tls13?: add("--tlsv1.3")
        case nil: break
        }
        if let certificate = tls.clientCertificate { add("--cert", certificate) }
        if let key = tls.clientKey { add("--key", key) }
        if let pinned = tls.pinnedPublicKey {
            add("--pinnedpubkey", pinned)
            if !tls.pinnedKeyDigests.isEmpty {
                note(
                    "curl's --pinnedpubkey checks the server's own key; afcli accepts a pinned key anywhere in the chain"
                )
            }
        }
    }
}

extension String {
    /// The text with every `'` written as `'\''`, for use between single quotes.
    fileprivate func replacingSingleQuotes() -> String {
        var result = ""
        for character in self {
            if character == "'" { result += "'\\''" } else { result.append(character) }
        }
        return result
    }
}
