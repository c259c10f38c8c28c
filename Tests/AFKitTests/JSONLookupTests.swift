import AFKit
import XCTest

/// `JSONParser.value(at:inBytes:)`: the one value a singular JSONPath query selects, found by a
/// scan that checks the whole text as the parser does and builds nothing else.
final class JSONLookupTests: XCTestCase {
    private func lookup(_ path: [JSONPathElement], _ text: String) throws -> JSONValue? {
        try JSONParser.value(at: path, inBytes: Array(text.utf8))
    }

    func testFindsNamesAndIndicesAndBuildsTheValueFound() throws {
        let text = #" {"a": {"b": [10, {"c": "x"}, [true, null]], "d": 1.5e3}, "e": "\u00e9"} "#
        XCTAssertEqual(try lookup([.name("a"), .name("d")], text), .number("1.5e3"))
        XCTAssertEqual(try lookup([.name("a"), .name("b"), .index(1), .name("c")], text), .string("x"))
        XCTAssertEqual(try lookup([.name("a"), .name("b"), .index(-1)], text), try JSONParser.parse("[true,null]"))
        XCTAssertEqual(try lookup([.name("a"), .name("b"), .index(-3)], text), .number("10"))
        XCTAssertEqual(try lookup([.name("e")], text), .string("\u{e9}"))
        XCTAssertEqual(try lookup([], text), try JSONParser.parse(text))
    }

    func testAPathThatLeadsNowhereIsNil() throws {
        let text = #"{"a": [1, 2], "s": "text", "o": {}}"#
        XCTAssertNil(try lookup([.name("b")], text))
        XCTAssertNil(try lookup([.name("a"), .index(2)], text))
        XCTAssertNil(try lookup([.name("a"), .index(-3)], text))
        XCTAssertNil(try lookup([.name("a"), .name("x")], text))
        XCTAssertNil(try lookup([.name("s"), .index(0)], text))
        XCTAssertNil(try lookup([.name("o"), .name("x")], text))
        XCTAssertNil(try lookup([.index(0)], text))
        XCTAssertNil(try lookup([.name("a")], "[]"))
    }

    func testARepeatedKeyGivesItsLastValueAsTheParserDoes() throws {
        XCTAssertEqual(try lookup([.name("a")], #"{"a":1,"b":2,"a":3}"#), .number("3"))
        // The last `a` has no `b`: nothing, though the first had one.
        XCTAssertNil(try lookup([.name("a"), .name("b")], #"{"a":{"b":1},"a":{"c":2}}"#))
    }

    func testKeysCompareAsDecodedBytes() throws {
        XCTAssertEqual(try lookup([.name("a\"b")], #"{"a\"b": 1}"#), .number("1"))
        XCTAssertEqual(try lookup([.name("\u{e9}")], #"{"\u00e9": 2}"#), .number("2"))
        // Canonically equivalent, but other bytes: not the same key.
        XCTAssertNil(try lookup([.name("e\u{301}")], "{\"\u{e9}\": 3}"))
    }

    /// Each text fails with the parser's own error, wherever the path leads.
    func testInvalidTextFailsWithTheParsersError() {
        let texts = [
            "", "{", #"{"a":1"#, #"{"a":1,}"#, #"{"a" 1}"#, "[1,2", "[1 2]", #"{"a":[1,2]} x"#, #"{"a":"\x"}"#,
            #"{"b":"\ud800"}"#, "{\"a\":\"\u{01}\"}", #"{"a":01}"#, "[tru]", #"{"a":{"b":[}}}"#, "{1:2}",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        let paths: [[JSONPathElement]] = [[], [.name("a")], [.name("a"), .index(0)], [.index(-1)], [.name("b")]]
        for text in texts {
            let expected: JSONParseError
            do {
                _ = try JSONParser.parse(text)
                XCTFail("\(text) parses")
                continue
            } catch {
                expected = error
            }
            for path in paths {
                XCTAssertThrowsError(try lookup(path, text), "\(text) at \(path)") { error in
                    XCTAssertEqual(error as? JSONParseError, expected, "\(text) at \(path)")
                }
            }
        }
    }

    /// Against the parser and the evaluator, query by query, on one document.
    func testAgreesWithTheEvaluatorOnSingularQueries() throws {
        let text = #"{"store":{"book":[{"title":"A","price":8.95},{"title":"B","tags":["x","y"]}],"bicycle":{"color":"red"}},"n":null,"t":true,"k":{"k":{"k":"deep"}}}"#
        let document = try JSONParser.parse(text)
        let queries = [
            "$", "$.store", "$.store.book[0].title", "$.store.book[1].tags[-1]", "$.store.book[-2].price",
            "$.store.book[2]", "$['store']['bicycle']['color']", "$.n", "$.t", "$.k.k.k", "$.k.k.k.k", "$.missing",
            "$.store.book.title", "$.t[0]",
        ]
        for text in queries {
            let query = try JSONPathQuery(parsing: text)
            let path = try XCTUnwrap(query.singularPath, text)
            XCTAssertEqual(try lookup(path, #" "# + textOf(document)), try query.values(in: document).first, text)
        }
        XCTAssertNil(try JSONPathQuery(parsing: "$..title").singularPath)
        XCTAssertNil(try JSONPathQuery(parsing: "$.store.book[*]").singularPath)
        XCTAssertNil(try JSONPathQuery(parsing: "$.store.book[0,1]").singularPath)
        XCTAssertNil(try JSONPathQuery(parsing: "$.store.book[0:1]").singularPath)
    }

    private func textOf(_ value: JSONValue) throws -> String {
        try JSONWriter.encodeToString(value)
    }
}
