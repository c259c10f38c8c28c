import AFCurl

/// How server-sent events are written.
package enum EventStreamStyle: Sendable {
    /// For reading: `event:`, `id:` and `retry:` lines in the comment colour, the data formatted
    /// with these options when it is one JSON value and as text otherwise, a blank line between
    /// events, and the `[DONE]` that ends a language model's stream shown as the end.
    case display(JSONFormatOptions)
    /// One JSON object a line, `{"event":…,"id":…,"data":…}`, the data parsed when it is JSON
    /// (`--events=json`), its tokens in these colours.
    case jsonLines(SyntaxColors)
    /// What a JSONPath query (`--jsonpath`) selects in each event's JSON data, one compact value
    /// a line, in these colours; events whose data is not JSON (`[DONE]`) print nothing.
    case jsonPath(JSONPathQuery, SyntaxColors)
}

/// Writes a `text/event-stream` body one event at a time as the events complete, each in one
/// write, so that a streaming output shows an event as soon as its blank line arrives.
///
/// Memory is one event (bounded by `EventStreamParser.Limits`) and its formatted copy.
package final class EventStreamFormatter: BodyFormatter {
    private var parser: EventStreamParser
    private let style: EventStreamStyle
    private let sink: ByteSink
    /// Show the server's ESC bytes escaped (a terminal).
    private let escapesControls: Bool
    /// The deepest nesting of an event's JSON data read (`--max-depth`).
    private let maximumDepth: Int
    private var eventsWritten = 0
    private var truncatedEvents = 0
    package private(set) var warnings: [String] = []

    /// A formatter writing to `sink`; `escapesControls` for a terminal.
    package init(
        style: EventStreamStyle, escapesControls: Bool, sink: ByteSink,
        limits: EventStreamParser.Limits = EventStreamParser.Limits(),
        maximumDepth: Int = FormattingLimits.maximumDepth
    ) {
        parser = EventStreamParser(limits: limits)
        self.maximumDepth = maximumDepth
        self.style = style
        self.sink = sink
        self.escapesControls = escapesControls
    }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
        try parser.consume(chunk) { try write($0) }
    }

    package func finish() throws {
        if parser.hasOpenEvent {
            warnings.append("the event stream ended inside an event, which was not shown (no blank line after it)")
        }
        noteTruncation()
    }

    /// The transfer failed: events shown stay; an event still open is lost with the connection,
    /// as EventSource loses it.
    package func abandon() throws {
        noteTruncation()
    }

    private func noteTruncation() {
        guard truncatedEvents > 0 else { return }
        let limit = FormattingLimits.eventBytes / (1024 * 1024)
        warnings.append(
            "\(truncatedEvents) event\(truncatedEvents == 1 ? " was" : "s were") longer than the limit "
                + "(\(limit) MiB of data) and shown cut short")
    }

    /// Writes one event.
    private func write(_ event: ServerSentEvent) throws {
        if event.truncated { truncatedEvents += 1 }
        var line: [UInt8] = []
        switch style {
        case .display(let options):
            line = displayed(event, options: options)
        case .jsonLines(let colors):
            line = Self.jsonLine(event, maximumDepth: maximumDepth)
            if colors.isEnabled {
                var options = JSONFormatOptions(layout: .compact, colors: colors, escapesControls: escapesControls)
                options.reportsErrors = false
                options.maximumDepth = maximumDepth
                line = (Self.formattedJSON(line, options: options) ?? line) + [0x0A]
            }
        case .jsonPath(let query, let colors):
            line = try selected(query, in: event, colors: colors)
            guard !line.isEmpty else { return }
        }
        eventsWritten += 1
        try sink.writeRaw(line, escapingControls: false)
    }

    /// The values `query` selects in the event's data, each compact on its own line; nothing
    /// when the data is not JSON.
    /// The parsed data and what is read from it recurse a level at a time (`DeepStack`).
    private func selected(_ query: JSONPathQuery, in event: ServerSentEvent, colors: SyntaxColors) throws -> [UInt8] {
        try DeepStack.run(levels: maximumDepth) { () throws -> [UInt8] in
            try selectedHere(query, in: event, colors: colors)
        }
    }

    /// `selected`, on the stack it runs on.
    private func selectedHere(_ query: JSONPathQuery, in event: ServerSentEvent, colors: SyntaxColors) throws -> [UInt8] {
        guard let document = try? JSONParser.parse(bytes: event.data, maximumDepth: maximumDepth) else { return [] }
        var options = JSONFormatOptions(layout: .compact, colors: colors, escapesControls: escapesControls)
        options.reportsErrors = false
        options.maximumDepth = maximumDepth
        var out: [UInt8] = []
        for value in try query.values(in: document) {
            let compact = try JSONWriter.encode(value)
            out += (colors.isEnabled ? Self.formattedJSON(compact, options: options) : nil) ?? compact
            out.append(0x0A)
        }
        return out
    }

    /// The event laid out for reading.
    private func displayed(_ event: ServerSentEvent, options: JSONFormatOptions) -> [UInt8] {
        let colors = options.colors
        var out: [UInt8] = eventsWritten > 0 ? [0x0A] : []
        func dim(_ text: String) {
            out.append(contentsOf: colors.comment.array)
            out.append(contentsOf: escaped(Array(text.utf8)))
            out.append(contentsOf: colors.reset.array)
            out.append(0x0A)
        }
        if let type = event.type { dim("event: \(type)") }
        if event.setsID { dim("id: \(event.id ?? "")") }
        if let retry = event.retry { dim("retry: \(retry)") }
        if event.data == Self.done {
            dim("[DONE] (end of stream)")
            return out
        }
        var json = options
        json.allowsSequence = false
        json.reportsErrors = false
        if let formatted = Self.formattedJSON(event.data, options: json) {
            out.append(contentsOf: formatted)
        } else {
            out.append(contentsOf: escaped(event.data))
        }
        if out.last != 0x0A { out.append(0x0A) }
        return out
    }

    /// The bytes with ESC shown as `\x1b` when writing to a terminal.
    private func escaped(_ bytes: [UInt8]) -> [UInt8] {
        guard escapesControls, bytes.contains(0x1B) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if byte == 0x1B { out.append(contentsOf: TerminalEscaper.escapeText.array) } else { out.append(byte) }
        }
        return out
    }

    /// The data line of language-model APIs that ends their stream.
    private static let done = Array("[DONE]".utf8)

    /// The event as one compact JSON object and a line feed; `data` is embedded as parsed when it
    /// is one JSON value (nested at most `maximumDepth` levels), else as a string.
    package static func jsonLine(
        _ event: ServerSentEvent, maximumDepth: Int = FormattingLimits.maximumDepth
    ) -> [UInt8] {
        var out: [UInt8] = Array(#"{"event":"#.utf8)
        JSONWriter.writeString(event.type ?? "message", into: &out)
        out.append(contentsOf: #","id":"#.utf8)
        if let id = event.id { JSONWriter.writeString(id, into: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #","data":"#.utf8)
        var compact = JSONFormatOptions(layout: .compact, reportsErrors: false)
        compact.maximumDepth = maximumDepth
        if let data = formattedJSON(event.data, options: compact) {
            out.append(contentsOf: data)
        } else {
            JSONWriter.writeString(event.text, into: &out)
        }
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// `bytes` formatted with `options` when they hold exactly one JSON value, else nil.
    package static func formattedJSON(_ bytes: [UInt8], options: JSONFormatOptions) -> [UInt8]? {
        let starts = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        guard let first = starts, Self.valueStarts.contains(first) else { return nil }
        var single = options
        single.allowsSequence = false
        let sink = CollectingSink()
        let formatter = JSONStreamFormatter(options: single, sink: sink, blockSize: 4096)
        // A CollectingSink never refuses bytes, so neither call throws.
        try? bytes.withUnsafeBytes { try formatter.consume($0) }
        try? formatter.finish()
        guard formatter.isValid, formatter.valueCount == 1 else { return nil }
        return sink.bytes
    }

    /// The bytes a JSON value can start with.
    private static let valueStarts = Set(Array("{[\"-0123456789tfn".utf8))
}
