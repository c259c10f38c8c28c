import AFCurl

/// Parses the `.http` format of the JetBrains HTTP Client and the VS Code REST Client into an
/// `HTTPFile`, without resolving variables or touching any file.
///
/// The grammar read: `###` separates requests (text after it names the next one); `#` and `//`
/// lines are comments, and before the request line may carry the directives `@name NAME`,
/// `@no-redirect`, `@no-cookie-jar`, `@timeout N`, `@connection-timeout N`, `@first` and
/// `@prompt NAME [DESCRIPTION]`; `@name = value` defines a
/// file variable; the request line is `[METHOD] URL [HTTP/VERSION]`, and lines after it that start
/// with white space continue the URL (`    ?page=2`, `    &size=10`); then `Name: value` headers
/// up to a blank line; then the body up to the next `###` (blank lines before it and after it are
/// not part of it), where a line `< PATH` inserts a file and `<@ PATH` (`<@latin1 PATH`) a file
/// whose `{{variables}}` are substituted. A request line whose method names another protocol
/// (httpyac's `SSE`, `WS`, `MQTT`, `AMQP`, `GRPC`, JetBrains' `WEBSOCKET`, `GRAPHQL`…) is refused.
/// A response handler (`> {% … %}`, `> script.js`) or response redirect (`>> file`) ends the body
/// and is skipped with a warning; a response reference (`<> previous-response.json`, which only
/// compares responses) ends it and is skipped; a pre-request script (`< {% … %}`) is refused, since
/// skipping it would send a different request than the file describes. A request target is a URL,
/// a path with a `Host:` header, or `*` (`OPTIONS *`); `{{ name }}` may hold spaces there as anywhere.
package enum HTTPFileParser {
    /// The longest request line or header accepted, in bytes.
    package static let maximumLineLength = 64 << 10
    /// The most requests one file may hold.
    package static let maximumRequests = 100_000
    /// Seconds in a duration as the directives write it (`5`, `0.5`, `500 ms`, `2 s`, `1 m`);
    /// nil for none or 0.
    package static func duration(_ text: String) -> Double? {
        Parser.seconds(text)
    }

    /// The most times `# @retry N` re-sends a request whose assertions failed.
    package static let maximumRetries = 1000
    /// The most header lines one request may have (servers refuse far fewer; libcurl's header
    /// list costs time quadratic in their number).
    package static let maximumHeaders = 1000

    /// Parses `bytes`, the whole file (UTF-8, a byte order mark allowed).
    package static func parse(_ bytes: [UInt8]) throws(HTTPFileError) -> HTTPFile {
        var parser = Parser()
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var number = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            number += 1
            if number % 4096 == 0, Interruption.isInterrupted { throw .interrupted(line: number) }
            var lineBytes = bytes[start..<end]
            if lineBytes.last == 0x0D { lineBytes.removeLast() }
            guard let line = lineBytes.withUnsafeBufferPointer(String.init(validatingLine:)) else {
                throw HTTPFileError(line: number, reason: "the line is not UTF-8")
            }
            try parser.read(line, number: number)
            start = end + 1
            if end == bytes.count { break }
        }
        try parser.finishBlock()
        return parser.file
    }
}

/// The parser's state between lines.
private struct Parser {
    /// Where in a request block the next line falls.
    enum Phase {
        /// Before the request line: comments, directives, variables.
        case head
        /// After the request line: URL continuations, headers, up to a blank line.
        case headers
        /// Body lines.
        case body
        /// After a response handler: only more handlers, comments and blank lines.
        case afterHandler
        /// Inside a `> {% … %}` handler that started on `line`.
        case inHandler(line: Int)
        /// Inside an httpyac `{{ … }}` script block that started on `line`; `resume` is the phase
        /// after it.
        indirect case inScript(line: Int, resume: Phase)
    }

    var file = HTTPFile()
    var phase = Phase.head
    var request: HTTPFileRequest?
    var separatorName: String?
    var directives = HTTPFileRequest(line: 0, method: "", url: "")
    var directiveLine: Int?
    var bodyLines: [(text: String, line: Int)] = []
    var bodyParts: [HTTPFileBodyPart] = []
    /// `??` lines already read, by their text: test files repeat the same few checks
    /// (`?? status == 200`) in request after request.
    var assertions = TextMemo<ResponseAssertion>(limit: 256)

