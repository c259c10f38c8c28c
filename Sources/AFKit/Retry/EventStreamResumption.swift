/// What `RetryingEngine` keeps of a GET event stream across its connections (`--reconnect`), as
/// EventSource does (HTML Living Standard, "Server-sent events"): the last event ID (sent back as
/// `Last-Event-ID`), the reconnection time the server set with `retry:`, and whether the stream
/// stopped in the middle of an event. It parses the stream beside the printer, keeping no data
/// (only the `id` and `retry` values, at most 4 KiB each), so memory stays flat.
final class EventStreamResumption {
    /// The parser, keeping no event data: only the fields a reconnection needs.
    private var parser = EventStreamParser(limits: EventStreamParser.Limits(eventBytes: 0))
    /// Whether a 200 event stream was received, so that its drop is reconnected.
    var started = false
    /// The last bytes of the stream so far, to tell whether it ended between events.
    private var tail: [UInt8] = []
    /// The try whose head was passed on to the reporter: a reconnection's is not.
    var reconnecting = false

    /// Whether `head` starts an event stream: a 200 with `Content-Type: text/event-stream`.
    static func isEventStream(_ head: ResponseHead) -> Bool {
        guard head.statusCode == 200, let type = head.value(for: "content-type") else { return false }
        return ResponseMediaType(type).essence == "text/event-stream"
    }

    /// Reads a chunk of the stream.
    func feed(_ chunk: UnsafeRawBufferPointer) {
        parser.consume(chunk) { _ in }
        tail.append(contentsOf: chunk.suffix(4))
        if tail.count > 4 { tail.removeFirst(tail.count - 4) }
    }

    /// The ID a reconnection sends as `Last-Event-ID`; nil for none.
    var lastEventID: String? {
        parser.dispatchedEventID.isEmpty ? nil : String(decoding: parser.dispatchedEventID, as: UTF8.self)
    }

    /// The reconnection time the server set with `retry:`, in seconds; nil when it set none.
    var reconnectionTime: Double? { parser.reconnectionTime.map { Double($0) / 1000 } }

    /// The bytes that end an event cut off by the drop, so that the stream the reporter reads
    /// goes on with the next connection's first event (the cut event is shown as far as it came);
    /// empty when the stream stopped between events.
    func closingBytes() -> [UInt8] {
        let ended = tail.isEmpty || tail.suffix(2) == [0x0A, 0x0A] || tail.suffix(2) == [0x0D, 0x0D]
            || tail.suffix(4) == [0x0D, 0x0A, 0x0D, 0x0A]
        tail.removeAll()
        // A new connection starts a new stream: a byte order mark may come again.
        parser = EventStreamParser(limits: EventStreamParser.Limits(eventBytes: 0), continuing: parser)
        return ended ? [] : [0x0A, 0x0A]
    }
}
