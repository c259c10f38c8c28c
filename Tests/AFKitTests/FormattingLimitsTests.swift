import AFKit
import XCTest

/// The limits that keep hostile bodies from running formatters for minutes or filling memory:
/// nesting depth, property-list expansion, the `--sorted` cap; and what is shown past them.
final class FormattingLimitsTests: XCTestCase {
    private let depth = FormattingLimits.maximumDepth

    private func json(
        _ input: [UInt8], _ options: JSONFormatOptions = JSONFormatOptions(), chunk: Int? = nil
    ) throws -> ([UInt8], [String]) {
        let sink = CollectingSink()
        let warnings = try feed(input, to: JSONStreamFormatter(options: options, sink: sink), chunk: chunk)
        return (sink.bytes, warnings)
    }

    private func xml(_ input: [UInt8], chunk: Int? = nil) throws -> ([UInt8], [String]) {
        let sink = CollectingSink()
        let warnings = try feed(input, to: XMLStreamFormatter(options: XMLFormatOptions(), sink: sink), chunk: chunk)
        return (sink.bytes, warnings)
    }

    // MARK: - JSON nesting

    func testJSONDeeperThanTheLimitShowsTheRestAsReceived() throws {
        let levels = 40_000
        let input =
            Array(repeating: UInt8(ascii: "["), count: levels) + Array(repeating: UInt8(ascii: "]"), count: levels)
        let (output, warnings) = try json(input, chunk: 16 * 1024)
        let rest = Array(input[depth...])
        XCTAssertEqual(Array(output.suffix(rest.count)), rest)
        // The formatted part: one line per level up to the limit, indented 4 a level.
        XCTAssertLessThan(output.count, depth * depth * 4 / 2 + depth * 4 + rest.count + depth)
        XCTAssertEqual(
            warnings, [
                "JSON at byte \(depth): nested deeper than the limit (\(depth) levels; --max-depth raises it); "
                    + "the rest is shown as received"
            ])
    }

    func testJSONAtTheLimitIsFormatted() throws {
        let input = String(repeating: "{\"a\":", count: depth - 1) + "[1]" + String(repeating: "}", count: depth - 1)
        let (output, warnings) = try json(Array(input.utf8), JSONFormatOptions(layout: .compact))
        XCTAssertEqual(String(decoding: output, as: UTF8.self), input)
        XCTAssertEqual(warnings, [])
    }

