import AFKit

/// Shows one response body the way its media type and the display call for: the exact bytes, a
/// formatter (JSON, XML, property list), a one-line image summary or HTTPie's binary notice on a
/// terminal; text in another charset is converted to UTF-8 for a terminal.
///
/// The serializer comes from AFNetworking's media-type tables; `text/plain` and untyped bodies
/// are sniffed for JSON from their first bytes, as AF's JSON serializer would accept them.
///
/// On a terminal every byte passes a `TerminalEscaper`, so that control characters from the
/// server are shown, not obeyed; a pipe or file gets the bytes unchanged.
final class ResponseBodyRenderer {
    /// What is done with the body's bytes.
    private enum Mode {
        /// Copy as received.
        case raw
        /// Waiting for the first bytes that are not white space, to see whether they look like JSON.
        case sniffing
        case formatting(BodyFormatter)
        /// The binary notice was (or will be) printed; the rest is ignored.
        case notice
        /// `--jsonpath` on a body that is not JSON: its first byte is this error.
        case notJSON(JSONPathBodyError)
    }

    /// Whether output should be flushed after every chunk (`--stream`, event streams, JSON lines).
    let streams: Bool
    private var mode: Mode
    private let display: ResponseDisplay
    private let sink: ByteSink
    /// The terminal escaper the output passes through, if the output is a terminal.
    private let escaping: EscapingSink?
    private var converter: CharsetConverter?
    private var sniffed: [UInt8] = []
    private var wroteNotice = false

    /// A renderer for a body with this `Content-Type` (nil when there is none).
    init(contentType: String?, display: ResponseDisplay, sink output: ByteSink) {
        self.display = display
        escaping = display.isTerminal ? EscapingSink(output, passesColorSequences: display.colors) : nil
        let sink: ByteSink = escaping ?? output
        self.sink = sink
        let type = contentType.map(ResponseMediaType.init)
        let kind = type.map(ResponseSerializerKind.forMediaType) ?? .data
        let essence = type?.essence ?? ""
        let eventStream = essence == "text/event-stream"
        let jsonLines = ResponseSerializerKind.jsonSequenceTypes.contains(essence)
        streams = display.streams || eventStream || jsonLines
        let textual = kind == .json || kind == .data
        if display.isTerminal, textual, let charset = type?.charset {
            converter = CharsetConverter(charset: charset)
        }
        if let query = display.jsonPath {
            switch kind {
            case .json:
                mode = .formatting(
                    JSONPathStreamFilter(
                        query: query, colors: display.syntaxColors, sink: sink, limits: display.jsonPathLimits))
            case .data where eventStream:
                // Each event's data on its own: `$.choices[0].delta.content` prints tokens as they come.
                mode = .formatting(
                    EventStreamFormatter(
                        style: .jsonPath(query, display.syntaxColors), escapesControls: display.isTerminal, sink: sink,
                        maximumDepth: display.maximumDepth))
            case .data where essence.isEmpty || essence == "text/plain": mode = .sniffing
            default:
                mode = .notJSON(
                    JSONPathBodyError("--jsonpath: the response is \(essence.isEmpty ? "untyped" : essence), not JSON",
                                      failureClass: .responseRejected))
            }
        } else if display.isTerminal, kind == .image {
            mode = .formatting(ImageSummaryFormatter(mediaType: essence, colors: display.syntaxColors, sink: sink))
        } else if display.isTerminal, let contentType, ExchangePrinter.isBinaryMediaType(contentType) {
            mode = .notice
        } else if display.eventsAsJSON, eventStream {
            mode = .formatting(
                EventStreamFormatter(
                    style: .jsonLines(display.syntaxColors), escapesControls: display.isTerminal, sink: sink,
                    maximumDepth: display.maximumDepth))
        } else if display.eventsAsJSON, jsonLines {
            var options = display.jsonOptions(sniffed: false)
            options.layout = .compact
            options.sortsKeys = false
            options.dropsNulls = false
            mode = .formatting(Self.sequenceFormatter(essence: essence, options: options, sink: sink))
        } else if !display.transforms {
            mode = .raw
        } else {
            var json = display.jsonOptions(sniffed: false)
            json.flushesEachChunk = streams
            switch kind {
            case .json:
                mode = .formatting(Self.sequenceFormatter(essence: essence, options: json, sink: sink))
            case .xml:
                mode = .formatting(XMLStreamFormatter(options: display.xmlOptions, sink: sink))
            case .propertyList where display.formats:
                mode = .formatting(
                    PropertyListFormatter(
                        display: display.plistDisplay, xml: display.xmlOptions,
                        json: display.jsonOptions(sniffed: false), sink: sink))
            case .data where eventStream:
                mode = .formatting(
                    EventStreamFormatter(
                        style: .display(json), escapesControls: display.isTerminal, sink: sink,
                        maximumDepth: display.maximumDepth))
            case .data where essence.isEmpty || essence == "text/plain":
                mode = .sniffing
            default:
                mode = .raw
            }
        }
    }

