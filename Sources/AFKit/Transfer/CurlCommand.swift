import AFCurl
import Glibc

/// The curl command line equivalent to sending a prepared request with `HTTPClient` (`--curl`).
///
/// It is made from the very `TransferRequest` that `HTTPClient.send` gives libcurl for the first
/// hop (`HTTPClient.transferRequest`), so every header, body, method, TLS and network setting
/// comes from the same values; only the body needs a decision of its own (see `bodyArgument`).
package struct CurlCommand: Sendable {
    /// The arguments after `curl`.
    package var arguments: [String]
    /// Where curl would differ, or what the command needs (a body on standard input).
    package var notes: [String]

    /// The command for sending `request` with `options`, with `secrets` shown as `<redacted>`.
    package init(request: PreparedRequest, options: TransferSettings, secrets: CurlSecrets = CurlSecrets()) throws {
        let transfer = try HTTPClient.transferRequest(for: request, options: options, elapsed: 0)
        let cookies = CurlCommand.cookieArguments(options.cookies, url: request.url, now: Int64(time(nil)))
        let line = CurlCommandLine(
            request: transfer, body: CurlCommand.bodyArgument(request),
            maxRedirects: options.follow ? options.maxRedirects : nil, locationTrusted: options.locationTrusted,
            cookies: cookies)
        arguments = secrets.redacting(line.arguments)
        notes = line.notes
        if options.follow, options.cookies?.lines.isEmpty == false {
            notes.append(
                "with --location, curl sends the session's --cookie pairs to every host a redirect leads to; "
                    + "afcli sends each cookie only to its own domain")
        }
    }

    /// Every field of `TransferSettings` with the curl flag it becomes (through `TransferOptions`
    /// and `CurlCommandLine.coverage`), or why it has none; a unit test fails when one is missing.
    package static let clientCoverage: [String: String] = [
        "follow": "--location, --proto-redir =http,https",
        "maxRedirects": "--max-redirs",
        "connectTimeout": "TransferOptions.connectTimeout",
        "totalTimeout": "TransferOptions.totalTimeout",
        "idleTimeout": "TransferOptions.idleTimeout",
        "limits": "TransferOptions.limits",
        "proxies": "TransferOptions.proxy (the one for the URL's scheme)",
        "noProxy": "TransferOptions.noProxy",
        "httpVersion": "TransferOptions.httpVersion",
        "acceptEncoding": "TransferOptions.acceptEncoding",
        "tls": "TransferOptions.tls",
        "verbose": "none: only changes what afcli shows, not what is sent",
        "cookies": "--cookie FILE --cookie-jar FILE for a cookie jar; --cookie 'name=value; …' for the "
            + "session's cookies libcurl would send to the URL",
        "netrcFile": "TransferOptions.netrcFile",
        "locationTrusted": "--location-trusted (with --location)",
        "resolve": "TransferOptions.resolve",
        "network": "TransferOptions.network",
    ]

    /// The command as one POSIX shell line, starting with `curl`.
    package var shellLine: String {
        (["curl"] + arguments).map(CurlCommandLine.shellQuoted).joined(separator: " ")
    }

    /// `--cookie FILE --cookie-jar FILE` for a cookie jar, then `--cookie 'name=value; …'` with
    /// the cookies of `cookies.lines` that libcurl's engine would send to `url` at `now`.
    static func cookieArguments(_ cookies: CookieSettings?, url: String, now: Int64) -> [String] {
        guard let cookies else { return [] }
        var arguments: [String] = []
        if let file = cookies.file { arguments += ["--cookie", file, "--cookie-jar", file] }
        if let header = CurlCookieSelection.cookieHeader(lines: cookies.lines, url: url, now: now) {
            arguments += ["--cookie", header]
        }
        return arguments
    }

    // MARK: - Body

    /// How curl gets the body: a file stays `@file`, bytes built in memory are inline, multipart
    /// becomes `-F` only when curl writes the same parts (`formArguments`), and anything else
    /// (standard input, a compressed stream, parts curl cannot reproduce) is read from standard
    /// input with a note.
    static func bodyArgument(_ request: PreparedRequest) -> CurlBodyArgument {
        guard request.method != "HEAD", let body = request.builtBody else {
            return RequestFraming.methodsWithBody.contains(request.method) ? .bytes([]) : .none
        }
        if let form = (body as? MultipartBodySource)?.form {
            if let arguments = formArguments(form) { return .form(arguments) }
            return .standardInput(
                note: "curl's -F cannot write these parts as afcli does: pipe afcli's body into curl "
                    + "(afcli --offline --print=B --boundary=\(form.boundary) with the same arguments writes it)")
        }
        if let bytes = request.bodyBytes { return .bytes(bytes) }
        if let file = body as? FileBodySource { return .file(path: file.path) }
        if body is StandardInputBodySource {
            return .standardInput(
                note: "the body is read from standard input (--data-binary @-): pipe into curl what you piped "
                    + "into afcli")
        }
        return .standardInput(
            note: "the body is made while it is sent (a compressed stream): pipe afcli's body into curl")
    }

    /// `--form-string name=value` for plain fields and `-F name=@path;filename=F;type=T` for
    /// file parts, when curl writes exactly the headers and bytes afcli does for every part:
    /// curl quotes names itself and parses `;` `,` `"` in `-F` values, so names and paths with
    /// those (or a backslash, CR, LF), fields with a type or file name, byte parts with a file
    /// name and streamed parts are left to standard input. nil when any part cannot be written.
    static func formArguments(_ form: MultipartFormData) -> [String]? {
        guard !form.parts.isEmpty else { return nil }
        var arguments: [String] = []
        for part in form.parts {
            guard isPlainFormWord(part.name), !part.name.contains("=") else { return nil }
            switch part.content {
            case .bytes(let bytes):
                guard part.filename == nil, part.contentType == nil, !bytes.contains(0),
                    let value = String(validating: bytes, as: UTF8.self)
                else { return nil }
                arguments += ["--form-string", "\(part.name)=\(value)"]
            case .file(let path, _):
                guard let filename = part.filename, let type = part.contentType,
                    [path, filename, type].allSatisfy(isPlainFormWord)
                else { return nil }
                arguments += ["--form", "\(part.name)=@\(path);filename=\(filename);type=\(type)"]
            case .stream:
                return nil
            }
        }
        return arguments
    }

    /// Whether curl's `-F` parser and header writer leave `text` as it is.
    static func isPlainFormWord(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { ";,\"\\\r\n\0".unicodeScalars.contains($0) }
    }
}
