import AFKit
import XCTest

/// The `text/event-stream` parser against the HTML standard's event stream interpretation.
final class EventStreamParserTests: XCTestCase {
    /// The events of `text` fed `chunk` bytes at a time (all at once when nil).
    private func events(
        _ bytes: [UInt8], chunk: Int? = nil, limits: EventStreamParser.Limits = EventStreamParser.Limits()
    ) -> (events: [ServerSentEvent], parser: EventStreamParser) {
        var parser = EventStreamParser(limits: limits)
        var events: [ServerSentEvent] = []
        let size = chunk ?? max(bytes.count, 1)
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes { parser.consume($0) { events.append($0) } }
            start = end
        }
        return (events, parser)
    }

    private func events(_ text: String, chunk: Int? = nil) -> [ServerSentEvent] {
        events(Array(text.utf8), chunk: chunk).events
    }

    func testFieldsAndMultiLineDataAreJoinedWithLineFeeds() {
        let stream = "event: update\nid: 7\nretry: 2500\ndata: {\"a\":1,\ndata:  \"b\":2}\n\n"
        XCTAssertEqual(
            events(stream),
            [ServerSentEvent(type: "update", data: Array("{\"a\":1,\n \"b\":2}".utf8), id: "7", setsID: true, retry: 2500)])
    }

    func testEveryLineEndingAndEveryChunkingGiveTheSameEvents() {
        let expected = [
            ServerSentEvent(data: Array("one\ntwo".utf8)), ServerSentEvent(type: "x", data: Array("three".utf8)),
        ]
        for end in ["\n", "\r", "\r\n"] {
            let stream = "data: one\(end)data: two\(end)\(end)event: x\(end)data: three\(end)\(end)"
            for chunk in [1, 2, 3, 5, 100] {
                XCTAssertEqual(events(stream, chunk: chunk), expected, "line end \(end.debugDescription), chunk \(chunk)")
            }
        }
    }

    func testAByteOrderMarkIsSkippedOnlyAtTheStart() {
        let stream: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8)
        for chunk in [1, 2, 4, 64] {
            // The second mark starts a field name no field has: that line is ignored.
            XCTAssertEqual(events(stream, chunk: chunk).events, [ServerSentEvent(data: Array("a".utf8))])
        }
        // Bytes that start like a mark but are not one stay input.
        let notMark: [UInt8] = [0xEF, 0xBB] + Array("\ndata: c\n\n".utf8)
        XCTAssertEqual(events(notMark, chunk: 1).events, [ServerSentEvent(data: Array("c".utf8))])
    }

    func testCommentsUnknownFieldsAndBlocksWithoutDataDispatchNothing() {
        let stream = ": keep-alive\n\nevent: lonely\n\nfoo: bar\ndataa: x\n\n:\n\ndata: real\n\n"
        XCTAssertEqual(events(stream), [ServerSentEvent(data: Array("real".utf8))])
    }

    func testALineWithoutAColonIsAFieldWithAnEmptyValue() {
        // "data" alone adds an empty line; an event with empty data is still dispatched.
        XCTAssertEqual(events("data\n\n"), [ServerSentEvent(data: [])])
        XCTAssertEqual(events("data\ndata\n\n"), [ServerSentEvent(data: [0x0A])])
        // Only one space after the colon is skipped.
        XCTAssertEqual(events("data:  two spaces\n\n"), [ServerSentEvent(data: Array(" two spaces".utf8))])
    }

    func testTheLastEventIDPersistsAndAnEmptyIDResetsIt() {
        let got = events("id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: x\u{0}y\ndata: d\n\n")
        XCTAssertEqual(got.map(\.id), ["1", "1", nil, nil])
        XCTAssertEqual(got.map(\.setsID), [true, false, true, false])
    }

    func testRetryTakesOnlyDigitsAndTheEventTypeResets() {
        let (got, parser) = events(Array("retry: 1x\ndata: a\n\nretry: 300\nevent: e\ndata: b\n\ndata: c\n\n".utf8))
        XCTAssertEqual(got.map(\.retry), [nil, 300, nil])
        XCTAssertEqual(got.map(\.type), [nil, "e", nil])
        XCTAssertEqual(parser.reconnectionTime, 300)
    }

    func testAnEventOpenAtTheEndIsNotDispatched() {
        let (got, parser) = events(Array("data: a\n\ndata: b\n".utf8))
        XCTAssertEqual(got, [ServerSentEvent(data: Array("a".utf8))])
        XCTAssertTrue(parser.hasOpenEvent)
    }

    func testLongLinesAndEventsAreCutToTheLimits() {
        let limits = EventStreamParser.Limits(eventBytes: 10, fieldBytes: 4)
        let stream = Array("data: 0123456789abcdef\nevent: longtype\ndata: more\n\ndata: ok\n\n".utf8)
        for chunk in [1, 7, 1000] {
            let got = events(stream, chunk: chunk, limits: limits).events
            XCTAssertEqual(
                got,
                [
                    ServerSentEvent(type: "long", data: Array("0123456789".utf8), truncated: true),
                    ServerSentEvent(data: Array("ok".utf8)),
                ], "chunk \(chunk)")
        }
    }

    func testAnEndlessLineKeepsMemoryFlat() {
        var parser = EventStreamParser(limits: EventStreamParser.Limits(eventBytes: 1024, fieldBytes: 16))
        let block = [UInt8](repeating: 0x61, count: 64 * 1024)
        var dispatched = 0
        Array("data: ".utf8).withUnsafeBytes { parser.consume($0) { _ in dispatched += 1 } }
        for _ in 0..<256 {  // 16 MiB on one line
            block.withUnsafeBytes { parser.consume($0) { _ in dispatched += 1 } }
        }
        Array("\n\n".utf8).withUnsafeBytes {
            parser.consume($0) { event in
                dispatched += 1
                XCTAssertEqual(event.data.count, 1024)
                XCTAssertTrue(event.truncated)
            }
        }
        XCTAssertEqual(dispatched, 1)
    }

    func testTheLastEventIDIsCommittedAtEachBlankLineAndCarriedToANewConnection() {
        var parser = EventStreamParser()
        func feed(_ text: String) { Array(text.utf8).withUnsafeBytes { parser.consume($0) { _ in } } }
        feed("retry: 250\nid: 1\ndata: a\n\nid: 2\n")
        XCTAssertEqual(parser.dispatchedEventID, Array("1".utf8), "an id: line counts at the blank line")
        feed("\n")
        XCTAssertEqual(parser.dispatchedEventID, Array("2".utf8), "also for a block without data")
        feed("id: 3\ndata: cut off")
        var next = EventStreamParser(continuing: parser)
        XCTAssertEqual(next.dispatchedEventID, Array("2".utf8))
        XCTAssertEqual(next.reconnectionTime, 250)
        var got: [ServerSentEvent] = []
        Array("data: b\n\n".utf8).withUnsafeBytes { next.consume($0) { got.append($0) } }
        XCTAssertEqual(got, [ServerSentEvent(data: Array("b".utf8), id: "2")], "the cut event is not the new one's")
    }
}
