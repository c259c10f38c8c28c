/// One event of a `text/event-stream` body, as the HTML standard's event stream interpretation
/// dispatches it.
package struct ServerSentEvent: Equatable, Sendable {
    /// The `event:` field, nil when the block had none (EventSource then calls it `message`).
    package var type: String?
    /// The `data:` lines joined with line feeds, as received (UTF-8 is not checked).
    package var data: [UInt8]
    /// The last event ID: the latest `id:` field so far in the stream, this block's or an earlier
    /// one's; nil when none was given or the latest was empty.
    package var id: String?
    /// Whether this block had an `id:` field of its own (else `id` is an earlier block's).
    package var setsID: Bool
    /// The `retry:` field of this block, in milliseconds, when it had a valid one.
    package var retry: Int?
    /// Whether a field of the event was longer than the parser's limits and lost its end.
    package var truncated: Bool

    package init(
        type: String? = nil, data: [UInt8], id: String? = nil, setsID: Bool = false, retry: Int? = nil,
        truncated: Bool = false
    ) {
        self.type = type
        self.data = data
        self.id = id
        self.setsID = setsID
        self.retry = retry
        self.truncated = truncated
    }

    /// The data as text, invalid UTF-8 replaced.
    package var text: String { String(decoding: data, as: UTF8.self) }
}

