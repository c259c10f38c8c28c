/// What `RetryingEngine` keeps of a GET event stream across its connections (`--reconnect`), as
/// EventSource does (HTML Living Standard, "Server-sent events"): the last event ID (sent back as
/// `Last-Event-ID`), the reconnection time the server set with `retry:`, and the bytes of the
/// event still open. It parses the stream beside the printer, keeping no data (only the `id` and
/// `retry` values, at most 4 KiB each).
///
/// The reporter is given the stream one whole event at a time: the bytes after the last blank
/// line are held until the blank line that ends their event arrives. An event a drop cuts off is
/// then dropped with the connection, as the standard discards an event not ended by a blank line,
/// and the next connection's events follow the last whole one. An event longer than the hold
/// (`holdLimit`) is passed on as it comes; one of those cut off is ended with a blank line instead.
final class EventStreamResumption {
    /// The parser, keeping no event data: only the fields a reconnection needs.
    private var parser = EventStreamParser(limits: EventStreamParser.Limits(eventBytes: 0))
    /// Whether a 200 event stream was received, so that its drop is reconnected.
    var started = false
    /// The try whose head was passed on to the reporter: a reconnection's is not.
    var reconnecting = false
    /// The hop of the stream's last bytes, where what is held is passed on.
    var lastHop = 0
    /// The hop whose end was kept from the reporter, its stream going on over a new connection
    /// (a stream that ends by a close); passed on once the stream is over.
    var pendingFinish: Int?
    /// The bytes of the event still open, held until its blank line.
    private var held: [UInt8] = []
    /// Whether bytes of the open event were passed on (it outgrew the hold).
    private var passedOpenEvent = false
    /// Whether the byte before is a line's end (or the stream's start), so that a line ending here
    /// is blank; whether that end was a CR (whose LF, next, ends nothing more), and a CR that
    /// ended an event (whose LF goes with it).
    private var atLineStart = true
    private var afterCR = false
    private var afterEventCR = false

    /// The most bytes of one event held back: the formatter's own bound on an event, and some
    /// room for its field names.
    static let holdLimit = FormattingLimits.eventBytes + 64 * 1024

    /// Whether `head` starts an event stream: a 200 with `Content-Type: text/event-stream`.
    static func isEventStream(_ head: ResponseHead) -> Bool {
        guard head.statusCode == 200, let type = head.value(for: "content-type") else { return false }
        return ResponseMediaType(type).essence == "text/event-stream"
    }

    /// Whether the body of `head` ends only when the server closes the connection (HTTP/1 without
    /// `Content-Length` or chunked coding): its end cannot be told from a drop, so EventSource's
    /// rule, to reconnect on any close, applies. A stream whose framing marks its end is over.
    static func endsByClose(_ head: ResponseHead) -> Bool {
        guard head.httpVersion.hasPrefix("HTTP/1"), head.value(for: "content-length") == nil else { return false }
        let coding = head.values(for: "transfer-encoding").joined(separator: ",").lowercased()
        return !coding.split(separator: ",").contains { $0.split(separator: " ").first == "chunked" }
    }

    /// Reads a chunk of the stream and hands `deliver` what of it ends whole events (with what
    /// was held before it), holding the rest.
    func feed(_ chunk: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        parser.consume(chunk) { _ in }
        var boundary = -1
        for (index, byte) in chunk.enumerated() {
            if afterCR {
                afterCR = false
                if byte == 0x0A {
                    if afterEventCR { boundary = index }
                    afterEventCR = false
                    continue
                }
                afterEventCR = false
            }
            if byte == 0x0A || byte == 0x0D {
                if atLineStart { boundary = index }
                afterEventCR = byte == 0x0D && atLineStart
                atLineStart = true
                afterCR = byte == 0x0D
            } else {
                atLineStart = false
            }
        }
        let whole = boundary + 1
        if whole > 0 {
            passedOpenEvent = false
            if held.isEmpty {
                try deliver(UnsafeRawBufferPointer(rebasing: chunk[..<whole]))
            } else {
                held.append(contentsOf: chunk[..<whole])
                try held.withUnsafeBytes { try deliver($0) }
                held.removeAll(keepingCapacity: held.count <= 64 * 1024)
            }
        }
        let rest = UnsafeRawBufferPointer(rebasing: chunk[whole...])
        guard !rest.isEmpty else { return }
        if passedOpenEvent || held.count + rest.count > Self.holdLimit {
            // Too long to hold: passed on as it comes.
            passedOpenEvent = true
            try release(deliver)
            try deliver(rest)
        } else {
            held.append(contentsOf: rest)
        }
    }

    /// Hands `deliver` the bytes held of an open event, for a stream that ends here: the
    /// reporter then gets all that was received, and tells of an event left open itself.
    func release(_ deliver: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard !held.isEmpty else { return }
        try held.withUnsafeBytes { try deliver($0) }
        held.removeAll()
    }

    /// The ID a reconnection sends as `Last-Event-ID`; nil for none.
    var lastEventID: String? {
        parser.dispatchedEventID.isEmpty ? nil : String(decoding: parser.dispatchedEventID, as: UTF8.self)
    }

    /// The reconnection time the server set with `retry:`, in seconds; nil when it set none.
    var reconnectionTime: Double? { parser.reconnectionTime.map { Double($0) / 1000 } }

    /// A new connection's stream begins: the event the drop cut off is dropped, and the bytes
    /// returned (a blank line) end one that was passed on in part; empty otherwise, the stream the
    /// reporter reads having stopped after a whole event.
    func closingBytes() -> [UInt8] {
        held.removeAll()
        // The response's end kept back: the new connection's end stands for it.
        pendingFinish = nil
        let closing: [UInt8] = passedOpenEvent ? [0x0A, 0x0A] : []
        passedOpenEvent = false
        atLineStart = true
        afterCR = false
        afterEventCR = false
        // A new connection starts a new stream: a byte order mark may come again.
        parser = EventStreamParser(limits: EventStreamParser.Limits(eventBytes: 0), continuing: parser)
        return closing
    }
}
