import AFKit
import XCTest

/// Byte-exact vectors for the streaming JSON formatter: layout, exact strings and numbers,
/// colours, sorting, null removal, sequences and what happens to invalid input.
final class FormattingJSONTests: XCTestCase {
    private func format(
        _ input: String, _ options: JSONFormatOptions = JSONFormatOptions(), chunk: Int? = nil
    ) throws -> (String, [String]) {
        let result = try formatBytes(Array(input.utf8), options, chunk: chunk)
        return (String(decoding: result.0, as: UTF8.self), result.1)
    }

    private func formatBytes(
        _ input: [UInt8], _ options: JSONFormatOptions, chunk: Int? = nil
    ) throws -> ([UInt8], [String]) {
        let sink = CollectingSink()
        let formatter = JSONStreamFormatter(options: options, sink: sink)
        let warnings = try feed(input, to: formatter, chunk: chunk)
        return (sink.bytes, warnings)
    }

    func testNestedDocumentIsIndentedByFourWithKeyOrderKept() throws {
        let (output, warnings) = try format(#"{"b":1,"a":[true,false,null],"c":{"d":"e"}}"#)
        XCTAssertEqual(
            output,
            "{\n    \"b\": 1,\n    \"a\": [\n        true,\n        false,\n        null\n    ],\n"
                + "    \"c\": {\n        \"d\": \"e\"\n    }\n}\n")
        XCTAssertEqual(warnings, [])
    }

    func testEmptyContainersStayOnOneLine() throws {
        XCTAssertEqual(
            try format(#"{"a":{},"b":[ ],"c":[{}]}"#).0,
            "{\n    \"a\": {},\n    \"b\": [],\n    \"c\": [\n        {}\n    ]\n}\n")
        XCTAssertEqual(try format("[]").0, "[]\n")
        XCTAssertEqual(try format(" { \n } ").0, "{}\n")
    }

    func testStringsAndEscapesAreCopiedExactly() throws {
        let input = #"{"é":"caf\u00e9 \/ \"q\" \\ 東京 \ud83d\ude00"}"#
        XCTAssertEqual(try format(input).0, "{\n    \"é\": \"caf\\u00e9 \\/ \\\"q\\\" \\\\ 東京 \\ud83d\\ude00\"\n}\n")
    }

    func testNumbersAreCopiedExactly() throws {
        let input = "[123456789012345678901234567890,1.0e+400,-0.0000001E-5,0,-0,1.50]"
        XCTAssertEqual(
            try format(input).0,
            "[\n    123456789012345678901234567890,\n    1.0e+400,\n    -0.0000001E-5,\n    0,\n    -0,\n    1.50\n]\n")
    }

    func testTopLevelScalars() throws {
        XCTAssertEqual(try format("42").0, "42\n")
        XCTAssertEqual(try format(" \"x\" ").0, "\"x\"\n")
        XCTAssertEqual(try format("null").0, "null\n")
    }

    func testIndentWidth() throws {
        XCTAssertEqual(
            try format("[1,[2]]", JSONFormatOptions(layout: .indented(2))).0, "[\n  1,\n  [\n    2\n  ]\n]\n")
        XCTAssertEqual(try format("[1,[2]]", JSONFormatOptions(layout: .indented(0))).0, "[\n1,\n[\n2\n]\n]\n")
    }

    func testDeepNesting() throws {
        let depth = FormattingLimits.maximumDepth
        let input = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var expected = ""
        for level in 0..<(depth - 1) { expected += String(repeating: " ", count: level * 2) + "[\n" }
        expected += String(repeating: " ", count: (depth - 1) * 2) + "[]\n"
        for level in stride(from: depth - 2, through: 0, by: -1) {
            expected += String(repeating: " ", count: level * 2) + "]\n"
        }
        XCTAssertEqual(try format(input, JSONFormatOptions(layout: .indented(2))).0, expected)
    }

    func testChunkBoundariesDoNotMatter() throws {
        let input = #"{"key":"va\"l\u00e9ue","n":-12.5e+3,"t":true,"list":[null,{},[1,2]]}"#
        let whole = try format(input)
        for size in [1, 2, 3, 7] {
            let chunked = try format(input, chunk: size)
            XCTAssertEqual(chunked.0, whole.0, "chunk \(size)")
            XCTAssertEqual(chunked.1, [])
        }
    }

    func testCompactLayout() throws {
        XCTAssertEqual(
            try format(#" { "a" : [ 1 , "x y" ] , "b" : { } } "#, JSONFormatOptions(layout: .compact)).0,
            #"{"a":[1,"x y"],"b":{}}"#)
    }

    func testColoursAreWrappedAroundTokens() throws {
        var colors = SyntaxColors()
        colors.key = StaticBytes("<K>")
        colors.string = StaticBytes("<S>")
        colors.number = StaticBytes("<N>")
        colors.boolean = StaticBytes("<B>")
        colors.null = StaticBytes("<0>")
        colors.reset = StaticBytes("</>")
        let input = #"{"a":"s","b":[1,true,null]}"#
        XCTAssertEqual(
            try format(input, JSONFormatOptions(colors: colors)).0,
            "{\n    <K>\"a\"</>: <S>\"s\"</>,\n    <K>\"b\"</>: [\n        <N>1</>,\n        <B>true</>,\n        <0>null</>\n    ]\n}\n"
        )
        XCTAssertEqual(
            try format("{\"a\": 1}\n", JSONFormatOptions(layout: .preserved, colors: colors)).0,
            "{<K>\"a\"</>: <N>1</>}\n")
    }

    func testSortedKeys() throws {
        let input = #"{"b":1,"a":{"d":2,"c":[{"z":1,"y":2}]},"A":"x","\u0061a":0}"#
        XCTAssertEqual(
            try format(input, JSONFormatOptions(layout: .compact, sortsKeys: true)).0,
            #"{"A":"x","a":{"c":[{"y":2,"z":1}],"d":2},"\u0061a":0,"b":1}"#)
        XCTAssertEqual(
            try format(#"[{"b":1,"a":2},3,{"d":{"f":1,"e":2}}]"#, JSONFormatOptions(layout: .compact, sortsKeys: true))
                .0,
            #"[{"a":2,"b":1},3,{"d":{"e":2,"f":1}}]"#)
        XCTAssertEqual(
            try format(#"{"b":1,"a":2}"#, JSONFormatOptions(sortsKeys: true)).0, "{\n    \"a\": 2,\n    \"b\": 1\n}\n")
    }

    func testDropNullsRemovesMembersAndElementsRecursively() throws {
        let input = #"{"a":null,"b":[1,null,{"c":null,"d":2}],"e":{"f":null},"g":[null]}"#
        XCTAssertEqual(
            try format(input, JSONFormatOptions(layout: .compact, dropsNulls: true)).0,
            #"{"b":[1,{"d":2}],"e":{},"g":[]}"#)
        XCTAssertEqual(try format("null", JSONFormatOptions(dropsNulls: true)).0, "null\n")
        XCTAssertEqual(
            try format(#"{"x":null,"y":"n"}"#, JSONFormatOptions(dropsNulls: true)).0, "{\n    \"y\": \"n\"\n}\n")
        XCTAssertEqual(
            try format(#"{"b":null,"a":1}"#, JSONFormatOptions(layout: .compact, sortsKeys: true, dropsNulls: true)).0,
            #"{"a":1}"#)
    }

    func testSequenceOfValues() throws {
        let input = "{\"a\":1}\n{\"b\":[2]}\n"
        XCTAssertEqual(
            try format(input, JSONFormatOptions(allowsSequence: true)).0,
            "{\n    \"a\": 1\n}\n{\n    \"b\": [\n        2\n    ]\n}\n")
    }

    func testEmptyBodyAndSingleSpaceAreNoObjectAndNoError() throws {
        XCTAssertEqual(try format("").0, "")
        XCTAssertEqual(try format("").1, [])
        XCTAssertEqual(try format(" ").0, " ")
        XCTAssertEqual(try format(" ").1, [])
    }

    func testTruncatedInputIsPrintedAsReceived() throws {
        let (output, warnings) = try format(#"{"a": [1, 2"#)
        XCTAssertEqual(output, #"{"a": [1, 2"#)
        XCTAssertEqual(warnings, ["invalid JSON at byte 11: unexpected end of JSON; the rest is shown as received"])
    }

    func testInvalidInputIsPrintedAsReceived() throws {
        let cases: [(String, String)] = [
            (#"{"a": tru}"#, "invalid JSON at byte 9: invalid literal; the rest is shown as received"),
            ("[1,]", "invalid JSON at byte 3: expected a value; the rest is shown as received"),
            ("[01]", "invalid JSON at byte 2: expected ',' or a closing bracket; the rest is shown as received"),
            (
                "{\"a\":1} x",
                "invalid JSON at byte 8: unexpected data after the JSON value; the rest is shown as received"
            ),
            ("[1}", "invalid JSON at byte 2: expected ']'; the rest is shown as received"),
            ("\"a\tb\"", "invalid JSON at byte 2: control character in string; the rest is shown as received"),
            (#"["\x"]"#, "invalid JSON at byte 3: invalid escape in string; the rest is shown as received"),
            ("<html>", "invalid JSON at byte 0: expected a value; the rest is shown as received"),
        ]
        for (input, warning) in cases {
            let (output, warnings) = try format(input)
            XCTAssertEqual(output, input)
            XCTAssertEqual(warnings, [warning])
            XCTAssertEqual(try format(input, chunk: 1).0, input)
        }
    }

    func testInvalidSortedObjectIsPrintedAsReceived() throws {
        let input = #"{"b":1,"a" 2}"#
        let (output, warnings) = try format(input, JSONFormatOptions(sortsKeys: true))
        XCTAssertEqual(output, input)
        XCTAssertEqual(warnings, ["invalid JSON at byte 11: expected ':'; the rest is shown as received"])
    }

    func testErrorAfterOutputWasWrittenKeepsTheFormattedPartAndCopiesTheRest() throws {
        let count = 100_000
        let input = "[" + String(repeating: "1,", count: count) + "x]  tail"
        // The comma was read but not yet written: the rest as received starts with it.
        let expected = "[\n" + String(repeating: "    1,\n", count: count - 1) + "    1" + ",x]  tail"
        let (output, warnings) = try format(input, chunk: 4096)
        XCTAssertEqual(output, expected)
        XCTAssertEqual(
            warnings, ["invalid JSON at byte \(1 + 2 * count): expected a value; the rest is shown as received"])
    }

    func testSniffedBodiesDoNotWarn() throws {
        let (output, warnings) = try format("[INFO] started", JSONFormatOptions(reportsErrors: false))
        XCTAssertEqual(output, "[INFO] started")
        XCTAssertEqual(warnings, [])
    }
}