/// An incremental `text/event-stream` parser (HTML Living Standard, "Event stream
/// interpretation"), fed chunks as they arrive: a leading byte order mark is skipped, lines end in
/// CR, LF or CRLF (also split across chunks), `:` starts a comment, the fields are `event`, `data`,
/// `id` and `retry` (anything else is ignored), `data` lines are joined with line feeds and a blank
/// line dispatches the event; a block without `data` dispatches nothing. An event still open when
/// the stream ends is not dispatched, as EventSource does.
///
/// Memory stays flat however long a line or an event grows: `data` is copied straight into the
/// event up to `limits.eventBytes` and other field values up to `limits.fieldBytes`; beyond them
/// the rest is dropped and the event is marked `truncated`.
package struct EventStreamParser {
    /// How much one event may hold.
    package struct Limits: Sendable {
        /// The most data bytes one event keeps.
        package var eventBytes: Int
        /// The most bytes kept of an `event`, `id` or `retry` value.
        package var fieldBytes: Int

        package init(eventBytes: Int = FormattingLimits.eventBytes, fieldBytes: Int = 4096) {
            self.eventBytes = eventBytes
            self.fieldBytes = fieldBytes
        }
    }

    /// Where the parser is within a line.
    private enum Position {
        /// Reading the field name (the line's start included).
        case name
        /// Just after the colon: one space is skipped.
        case valueStart
        case value
        /// A comment or a field that is not one of the four: skipped to the line's end.
        case skipping
    }

    /// The field a value belongs to.
    private enum Field {
        case event, data, id, retry, other
    }

    private static let dataName = Array("data".utf8)
    private static let eventName = Array("event".utf8)
    private static let idName = Array("id".utf8)
    private static let retryName = Array("retry".utf8)

    private let limits: Limits
    private var position = Position.name
    private var field = Field.other
    private var name: [UInt8] = []
    private var value: [UInt8] = []
    /// Whether the previous byte was a CR, so that an LF right after it ends no second line.
    private var afterCR = false
    /// How many bytes of a byte order mark were matched at the stream's start; 3 when done.
    private var bomMatched = 0
    private var data: [UInt8] = []
    private var dataLines = 0
    private var eventType: [UInt8]?
    private var lastEventID: [UInt8] = []
    private var retry: Int?
    private var setsID = false
    private var truncated = false
    /// The reconnection time the stream asked for (`retry:`), in milliseconds.
    package private(set) var reconnectionTime: Int?
    /// The last event ID as of the last blank line, as EventSource's `lastEventId` is set (also
    /// by a block without data): what a reconnection sends as `Last-Event-ID`; empty for none.
    package private(set) var dispatchedEventID: [UInt8] = []

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// A parser for the stream of a new connection that keeps `previous`'s last event ID and
    /// reconnection time, as EventSource keeps them when it reconnects.
    package init(limits: Limits = Limits(), continuing previous: EventStreamParser) {
        self.limits = limits
        lastEventID = previous.dispatchedEventID
        dispatchedEventID = previous.dispatchedEventID
        reconnectionTime = previous.reconnectionTime
    }

    /// Whether data was read since the last dispatch: an event that the stream's end would lose.
    package var hasOpenEvent: Bool { dataLines > 0 }

    /// Parses the next chunk, calling `dispatch` for each event it completes.
    package mutating func consume(
        _ chunk: UnsafeRawBufferPointer, dispatch: (ServerSentEvent) throws -> Void
    ) rethrows {
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var i = 0
        if bomMatched < 3 { i = try skipByteOrderMark(bytes, chunk.count, dispatch: dispatch) }
        try run(bytes, from: i, count: chunk.count, dispatch: dispatch)
    }

    /// Skips a UTF-8 byte order mark at the stream's start, which may be split across chunks;
    /// returns where the stream's own bytes start in this chunk.
    private mutating func skipByteOrderMark(
        _ bytes: UnsafePointer<UInt8>, _ count: Int, dispatch: (ServerSentEvent) throws -> Void
    ) rethrows -> Int {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var i = 0
        while bomMatched < 3, i < count {
            guard bytes[i] == mark[bomMatched] else {
                // Not a mark after all: what looked like its start is ordinary input.
                let matched = bomMatched
                bomMatched = 3
                try mark.withUnsafeBufferPointer { try run($0.baseAddress!, from: 0, count: matched, dispatch: dispatch) }
                return i
            }
            bomMatched += 1
            i += 1
        }
        return i
    }

    /// Runs the line state machine over `bytes[start..<count]`.
    private mutating func run(
        _ bytes: UnsafePointer<UInt8>, from start: Int, count: Int, dispatch: (ServerSentEvent) throws -> Void
    ) rethrows {
        var i = start
        while i < count {
            let byte = bytes[i]
            if afterCR {
                afterCR = false
                if byte == 0x0A {
                    i += 1
                    continue
                }
            }
            if byte == 0x0D || byte == 0x0A {
                afterCR = byte == 0x0D
                try endLine(dispatch: dispatch)
                i += 1
                continue
            }
            switch position {
            case .name:
                if byte == UInt8(ascii: ":") {
                    if name.isEmpty {
                        position = .skipping
                    } else {
                        beginValue()
                        position = .valueStart
                    }
                } else if name.count < 8 {
                    name.append(byte)
                } else {
                    // No field name is this long: skip the line.
                    position = .skipping
                    name.removeAll(keepingCapacity: true)
                }
                i += 1
            case .valueStart:
                position = .value
                if byte == 0x20 { i += 1 }
            case .value:
                // Copy the run up to the line's end in one go.
                var end = i
                while end < count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                appendValue(UnsafeBufferPointer(start: bytes + i, count: end - i))
                i = end
            case .skipping:
                while i < count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
            }
        }
    }

    /// Names the field whose value follows; `data` starts its line in the data buffer.
    private mutating func beginValue() {
        if name == Self.dataName {
            field = .data
            if dataLines > 0 { appendData(CollectionOfOne(0x0A)) }
            dataLines += 1
        } else if name == Self.eventName {
            field = .event
        } else if name == Self.idName {
            field = .id
        } else if name == Self.retryName {
            field = .retry
        } else {
            field = .other
        }
        value.removeAll(keepingCapacity: true)
    }

    private mutating func appendValue(_ run: UnsafeBufferPointer<UInt8>) {
        switch field {
        case .data:
            appendData(run)
        case .other:
            break
        case .event, .id, .retry:
            let room = limits.fieldBytes - value.count
            if run.count > room { truncated = true }
            value.append(contentsOf: run.prefix(max(room, 0)))
        }
    }

    private mutating func appendData(_ run: some Collection<UInt8>) {
        let room = limits.eventBytes - data.count
        if run.count > room { truncated = true }
        data.append(contentsOf: run.prefix(max(room, 0)))
    }

    /// Ends a line: a blank one dispatches, a field line takes effect.
    private mutating func endLine(dispatch: (ServerSentEvent) throws -> Void) rethrows {
        defer {
            position = .name
            name.removeAll(keepingCapacity: true)
        }
        switch position {
        case .name where name.isEmpty:
            try dispatchEvent(dispatch)
        case .name:
            // A line without a colon is a field with an empty value.
            beginValue()
            fieldEnded()
        case .valueStart, .value:
            fieldEnded()
        case .skipping:
            break
        }
    }

    /// Applies a complete `event`, `id` or `retry` field.
    private mutating func fieldEnded() {
        switch field {
        case .event:
            eventType = value
        case .id where !value.contains(0):
            lastEventID = value
            setsID = true
        case .retry:
            if !value.isEmpty, value.count <= 9, value.allSatisfy({ (0x30...0x39).contains($0) }) {
                let milliseconds = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                retry = milliseconds
                reconnectionTime = milliseconds
            }
        case .id, .data, .other:
            break
        }
        field = .other
    }

    /// Hands the event over (when it has data) and starts the next.
    private mutating func dispatchEvent(_ dispatch: (ServerSentEvent) throws -> Void) rethrows {
        defer {
            data.removeAll(keepingCapacity: data.count <= 64 * 1024)
            dataLines = 0
            eventType = nil
            retry = nil
            setsID = false
            truncated = false
        }
        dispatchedEventID = lastEventID
        guard dataLines > 0 else { return }
        let event = ServerSentEvent(
            type: eventType.map { String(decoding: $0, as: UTF8.self) }, data: data,
            id: lastEventID.isEmpty ? nil : String(decoding: lastEventID, as: UTF8.self), setsID: setsID, retry: retry,
            truncated: truncated)
        try dispatch(event)
    }
}
