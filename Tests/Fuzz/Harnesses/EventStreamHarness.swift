import AFKit

/// The server-sent event parser and formatter, which read whatever a streaming server sends.
enum EventStreamHarness {
    /// Small limits, so that the fuzzer reaches the truncation paths with short inputs.
    private static let limits = EventStreamParser.Limits(eventBytes: 512, fieldBytes: 32)

    /// Parses the input whole and in chunks whose size comes from the first byte: the events must
    /// be the same however the stream is cut (a CR at a chunk's end, a split byte order mark) and
    /// stay within the limits; then both formatter styles write them.
    static func run(_ input: UnsafeRawBufferPointer) {
        guard input.count >= 1 else { return }
        let body = UnsafeRawBufferPointer(rebasing: input[1...])
        let chunk = Int(input[0]) % 64 + 1
        let whole = events(body, chunk: max(body.count, 1))
        let chunked = events(body, chunk: chunk)
        FuzzInvariant.check(whole == chunked, "events depend on chunking (chunk \(chunk))")
        for event in whole {
            FuzzInvariant.check(event.data.count <= limits.eventBytes, "event data over the limit")
            FuzzInvariant.check((event.type?.utf8.count ?? 0) <= 3 * limits.fieldBytes, "event type over the limit")
        }
        for style in [EventStreamStyle.display(JSONFormatOptions()), .jsonLines(SyntaxColors())] {
            let sink = CollectingSink(limit: 1 << 20)
            let formatter = EventStreamFormatter(style: style, escapesControls: true, sink: sink, limits: limits)
            FormatterHarnesses.feed(body, chunk: chunk, to: formatter)
        }
    }

    /// The events of `body` fed `chunk` bytes at a time.
    private static func events(_ body: UnsafeRawBufferPointer, chunk: Int) -> [ServerSentEvent] {
        var parser = EventStreamParser(limits: limits)
        var events: [ServerSentEvent] = []
        var start = 0
        while start < body.count {
            let end = min(start + chunk, body.count)
            parser.consume(UnsafeRawBufferPointer(rebasing: body[start..<end])) { events.append($0) }
            start = end
        }
        return events
    }
}