    func testSortedJSONDeeperThanTheLimitIsShownAsReceived() throws {
        let input = Array(
            (String(repeating: "{\"a\":", count: depth + 1) + "1" + String(repeating: "}", count: depth + 1)).utf8)
        let (output, warnings) = try json(input, JSONFormatOptions(sortsKeys: true))
        XCTAssertEqual(output, input)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].hasPrefix("JSON at byte 2560: nested deeper than the limit (\(depth) levels; "), warnings[0])
    }

    // MARK: - JSON: the rest as received starts where the last written token ended

    /// `[` + `[1,2,3],`×20000 + `tail` + `]`: big enough that output was flushed before the error.
    private func invalidTail(_ tail: String, chunk: Int? = nil) throws -> (String, [String]) {
        let input = "[" + String(repeating: "[1,2,3],", count: 20_000) + tail + "]"
        let (output, warnings) = try json(Array(input.utf8), chunk: chunk)
        return (String(decoding: output, as: UTF8.self), warnings)
    }

    func testMissingCommaIsNotRepaired() throws {
        let (output, warnings) = try invalidTail("[1 2]")
        XCTAssertTrue(output.hasSuffix("    [\n        1 2]]"), String(output.suffix(40)))
        XCTAssertEqual(warnings.count, 1)
    }

    func testTrailingCommaIsKept() throws {
        let (output, _) = try invalidTail("[1,]")
        XCTAssertTrue(output.hasSuffix("    [\n        1,]]"), String(output.suffix(40)))
    }

    func testMemberWithoutKeyKeepsItsComma() throws {
        let (output, _) = try invalidTail(#"{"a":1,2}"#)
        XCTAssertTrue(output.hasSuffix("        \"a\": 1,2}]"), String(output.suffix(40)))
    }

    func testSeparatorSplitAcrossChunksIsKept() throws {
        // Chunks of 7 bytes put the comma and the spaces before the error in earlier chunks.
        let (output, _) = try invalidTail("[1 ,   \n ]", chunk: 7)
        XCTAssertTrue(output.hasSuffix("        1 ,   \n ]]"), String(output.suffix(40)))
    }

    func testDroppedNullsAndSortingKeepTheSeparatorToo() throws {
        let input = "[" + String(repeating: "[1,2,3],", count: 20_000) + #"{"b":1, "a" 2}]"#
        let dropping = try json(Array(input.utf8), JSONFormatOptions(dropsNulls: true))
        XCTAssertTrue(String(decoding: dropping.0, as: UTF8.self).hasSuffix(#""b": 1, "a" 2}]"#))
        let sorting = try json(Array(input.utf8), JSONFormatOptions(sortsKeys: true))
        XCTAssertTrue(String(decoding: sorting.0, as: UTF8.self).hasSuffix(#"],{"b":1, "a" 2}]"#))
    }

    // MARK: - JSON: --sorted holds one object up to a limit

    func testSortedObjectLargerThanTheLimitIsShownUnsorted() throws {
        let members = (0..<2000).map { "\"k\(1999 - $0)\":\($0)" }.joined(separator: ",")
        let input = Array(("[{\"z\":1,\"a\":2}," + "{" + members + "}]").utf8)
        let options = JSONFormatOptions(sortsKeys: true, sortedObjectLimit: 4096)
        let (output, warnings) = try json(input, options, chunk: 1024)
        let unsorted = try json(Array(("[{\"a\":2,\"z\":1}," + "{" + members + "}]").utf8))
        XCTAssertEqual(output, unsorted.0)
        XCTAssertEqual(
            warnings, ["an object at byte 15 is larger than 4096 bytes: keys are not sorted from there on"])
    }

    // MARK: - JSON: a transfer that stops short

    func testAbandonWritesTheFormattedPartAndTheRestAsReceived() throws {
        let input = Array(("[" + (0..<40_000).map { "\"item\($0)\"" }.joined(separator: ", ")).utf8)
        let sink = CollectingSink()
        let formatter = JSONStreamFormatter(options: JSONFormatOptions(), sink: sink)
        try input.withUnsafeBytes { try formatter.consume($0) }
        try formatter.abandon()
        let shown = sink.bytes.filter { $0 != 0x20 && $0 != 0x0A }
        XCTAssertEqual(shown, input.filter { $0 != 0x20 })
        XCTAssertEqual(formatter.warnings, [])
    }

    // MARK: - XML

    func testXMLDeeperThanTheLimitShowsTheRestAsReceived() throws {
        let levels = 5000
        let input = Array((String(repeating: "<a>", count: levels) + String(repeating: "</a>", count: levels)).utf8)
        let (output, warnings) = try xml(input, chunk: 16 * 1024)
        XCTAssertLessThan(output.count, 2 * 1024 * 1024)
        XCTAssertEqual(
            warnings, [
                "XML nested deeper than the limit (\(depth) levels; --max-depth raises it); the rest is shown as received"
            ])
    }

    func testXMLAtTheLimitIsFormatted() throws {
        let input = Array((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8)
        XCTAssertEqual(try xml(input).1, [])
    }

    func testBillionLaughsStopsAtLibxml2sAmplificationLimit() throws {
        var declarations = "<!ENTITY lol0 \"lol\">\n"
        for level in 1..<10 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        let input = Array(
            ("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n" + declarations + "]>\n<lolz>&lol9;</lolz>\n").utf8)
        let started = ContinuousClock.now
        let (output, warnings) = try xml(input)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
        XCTAssertEqual(output, input)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].hasPrefix("malformed XML ("), warnings[0])
    }

    func testMalformedXMLAfterFlushDoesNotRepeatText() throws {
        let input = Array(("<r>" + String(repeating: "<a>y</a>", count: 60_000) + "<a>x</b></r>").utf8)
        let (output, warnings) = try xml(input, chunk: 16 * 1024)
        XCTAssertTrue(String(decoding: output.suffix(20), as: UTF8.self).hasSuffix("\n  <a>x</b></r>"))
        XCTAssertEqual(warnings.count, 1)
        let cdata = Array(("<r>" + String(repeating: "<a>y</a>", count: 60_000) + "<a><![CDATA[x]]></b></r>").utf8)
        let (cdataOutput, _) = try xml(cdata, chunk: 16 * 1024)
        XCTAssertTrue(String(decoding: cdataOutput.suffix(40), as: UTF8.self).hasSuffix("<a><![CDATA[x]]></b></r>"))
    }

    func testInternalSubsetIsKept() throws {
        let input = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x \"hello\">\n<!-- note -->]>\n<r>&x;</r>"
        let (output, warnings) = try xml(Array(input.utf8))
        XCTAssertEqual(String(decoding: output, as: UTF8.self), input + "\n")
        XCTAssertEqual(warnings, [])
        // A subset longer than libxml2 keeps in its buffer comes from the formatter's own input.
        let entities = (0..<200).map { "<!ENTITY e\($0) \"value \($0)\">" }.joined(separator: "\n")
        let long = "<!DOCTYPE r [\n" + entities + "\n]>\n<r>&e1;</r>"
        let (longOutput, longWarnings) = try xml(Array(long.utf8), chunk: 100)
        XCTAssertEqual(String(decoding: longOutput, as: UTF8.self), long + "\n")
        XCTAssertEqual(longWarnings, [])
    }

    func testCommentColourIsClosedAtEachLineEnd() throws {
        var colors = SyntaxColors()
        colors.comment = StaticBytes("\u{1B}[90m")
        colors.reset = StaticBytes("\u{1B}[0m")
        let sink = CollectingSink()
        try feed(
            Array("<r><!--one\ntwo--></r>".utf8),
            to: XMLStreamFormatter(options: XMLFormatOptions(colors: colors), sink: sink))
        XCTAssertEqual(
            String(decoding: sink.bytes, as: UTF8.self),
            "<r>\n  \u{1B}[90m<!--one\u{1B}[0m\n\u{1B}[90mtwo-->\u{1B}[0m\n</r>\n")
    }

    // MARK: - Binary property lists

    /// A binary list of `count` objects where object i is [i+1, i+1] and the last is "x".
    private func sharedChildren(_ count: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for index in 0..<(count - 1) {
            offsets.append(bytes.count)
            bytes += [0xA2, UInt8(index + 1), UInt8(index + 1)]
        }
        offsets.append(bytes.count)
        bytes += [0x51, UInt8(ascii: "x")]
        let table = bytes.count
        for offset in offsets { bytes.append(UInt8(offset)) }
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return bytes
    }

    func testSharedChildrenStopAtTheBudget() throws {
        for count in [20, 60] {
            let started = ContinuousClock.now
            XCTAssertThrowsError(try BinaryPropertyListDecoder.decode(sharedChildren(count))) { error in
                XCTAssertTrue("\(error)".contains("objects shared by reference"), "\(error)")
            }
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
        }
        // Few levels stay within the budget.
        XCTAssertNoThrow(try BinaryPropertyListDecoder.decode(sharedChildren(8)))
    }

    /// `objects`, an offset table of `offsetSize`-byte entries and a trailer (one object, the top).
    private func binaryPropertyList(objects: [UInt8], offsets: [UInt8], offsetSize: UInt8, referenceSize: UInt8)
        -> [UInt8]
    {
        var bytes = Array("bplist00".utf8) + objects
        let table = UInt8(bytes.count)
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        bytes += [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, table]
        return bytes
    }

    func testOffsetsAndReferencesBeyondIntAreRefusedNotTrapped() throws {
        // An 8-byte offset of 2^64-1 (found by the fuzzer: it trapped converting to Int).
        let offset = binaryPropertyList(
            objects: [0x08], offsets: Array(repeating: 0xFF, count: 8), offsetSize: 8, referenceSize: 1)
        XCTAssertThrowsError(try BinaryPropertyListDecoder.decode(offset)) { error in
            XCTAssertTrue("\(error)".contains("out of range"), "\(error)")
        }
        // An array and a dictionary whose 8-byte references are 2^64-1.
        for marker: UInt8 in [0xA1, 0xD1] {
            let references = marker == 0xA1 ? 1 : 2
            let container = binaryPropertyList(
                objects: [marker] + Array(repeating: 0xFF, count: 8 * references), offsets: [0x08], offsetSize: 1,
                referenceSize: 8)
            XCTAssertThrowsError(try BinaryPropertyListDecoder.decode(container)) { error in
                XCTAssertTrue("\(error)".contains("out of range"), "\(error)")
            }
        }
    }

    func testSharedChildrenFallBackToTheBodyWithOneWarning() throws {
        let body = sharedChildren(60)
        let sink = CollectingSink()
        let formatter = PropertyListFormatter(
            display: .xml, xml: XMLFormatOptions(), json: JSONFormatOptions(), sink: sink)
        let warnings = try feed(body, to: formatter)
        XCTAssertEqual(sink.bytes, body)
        XCTAssertEqual(warnings.count, 1)
    }

    func testNestingDeeperThanTheLimitIsRefused() throws {
        // Object i is [i+1]: one chain, `levels` arrays deep.
        func chain(_ levels: Int) -> [UInt8] { BinaryPropertyListChain.bytes(levels) }
        XCTAssertNoThrow(try BinaryPropertyListDecoder.decode(chain(depth)))
        XCTAssertThrowsError(try BinaryPropertyListDecoder.decode(chain(depth + 1))) { error in
            XCTAssertEqual("\(error)", "nested deeper than the limit (\(depth) levels; --max-depth raises it)")
        }
        // At the limit the XML display still formats it (two elements deeper than the list).
        let sink = CollectingSink()
        let formatter = PropertyListFormatter(
            display: .xml, xml: XMLFormatOptions(), json: JSONFormatOptions(), sink: sink)
        XCTAssertEqual(try feed(chain(depth), to: formatter), [])
    }
}