    /// Reads one line (without its end) in the current phase.
    mutating func read(_ line: String, number: Int) throws(HTTPFileError) {
        if case .inHandler = phase {
            if line.contains("%}") { phase = .afterHandler }
            return
        }
        if case .inScript(_, let resume) = phase {
            if line.isBlankPadded("}}") { phase = resume }
            return
        }
        // Most lines hold no brace: only those that may be `{{` are looked at closer.
        if line.containsVariableOpening(), line.isBlankPadded("{{") {
            startScript(number: number)
            return
        }
        if line.hasASCIIPrefix("###") {
            try finishBlock()
            // `#### Title` is a decorated separator: its extra `#` are not part of the name.
            let name = trim(line.drop(while: { $0 == "#" }))
            separatorName = name.isEmpty ? nil : name
            return
        }
        switch phase {
        case .head: try readHead(line, number: number)
        case .headers: try readHeader(line, number: number)
        case .body: try readBody(line, number: number)
        case .afterHandler: try readAfterHandler(line, number: number)
        case .inHandler, .inScript: break
        }
    }

    /// A line before the request line.
    private mutating func readHead(_ line: String, number: Int) throws(HTTPFileError) {
        let trimmed = trim(line)
        if trimmed.isEmpty { return }
        if let comment = commentText(trimmed) {
            readDirective(comment, number: number)
            return
        }
        if trimmed.hasASCIIPrefix("@") {
            try readVariable(trimmed, number: number)
            return
        }
        if trimmed.hasASCIIPrefix("<") {
            throw HTTPFileError(
                line: number, reason: "pre-request scripts (< {% %}) are not supported: afcli runs no JavaScript")
        }
        try readRequestLine(trimmed, number: number)
    }

    /// `# @directive value` before a request line; other comments are skipped.
    private mutating func readDirective(_ comment: Substring, number: Int) {
        let text = trim(comment)
        guard text.hasASCIIPrefix("@") else { return }
        let word = text.dropFirst().prefix(while: { !$0.isWhitespace && $0 != "=" })
        var value = trim(text.dropFirst(1 + word.count))
        if value.hasASCIIPrefix("=") { value = trim(value.dropFirst()) }
        switch word {
        case "name":
            if value.isEmpty {
                warn(number, "# @name without a name is ignored")
            } else {
                directives.name = value
            }
        case "no-redirect":
            directives.noRedirect = true
        case "no-cookie-jar":
            directives.noCookieJar = true
        case "first":
            directives.isFirst = true
        case "prompt":
            let name = value.prefix(while: { $0 != " " && $0 != "\t" })
            guard HTTPFileVariables.isValidName(String(name)) else {
                warn(number, "# @prompt needs a variable name (letters, digits, _ . -): # @prompt NAME [DESCRIPTION]; ignored")
                return
            }
            directives.prompts.append(
                HTTPFileField(name: String(name), value: trim(value.dropFirst(name.count)), line: number))
        case "timeout", "connection-timeout":
            guard let seconds = Self.seconds(value) else {
                warn(number, "# @\(word) \(value) is not a duration (N, N ms, N s or N m, more than 0); ignored")
                return
            }
            if word == "timeout" { directives.timeout = seconds } else { directives.connectionTimeout = seconds }
        case "retry":
            guard let count = Int(value), (0...HTTPFileParser.maximumRetries).contains(count) else {
                warn(number, "# @retry \(value) is not a count from 0 to \(HTTPFileParser.maximumRetries); ignored")
                return
            }
            directives.retries = count
        default:
            warn(number, "# @\(word) is not supported by afcli; ignored")
            return
        }
        directiveLine = directiveLine ?? number
    }

