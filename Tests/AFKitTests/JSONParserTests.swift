import AFKit
import XCTest

/// JSON parser and writer: round trips, exact literals, member order, escapes and error offsets.
final class JSONParserTests: XCTestCase {
    private func roundTrip(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try JSONWriter.encodeToString(JSONParser.parse(text))
    }

    private func assertParseError(
        _ text: String, _ description: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try JSONParser.parse(text), file: file, line: line) { error in
            XCTAssertEqual("\(error)", description, file: file, line: line)
        }
    }

    func testCompactRoundTripKeepsOrder() throws {
        XCTAssertEqual(
            try roundTrip(" { \"b\" : 1 ,\n\t\"a\" : [ true , false , null ] , \"c\" : { } , \"d\" : [ ] } "),
            "{\"b\":1,\"a\":[true,false,null],\"c\":{},\"d\":[]}")
    }

    func testParsedStructure() throws {
        XCTAssertEqual(
            try JSONParser.parse("{\"a\":[1,\"x\",null,{\"b\":false}]}"),
            object(["a": .array([num("1"), str("x"), .null, object(["b": .bool(false)])])]))
    }

    func testNumbersKeptExactly() throws {
        XCTAssertEqual(try JSONParser.parse("123456789012345678901234567890"), num("123456789012345678901234567890"))
        XCTAssertEqual(try JSONParser.parse("1e400"), num("1e400"))
        XCTAssertEqual(
            try roundTrip("[123456789012345678901234567890,1e400,-0.0,1E+2,0.10,-5e-7]"),
            "[123456789012345678901234567890,1e400,-0.0,1E+2,0.10,-5e-7]")
    }

    func testDuplicateKeysLastWinsInPlace() throws {
        XCTAssertEqual(
            try JSONParser.parse("{\"a\":1,\"b\":2,\"a\":3}"), object(["a": num("3"), "b": num("2")]))
    }

    func testUnicodeEscapesAndRawUTF8() throws {
        XCTAssertEqual(try JSONParser.parse("\"\\u00e9\\ud83d\\ude00\""), str("é😀"))
        XCTAssertEqual(try roundTrip("\"\\u00E9\\uD83D\\uDE00 ü\""), "\"é😀 ü\"")
    }

    func testEscapesRoundTrip() throws {
        XCTAssertEqual(try JSONParser.parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""), str("\"\\/\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(try roundTrip("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""), "\"\\\"\\\\/\\b\\f\\n\\r\\t\"")
        XCTAssertEqual(try roundTrip("\"\\u0001\\u001F\\u007f\""), "\"\\u0001\\u001f\u{7F}\"")
    }

    func testTopLevelScalarsAndByteOrderMark() throws {
        XCTAssertEqual(try JSONParser.parse(" 1 "), num("1"))
        XCTAssertEqual(try JSONParser.parse("null"), .null)
        XCTAssertEqual(try JSONParser.parse("\"s\""), str("s"))
        XCTAssertEqual(try JSONParser.parse(bytes: [0xEF, 0xBB, 0xBF] + bytes("[true]")), .array([.bool(true)]))
    }

    func testSyntaxErrorOffsets() {
        assertParseError("{\"a\":1 \"b\":2}", "expected ',' or '}' at offset 7")
        assertParseError("[1 2]", "expected ',' or ']' at offset 3")
        assertParseError("[1,]", "expected a value at offset 3")
        assertParseError("{\"a\":1,}", "expected a string key at offset 7")
        assertParseError("{\"a\" 1}", "expected ':' at offset 5")
        assertParseError("{a:1}", "expected a string key at offset 1")
        assertParseError("", "expected a value at offset 0")
        assertParseError("NaN", "expected a value at offset 0")
        assertParseError("[Infinity]", "expected a value at offset 1")
        assertParseError("tru", "expected a value at offset 0")
        assertParseError("[1] x", "expected end of input at offset 4")
        assertParseError("{\"a\":1", "expected ',' or '}' at offset 6")
    }

    func testNumberErrors() {
        assertParseError("01", "leading zeros are not allowed at offset 1")
        assertParseError("1.", "expected a digit at offset 2")
        assertParseError("-", "expected a digit at offset 1")
        assertParseError("1e+", "expected a digit at offset 3")
        assertParseError(".5", "expected a value at offset 0")
        assertParseError("+1", "expected a value at offset 0")
    }

    func testStringErrors() {
        assertParseError("\"abc", "unterminated string at offset 4")
        assertParseError("\"\\x\"", "invalid escape at offset 1")
        assertParseError("\"\\u12G4\"", "invalid unicode escape at offset 1")
        assertParseError("\"\\ud800\"", "unpaired surrogate at offset 1")
        assertParseError("\"\\udc00\"", "unpaired surrogate at offset 1")
        assertParseError("\"\\ud800\\u0041\"", "unpaired surrogate at offset 1")
        XCTAssertEqual(
            try JSONParser.parse(bytes: Array(#"["\ud800", "\udc00\ud83d\ude00"]"#.utf8), replacingLoneSurrogates: true),
            .array([.string("\u{FFFD}"), .string("\u{FFFD}\u{1F600}")]))
        assertParseError("\"a\nb\"", "control character in string at offset 2")
        XCTAssertThrowsError(try JSONParser.parse(bytes: [0x22, 0xC3, 0x28, 0x22])) { error in
            XCTAssertEqual(error as? JSONParseError, JSONParseError(offset: 1, reason: "invalid utf-8"))
        }
        XCTAssertThrowsError(try JSONParser.parse(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22])) { error in
            XCTAssertEqual("\(error)", "invalid utf-8 at offset 1")
        }
    }

    func testDepthLimit() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNoThrow(try JSONParser.parse(deepest))
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        assertParseError(tooDeep, "nesting deeper than 512 levels at offset 512")
        let objects = String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600)
        assertParseError(objects, "nesting deeper than 512 levels at offset 2560")
    }

    func testCharacterOffsetForCaret() {
        let text = "{\"é\":1 x}"
        XCTAssertThrowsError(try JSONParser.parse(text)) { error in
            guard let error = error as? JSONParseError else { return XCTFail("not a JSONParseError") }
            XCTAssertEqual(error.description, "expected ',' or '}' at offset 8")
            XCTAssertEqual(error.characterOffset(in: text), 7)
        }
    }

    func testWriterEscapingAndOrder() throws {
        let value = object(["url": str("http://x/y"), "q": str("say \"hi\"\\"), "z": .array([]), "a": object([:])])
        XCTAssertEqual(
            try JSONWriter.encodeToString(value),
            "{\"url\":\"http://x/y\",\"q\":\"say \\\"hi\\\"\\\\\",\"z\":[],\"a\":{}}")
    }

    func testWriterRefusesInvalidNumberLiteral() {
        assertSerializationError(
            try JSONWriter.encode(.array([num("NaN")])), .invalidJSONNumber("NaN"),
            description: "parameters are not valid JSON: \"NaN\" is not a number")
        XCTAssertTrue(JSONParser.isValidNumber("-0.5e+10"))
        XCTAssertFalse(JSONParser.isValidNumber("1 "))
        XCTAssertFalse(JSONParser.isValidNumber(""))
    }

    func testRepeatedKeysReplaceInPlaceInSmallAndLargeObjects() throws {
        let small = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
        XCTAssertEqual(try JSONWriter.encodeToString(small), #"{"a":3,"b":2}"#)
        let keys = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let large = try JSONParser.parse("{" + keys + #","k3":"x","k39":"y","k20":"z"}"#)
        let members = try XCTUnwrap(large.objectMembers)
        XCTAssertEqual(members.count, 40)
        XCTAssertEqual(members[3].value, .string("x"))
        XCTAssertEqual(members[20].value, .string("z"))
        XCTAssertEqual(members[39].value, .string("y"))
        // Canonically equivalent keys stay distinct (bytes differ).
        XCTAssertEqual(try JSONParser.parse("{\"\u{e9}\":1,\"e\u{301}\":2}").objectMembers?.count, 2)
    }

    func testStringsMixPlainRunsWithEscapesAndUnicode() throws {
        XCTAssertEqual(try JSONParser.parse(#""abc\"d\u00e9f""#), .string("abc\"d\u{e9}f"))
        XCTAssertEqual(try JSONParser.parse("\"plain caf\u{e9} tail\""), .string("plain caf\u{e9} tail"))
    }
}
