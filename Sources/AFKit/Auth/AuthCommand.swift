import AFCurl

/// `--auth-cmd CMD`: a command that authenticates a request however its API wants (an HMAC
/// scheme, a vendor signature, a token from a password manager), the last request stage.
///
/// CMD runs with `/bin/sh -c` through `PipedCommand` (its own process group, Ctrl-C ends it),
/// with `AFCLI_METHOD`, `AFCLI_URL` and `AFCLI_BODY_SHA256` (of the body as sent, after
/// encryption and compression) in its environment and nothing on its standard input. Each line
/// it prints is a `Name: value` header added to the request, replacing a header of the same
/// name; empty lines are skipped. A command that fails, or prints anything else, stops the
/// request before anything is sent.
package struct AuthCommand: Sendable {
    /// The command as given.
    package var command: String
    /// The most of the command's output afcli reads: header lines, not a body.
    package static let maxOutputBytes = 64 * 1024

    package init(command: String) {
        self.command = command
    }

    /// Runs the command for `request` and adds the headers it printed.
    package func apply(to request: inout PreparedRequest) throws {
        let digest = try PayloadDigest.sha256(of: request, for: "--auth-cmd")
        let pipe = try PipedCommand(
            command: command, role: "auth",
            environment: ["AFCLI_METHOD": request.method, "AFCLI_URL": request.url, "AFCLI_BODY_SHA256": digest])
        defer { pipe.terminate() }
        var output: [UInt8] = []
        try pipe.finish { bytes in
            guard output.count + bytes.count <= Self.maxOutputBytes else {
                throw AuthStageError.tooMuchOutput(limit: Self.maxOutputBytes)
            }
            output.append(contentsOf: bytes)
        }
        for field in try Self.headers(output) {
            request.headers.removeAll { ASCIICase.equal($0.name, field.name) }
            request.headers.append(field)
        }
    }

    /// The header fields of the command's output: one `Name: value` per line (LF or CRLF), the
    /// name an RFC 9110 token, the value without control characters.
    static func headers(_ output: [UInt8]) throws(AuthStageError) -> [HTTPField] {
        var fields: [HTTPField] = []
        for (index, rawLine) in output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let line = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty { continue }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(Self.isTokenByte),
                !line[line.index(after: colon)...].contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F })
            else { throw .badHeaderLine(line: index + 1, text: String(text.prefix(80))) }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self)
            fields.append(HTTPField(name: name, value: value.trimmingSpacesAndTabs()))
        }
        return fields
    }

    /// RFC 9110's tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (optional white space).
    fileprivate func trimmingSpacesAndTabs() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[first...last])
    }
}