    /// A JSON formatter, behind a filter of record separators for `application/json-seq`; a
    /// streamed body is flushed at the end of every chunk.
    private static func sequenceFormatter(essence: String, options: JSONFormatOptions, sink: ByteSink)
        -> BodyFormatter
    {
        var options = options
        if ResponseSerializerKind.jsonSequenceTypes.contains(essence) { options.flushesEachChunk = true }
        let formatter = JSONStreamFormatter(options: options, sink: sink)
        return essence == "application/json-seq" ? RecordSeparatorFilter(formatter) : formatter
    }

    /// Whether more of the body would change what is shown: false once the binary notice is out.
    var wantsMoreInput: Bool {
        if case .notice = mode { return !wroteNotice }
        return true
    }

    /// Problems the formatter found, for warnings.
    var warnings: [String] {
        if case .formatting(let formatter) = mode { return formatter.warnings }
        return []
    }

    /// Shows the next chunk.
    func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if let converter {
            let converted = converter.convert(chunk)
            try converted.withUnsafeBytes { try show($0) }
        } else {
            try show(chunk)
        }
    }

    /// The body ended.
    func finish() throws {
        if let converter {
            let rest = converter.convert(UnsafeRawBufferPointer(start: nil, count: 0), final: true)
            try rest.withUnsafeBytes { try show($0) }
        }
        if case .sniffing = mode { try decide() }
        if case .formatting(let formatter) = mode { try formatter.finish() }
        try escaping?.finish()
    }

    /// The transfer failed part-way: the formatted part stays and what the formatter held back
    /// follows as received.
    func abandon() throws {
        if let converter {
            let rest = converter.convert(UnsafeRawBufferPointer(start: nil, count: 0), final: true)
            try rest.withUnsafeBytes { try show($0) }
        }
        if case .sniffing = mode {
            mode = .raw
            let held = sniffed
            sniffed = []
            try held.withUnsafeBytes { try show($0) }
        }
        if case .formatting(let formatter) = mode { try formatter.abandon() }
        try escaping?.finish()
    }

    /// Passes bytes (already converted to UTF-8, if they needed it) to the current mode.
    private func show(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        // HTTPie's rule: text with a NUL byte is binary, and a terminal gets a notice instead.
        if display.isTerminal, case .raw = mode, bytes.contains(0) { mode = .notice }
        switch mode {
        case .raw:
            // No formatter colours here, so every escape sequence is the server's.
            escaping?.escaper.passesColorSequences = false
            try sink.write(bytes)
        case .formatting(let formatter):
            try formatter.consume(bytes)
        case .notJSON(let error):
            throw error
        case .notice:
            guard !wroteNotice else { return }
            wroteNotice = true
            try Array(ExchangePrinter.binaryNotice.utf8).withUnsafeBytes { try sink.write($0) }
        case .sniffing:
            sniffed.append(contentsOf: bytes)
            let decided = sniffed.contains { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            if decided || sniffed.count >= 64 * 1024 { try decide() }
        }
    }

    /// Picks JSON or the exact bytes for a sniffed body and hands over what was held.
    private func decide() throws {
        if let query = display.jsonPath {
            mode =
                ResponseSerializerKind.looksLikeJSON(sniffed)
                ? .formatting(
                    JSONPathStreamFilter(
                        query: query, colors: display.syntaxColors, sink: sink, limits: display.jsonPathLimits))
                : .notJSON(
                    JSONPathBodyError("--jsonpath: the response body is not JSON (it starts with neither { nor [)",
                                      failureClass: .responseRejected))
        } else if ResponseSerializerKind.looksLikeJSON(sniffed) {
            var options = display.jsonOptions(sniffed: true)
            options.flushesEachChunk = streams
            let formatter = JSONStreamFormatter(options: options, sink: sink)
            mode = .formatting(formatter)
        } else {
            mode = .raw
        }
        let held = sniffed
        sniffed = []
        try held.withUnsafeBytes { try show($0) }
    }
}

/// A sink that shows control characters escaped before they reach the terminal.
private final class EscapingSink: ByteSink {
    private let output: ByteSink
    var escaper: TerminalEscaper

    init(_ output: ByteSink, passesColorSequences: Bool) {
        self.output = output
        escaper = TerminalEscaper(passesColorSequences: passesColorSequences)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try escaper.escape(bytes) { try output.write($0) }
    }

    /// Writes what the escaper held back at the end.
    func finish() throws {
        try escaper.finish { try output.write($0) }
    }
}
