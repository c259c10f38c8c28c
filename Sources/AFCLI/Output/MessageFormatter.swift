import AFKit

/// Formats request and response heads the way HTTPie prints them: LF line ends, header names
/// coloured on a terminal, a blank line after the head.
struct MessageFormatter {
    var palette: Palette

    /// A request head as libcurl sent it (CRLF lines), reformatted with LF and colour.
    func requestHead(raw: String) -> String {
        // Split on scalars: Swift reads "\r\n" as one Character, so splitting on "\n" would miss it.
        var lines = raw.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            Substring(line.last == "\r" ? line.dropLast() : line)
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let first = lines.first else { return "" }
        var out = requestLine(String(first))
        for line in lines.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                out += header(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
            } else {
                out += line + "\n"
            }
        }
        return out + "\n"
    }

    /// A request head built without sending (`--offline`): request line, Host, headers, framing
    /// (`chunked`: Transfer-Encoding even for a body of known length, as `--chunked` sends it).
    func offlineRequestHead(_ request: PreparedRequest, chunked: Bool = false) -> String {
        let target = URLParts(request.url)
        var out = requestLine("\(request.method) \(target.requestTarget) HTTP/1.1")
        // libcurl writes a typed Host in its own Host line's place, once.
        func isHost(_ field: HTTPField) -> Bool { field.name.lowercased() == "host" }
        out += header("Host", request.headers.last(where: isHost)?.value ?? target.hostHeader)
        // libcurl writes Transfer-Encoding right after Host, and Content-Length after the headers.
        let sentChunked = request.body.map { $0.length == nil || chunked } ?? false
        if sentChunked { out += header("Transfer-Encoding", "chunked") }
        for field in request.headers where !isHost(field) { out += header(field.name, field.value) }
        if !sentChunked, let length = request.body?.length { out += header("Content-Length", String(length)) }
        return out + "\n"
    }

    /// A response status line and headers.
    func responseHead(_ head: ResponseHead) -> String {
        var out = palette.protocolVersion + head.httpVersion + palette.reset + " "
        out += palette.status(head.statusCode) + String(head.statusCode)
        let reason = head.shownReasonPhrase
        out += reason.isEmpty ? "" : " " + reason
        out += palette.reset + "\n"
        for field in head.headers { out += header(field.name, field.value) }
        return out + "\n"
    }

    private func requestLine(_ line: String) -> String {
        let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count == 3 else { return line + "\n" }
        return palette.requestMethod + parts[0] + palette.reset + " " + palette.requestTarget + parts[1]
            + palette.reset + " " + palette.protocolVersion + parts[2] + palette.reset + "\n"
    }

    private func header(_ name: String, _ value: String) -> String {
        palette.headerName + name + palette.reset + ": " + value + "\n"
    }
}

/// The pieces of an absolute URL that a request head shows: the request target and Host.
struct URLParts {
    var requestTarget: String
    var hostHeader: String

    /// Takes the path and query (the fragment is never sent) and the authority without user
    /// information or a default port.
    init(_ url: String) {
        let reference = URLReference(parsing: url)
        let path = reference.path.isEmpty ? "/" : reference.path
        requestTarget = path + (reference.query.map { "?" + $0 } ?? "")
        var host = reference.host ?? ""
        if let port = reference.port, !port.isEmpty,
            !(reference.scheme == "http" && port == "80") && !(reference.scheme == "https" && port == "443")
        {
            host += ":" + port
        }
        hostHeader = host
    }
}