    /// `@name = value`.
    private mutating func readVariable(_ text: String, number: Int) throws(HTTPFileError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw HTTPFileError(line: number, reason: "expected a variable (@name = value) or a request line")
        }
        let name = trim(text[text.index(after: text.startIndex)..<equals])
        guard HTTPFileVariables.isValidName(name) else {
            throw HTTPFileError(line: number, reason: "\"\(name)\" is not a variable name (letters, digits, _ . -)")
        }
        file.variables.append(
            HTTPFileVariable(name: name, value: trim(text[text.index(after: equals)...]), line: number))
    }

    /// `[METHOD] URL [HTTP/VERSION]`.
    private mutating func readRequestLine(_ text: String, number: Int) throws(HTTPFileError) {
        guard text.utf8.count <= HTTPFileParser.maximumLineLength else {
            throw HTTPFileError(line: number, reason: "the request line is longer than 64 KiB")
        }
        guard file.requests.count < HTTPFileParser.maximumRequests else {
            throw HTTPFileError(
                line: number, reason: "more than \(HTTPFileParser.maximumRequests) requests in one file")
        }
        var words = Self.words(text)
        if words.count > 1, let last = words.last, last.hasASCIIPrefix("HTTP/") { words.removeLast() }
        var method = "GET"
        if words.count == 2, words[0].utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
            method = words[0].uppercased()
            words.removeFirst()
        }
        guard words.count == 1 else {
            throw HTTPFileError(line: number, reason: "expected a request line: [METHOD] URL [HTTP/VERSION]")
        }
        if let protocolName = Self.otherProtocols[method] {
            throw HTTPFileError(
                line: number,
                reason: "\(method) requests (\(protocolName)) are not supported: afcli sends HTTP requests only")
        }
        if Self.methodWords.contains(words[0]) {
            throw HTTPFileError(line: number, reason: "\(words[0]) needs a URL: [METHOD] URL [HTTP/VERSION]")
        }
        var request = directives
        request.name = directives.name ?? separatorName
        request.line = number
        request.method = method
        request.url = words[0]
        self.request = request
        directiveLine = nil
        phase = .headers
    }

    /// The blank-separated words of a request line; `{{ … }}` is part of its word, spaces and all
    /// (`GET {{ host }}/users/{{$randomInt 1 5}}`).
    static func words(_ text: String) -> [String] {
        text.blankSeparatedWordTexts(keepingVariables: true)
    }

    /// A line after the request line, before the body.
    private mutating func readHeader(_ line: String, number: Int) throws(HTTPFileError) {
        // The request is changed in place (`request?.…`): a copy taken for each line would copy
        // the URL or the header list every time, which is quadratic in a long file.
        guard let hasHeaders = request.map({ !$0.headers.isEmpty }) else { return }
        let trimmed = trim(line)
        if trimmed.isEmpty {
            phase = .body
            return
        }
        if commentText(trimmed) != nil { return }
        if !hasHeaders, Self.startsWithWhitespace(line) {
            request?.url += trimmed
            return
        }
        if trimmed.hasASCIIPrefix("??") {
            try readAssertion(trimmed, number: number)
            return
        }
        if trimmed.hasASCIIPrefix(">") || Self.isResponseReference(trimmed) {
            try readHandler(trimmed, number: number)
            return
        }
        guard line.utf8.count <= HTTPFileParser.maximumLineLength else {
            throw HTTPFileError(line: number, reason: "the header is longer than 64 KiB")
        }
        guard (request?.headers.count ?? 0) < HTTPFileParser.maximumHeaders else {
            throw HTTPFileError(
                line: number, reason: "more than \(HTTPFileParser.maximumHeaders) headers in one request")
        }
        guard let colon = trimmed.utf8.firstIndex(of: UInt8(ascii: ":")), colon != trimmed.startIndex else {
            throw HTTPFileError(line: number, reason: "expected a header (Name: value) or a blank line before the body")
        }
        let header = HTTPFileHeader(
            name: trim(trimmed[..<colon]), value: trim(trimmed[trimmed.utf8.index(after: colon)...]), line: number)
        request?.headers.append(header)
    }

    /// Whether the line starts with white space (a URL continuation), answered from its first
    /// byte when that is ASCII.
    static func startsWithWhitespace(_ line: String) -> Bool {
        guard let byte = line.utf8.first else { return false }
        guard byte >= 0x80 else { return byte == 0x20 || (0x09...0x0D).contains(byte) }
        return line.first?.isWhitespace == true
    }

    /// A body line: text, `< PATH`, or the start of a response handler.
    private mutating func readBody(_ line: String, number: Int) throws(HTTPFileError) {
        if line.hasASCIIPrefix("??") {
            try readAssertion(line, number: number)
            return
        }
        if line.hasASCIIPrefix(">") || Self.isResponseReference(line) {
            try readHandler(line, number: number)
            return
        }
        // An in-place body is trimmed: blank lines before it are not part of it.
        if bodyLines.isEmpty, bodyParts.isEmpty, trim(line).isEmpty { return }
        if line.hasASCIIPrefix("<@") {
            let encoding = line.dropFirst(2).prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            let rest = line.dropFirst(2 + encoding.count)
            let path = trim(rest)
            guard rest.first == " " || rest.first == "\t", !path.isEmpty else {
                throw HTTPFileError(line: number, reason: "<@ needs a file path: <@ PATH or <@ENCODING PATH")
            }
            guard let textEncoding = HTTPFileTextEncoding(name: encoding.isEmpty ? "utf8" : String(encoding)) else {
                throw HTTPFileError(
                    line: number,
                    reason: "<@\(encoding): afcli reads files in utf8, latin1 (binary), ascii or utf16le (ucs2)")
            }
            flushText()
            bodyParts.append(.substitutedFile(path, encoding: textEncoding, line: number))
            return
        }
        if line.hasASCIIPrefix("< ") || line.hasASCIIPrefix("<\t") {
            let path = trim(line.dropFirst(2))
            if path.hasASCIIPrefix("{%") {
                throw HTTPFileError(
                    line: number, reason: "pre-request scripts (< {% %}) are not supported: afcli runs no JavaScript")
            }
            guard !path.isEmpty else { throw HTTPFileError(line: number, reason: "< needs a file path") }
            flushText()
            bodyParts.append(.file(path, line: number))
            return
        }
        bodyLines.append((line, number))
    }

    /// After a handler: blank lines, comments and further handlers only.
    private mutating func readAfterHandler(_ line: String, number: Int) throws(HTTPFileError) {
        let trimmed = trim(line)
        if trimmed.isEmpty || commentText(trimmed) != nil { return }
        if trimmed.hasASCIIPrefix("??") {
            try readAssertion(trimmed, number: number)
            return
        }
        guard trimmed.hasASCIIPrefix(">") || Self.isResponseReference(trimmed) else {
            throw HTTPFileError(
                line: number,
                reason: "only response handlers and references may follow a response handler "
                    + "(start a new request with ###)")
        }
        try readHandler(trimmed, number: number)
    }

    /// An httpyac script block, `{{` to `}}` on lines of their own: JavaScript, which afcli does
    /// not run, so the request it belongs to (the one it is written in, or the next one) is
    /// refused alone, never sent without what the script would have done.
    private mutating func startScript(number: Int) {
        let refusal = HTTPFileError(
            line: number, reason: "a {{ }} script block needs JavaScript, which afcli does not run")
        if request != nil {
            if request?.refusal == nil { request?.refusal = refusal }
        } else {
            if directives.refusal == nil { directives.refusal = refusal }
            directiveLine = directiveLine ?? number
        }
        phase = .inScript(line: number, resume: phase)
    }

    /// `?? FIELD … PREDICATE [VALUE]` (httpyac): an assertion on the response, never part of the
    /// body. A line that needs JavaScript (`?? js …`) refuses its request alone; any other
    /// mistake stops the file.
    private mutating func readAssertion(_ text: String, number: Int) throws(HTTPFileError) {
        do throws(ResponseAssertionError) {
            if var known = assertions.value(for: text) {
                known.line = number
                appendAssertion(known)
                return
            }
            let assertion = try ResponseAssertion.parse(String(text.dropFirst(2)), line: number)
            if text.utf8.count <= 256 { assertions.remember(assertion, for: text) }
            appendAssertion(assertion)
        } catch {
            guard error.needsJavaScript else { throw HTTPFileError(line: number, reason: error.reason) }
            if request?.refusal == nil { request?.refusal = HTTPFileError(line: number, reason: error.reason) }
        }
    }

    /// Adds an assertion to the request; room for a few is made at the first.
    private mutating func appendAssertion(_ assertion: ResponseAssertion) {
        if request?.assertions.isEmpty == true { request?.assertions.reserveCapacity(4) }
        request?.assertions.append(assertion)
    }

    /// Whether `text` is a response reference, `<> FILE`: a response kept by the JetBrains client
    /// for comparison, nothing to send.
    static func isResponseReference(_ text: String) -> Bool {
        text == "<>" || text.hasASCIIPrefix("<> ") || text.hasASCIIPrefix("<>\t")
    }

    /// `> {% … %}`, `> script.js`, `>> file`, `>>! file`: skipped with a warning; `<> FILE`:
    /// skipped (it changes nothing that is sent).
    private mutating func readHandler(_ text: String, number: Int) throws(HTTPFileError) {
        if Self.isResponseReference(text) {
            phase = .afterHandler
            return
        }
        if text.hasASCIIPrefix(">>") {
            warn(number, "response redirect (>> FILE) skipped: use afcli run --output-dir to save bodies")
            phase = .afterHandler
            return
        }
        let rest = trim(text.dropFirst())
        warn(number, "response handler skipped: afcli runs no JavaScript")
        if rest.hasASCIIPrefix("{%"), !rest.dropFirst(2).contains("%}") {
            phase = .inHandler(line: number)
        } else {
            phase = .afterHandler
        }
    }

    /// Ends the current block: the request, if one was written, is added.
    mutating func finishBlock() throws(HTTPFileError) {
        if case .inScript(let line, _) = phase {
            throw HTTPFileError(line: line, reason: "the script block {{ is never closed with }}")
        }
        if case .inHandler(let line) = phase {
            throw HTTPFileError(line: line, reason: "the response handler {% is never closed with %}")
        }
        flushText()
        if var request = request.take() {
            // Blank lines before the next `###` are not part of the body.
            while case .text(let text, let line)? = bodyParts.last {
                let end = text.utf8.lastIndex(where: { $0 != UInt8(ascii: "\n") }).map { text.utf8.index(after: $0) }
                let kept = String(text[..<(end ?? text.startIndex)])
                if kept.isEmpty {
                    bodyParts.removeLast()
                } else {
                    bodyParts[bodyParts.count - 1] = .text(kept, line: line)
                    break
                }
            }
            request.body = bodyParts
            file.requests.append(request)
        } else if let directiveLine {
            warn(directiveLine, "directives with no request after them are ignored")
        }
        request = nil
        separatorName = nil
        directives = HTTPFileRequest(line: 0, method: "", url: "")
        directiveLine = nil
        bodyLines = []
        bodyParts = []
        phase = .head
    }

    /// Joins the pending body lines into one text part.
    private mutating func flushText() {
        guard let first = bodyLines.first else { return }
        bodyParts.append(.text(bodyLines.map(\.text).joined(separator: "\n"), line: first.line))
        bodyLines = []
    }

    private mutating func warn(_ line: Int, _ message: String) {
        file.warnings.append(HTTPFileWarning(line: line, message: message))
    }

    /// The text of a `#` or `//` comment line, nil for other lines.
    private func commentText(_ trimmed: String) -> Substring? {
        if trimmed.hasASCIIPrefix("#") { return trimmed.dropFirst() }
        if trimmed.hasASCIIPrefix("//") { return trimmed.dropFirst(2) }
        return nil
    }

    private func trim(_ text: Substring) -> String {
        text.trimmingBlanks()
    }

    /// A whole line without blanks around it: the line itself, uncopied, when it has none (most).
    private func trim(_ line: String) -> String {
        let utf8 = line.utf8
        guard let first = utf8.first, let last = utf8.last else { return line }
        if first != 0x20, first != 0x09, last != 0x20, last != 0x09 { return line }
        return line[...].trimmingBlanks()
    }

    /// Method names that are never a URL on their own (`GET` alone is a request line missing its URL).
    static let methodWords: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
    ]

    /// Request-line keywords of httpyac and the JetBrains client for protocols other than HTTP,
    /// and what each names: such a request is refused, never sent as an HTTP method.
    static let otherProtocols: [String: String] = [
        "SSE": "server-sent events", "WS": "WebSocket", "WSS": "WebSocket", "WEBSOCKET": "WebSocket",
        "MQTT": "MQTT", "AMQP": "AMQP", "RABBITMQ": "AMQP", "KAFKA": "Kafka", "GRPC": "gRPC",
        "GRAPHQL": "GraphQL over HTTP or WebSocket; write POST with an X-Request-Type: GraphQL header",
    ]

    /// `N`, `N s`, `N ms` or `N m` in seconds; nil for anything else.
    static func seconds(_ text: String) -> Double? {
        let number = text.prefix(while: { ("0"..."9").contains($0) || $0 == "." })
        let unit = text.dropFirst(number.count).drop(while: { $0 == " " })
        // 0 is no duration: libcurl would read it as "no timeout at all", the opposite of what
        // was written (the command line's --timeout refuses it too).
        guard let value = Double(number), value.isFinite, value > 0 else { return nil }
        let seconds: Double
        switch unit {
        case "", "s": seconds = value
        case "ms": seconds = value / 1000
        case "m": seconds = value * 60
        default: return nil
        }
        return seconds.isFinite && seconds > 0 ? seconds : nil
    }
}
