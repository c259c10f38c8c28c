import AFKit
import XCTest

/// How server-sent events are written: for reading, and as JSON lines.
final class EventStreamFormatterTests: XCTestCase {
    private func format(_ stream: String, style: EventStreamStyle, chunk: Int? = nil) throws -> (String, [String]) {
        let sink = CollectingSink()
        let formatter = EventStreamFormatter(style: style, escapesControls: true, sink: sink)
        let warnings = try feed(Array(stream.utf8), to: formatter, chunk: chunk)
        return (String(decoding: sink.bytes, as: UTF8.self), warnings)
    }

    func testDisplayDimsFieldsFormatsJSONDataAndEndsAtDone() throws {
        var colors = SyntaxColors()
        colors.comment = StaticBytes("<d>")
        colors.reset = StaticBytes("</>")
        let stream = "event: delta\nid: 1\ndata: {\"t\":\"hi\"}\n\ndata: plain \u{1B}[2J text\n\ndata: [DONE]\n\n"
        let (shown, warnings) = try format(
            stream, style: .display(JSONFormatOptions(layout: .indented(2), colors: colors)), chunk: 3)
        XCTAssertEqual(
            shown,
            "<d>event: delta</>\n<d>id: 1</>\n{\n  \"t\": \"hi\"\n}\n\nplain \\x1b[2J text\n\n<d>[DONE] (end of stream)</>\n")
        XCTAssertEqual(warnings, [])
    }

    func testDataThatIsNotOneJSONValueIsShownAsText() throws {
        let (shown, _) = try format("data: {\"a\":1} {\"b\":2}\n\ndata: [1,\n\n", style: .display(JSONFormatOptions()))
        XCTAssertEqual(shown, "{\"a\":1} {\"b\":2}\n\n[1,\n")
    }

    func testJSONLinesParseDataWhenItIsJSON() throws {
        let stream = "event: e\nid: 9\ndata: {\"x\": [1, 2]}\n\ndata: 42\n\ndata: text \"quoted\"\ndata: two\n\n"
        let (lines, _) = try format(stream, style: .jsonLines(SyntaxColors()), chunk: 1)
        XCTAssertEqual(
            lines,
            """
            {"event":"e","id":"9","data":{"x":[1,2]}}
            {"event":"message","id":"9","data":42}
            {"event":"message","id":"9","data":"text \\"quoted\\"\\ntwo"}

            """)
        for line in lines.split(separator: "\n") {
            XCTAssertNoThrow(try JSONParser.parse(bytes: Array(line.utf8)), String(line))
        }
    }

    func testAnEventCutShortByTheStreamsEndIsReported() throws {
        let (shown, warnings) = try format("data: a\n\ndata: b", style: .jsonLines(SyntaxColors()))
        XCTAssertEqual(shown, "{\"event\":\"message\",\"id\":null,\"data\":\"a\"}\n")
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("ended inside an event"), warnings[0])
    }

    func testRecordSeparatorsOfAJSONSequenceBecomeLineFeeds() throws {
        let sink = CollectingSink()
        let formatter = RecordSeparatorFilter(
            JSONStreamFormatter(options: JSONFormatOptions(layout: .compact, allowsSequence: true), sink: sink))
        try feed([0x1E] + Array("{\"a\": 1}\n".utf8) + [0x1E] + Array("2".utf8) + [0x1E, 0x1E] + Array("[3]".utf8),
            to: formatter, chunk: 2)
        XCTAssertEqual(String(decoding: sink.bytes, as: UTF8.self), "{\"a\":1}\n2\n[3]\n")
        XCTAssertEqual(formatter.warnings, [])
    }

    func testAStreamedJSONFormatterWritesEachChunkAtOnce() throws {
        let sink = CollectingSink()
        var options = JSONFormatOptions(layout: .compact, allowsSequence: true)
        options.flushesEachChunk = true
        let formatter = JSONStreamFormatter(options: options, sink: sink)
        try Array("{\"a\":1}\n".utf8).withUnsafeBytes { try formatter.consume($0) }
        XCTAssertEqual(String(decoding: sink.bytes, as: UTF8.self), "{\"a\":1}\n")
    }
}
