import AFKit
import XCTest

/// The JSONPath engine beyond the compliance suite: error positions, limits, I-Regexp details.
final class JSONPathQueryTests: XCTestCase {
    private func values(_ query: String, _ document: String) throws -> String {
        let nodes = try JSONPathQuery(parsing: query).evaluate(on: try JSONParser.parse(document))
        return try JSONWriter.encodeToString(.array(nodes.map(\.value)))
    }

    private func error(_ query: String, limits: JSONPathLimits = .standard) -> JSONPathError? {
        do {
            _ = try JSONPathQuery(parsing: query, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    func testErrorsNameThePositionAndTheProblem() {
        XCTAssertEqual(error("$.a[?@.b == ]")?.description, "expected a value, a query or a function at character 13")
        XCTAssertEqual(error("$[01]")?.description, "leading zeros are not allowed at character 3")
        XCTAssertEqual(error("a")?.description, "expected '$' at the start of the query at character 1")
        XCTAssertEqual(error("$[?length(@.*) > 1]")?.description, "a non-singular query is not a value at character 11")
        XCTAssertEqual(error("$[?foo(@)]")?.description, "unknown function 'foo' at character 4")
        XCTAssertEqual(error("$.a ")?.description, "unexpected white space at character 4")
        XCTAssertEqual(error("$[?length(@)]")?.description, "length() returns a value: compare it at character 4")
        XCTAssertEqual(error("$[9007199254740992]")?.reason, "integer out of range (at most 2^53 - 1 in size)")
    }

    func testQueryLengthAndNestingAreBounded() {
        XCTAssertEqual(error("$" + String(repeating: ".a", count: 5000))?.reason, "query longer than 8192 characters")
        let deep = "$[?" + String(repeating: "(", count: 100) + "@" + String(repeating: ")", count: 100) + "]"
        XCTAssertEqual(error(deep)?.reason, "query nested deeper than 64 levels")
        let filters = "$" + String(repeating: "[?@", count: 100) + String(repeating: "]", count: 100)
        XCTAssertEqual(error(filters)?.reason, "query nested deeper than 64 levels")
        XCTAssertNil(error("$" + String(repeating: "[?@", count: 20) + String(repeating: "]", count: 20)))
    }

    func testResultCountAndStepsAreBounded() throws {
        var limits = JSONPathLimits()
        limits.maximumNodes = 100
        let document = try JSONParser.parse("[" + Array(repeating: "[1,2,3]", count: 50).joined(separator: ",") + "]")
        XCTAssertThrowsError(try JSONPathQuery(parsing: "$..*").evaluate(on: document, limits: limits)) {
            XCTAssertEqual(($0 as? JSONPathLimitError)?.description, "the query selects more than 100 nodes")
        }
        limits = JSONPathLimits()
        limits.maximumSteps = 1000
        XCTAssertThrowsError(try JSONPathQuery(parsing: "$[?count($..*) > 0]").evaluate(on: document, limits: limits))
        XCTAssertEqual(try JSONPathQuery(parsing: "$[0][*]").evaluate(on: document, limits: limits).count, 3)
    }

    func testNormalizedPathsEscapeNames() throws {
        let nodes = try JSONPathQuery(parsing: "$.*").evaluate(on: try JSONParser.parse(#"{"a'b\\\n\u0001":1}"#))
        XCTAssertEqual(nodes.map(\.normalizedPath), [#"$['a\'b\\\n\u0001']"#])
    }

    func testNumbersCompareByValue() throws {
        XCTAssertEqual(try values("$[?@ == 1]", "[1, 1.0, 10e-1, 2, \"1\"]"), "[1,1.0,10e-1]")
        XCTAssertEqual(try values("$[?@ < 1e400]", "[1, -5]"), "[1,-5]")
    }

    func testIRegexp() throws {
        XCTAssertTrue(try IRegexp("[a-c]+\\p{Lu}?").matches("abcZ"))
        XCTAssertFalse(try IRegexp("[a-c]+").matches("abcd"))
        XCTAssertTrue(try IRegexp("b.d").contains("abxd"))
        XCTAssertFalse(try IRegexp("a.b").matches("a\nb"))
        XCTAssertTrue(try IRegexp("x{2,3}|\\P{L}").contains("9"))
        XCTAssertTrue(try IRegexp("[^\\p{N}-]").matches("é"))
        for invalid in ["(", "a{2,1}", "\\d", "[z-a]", "a**", "\\p{Xx}", "[b-]a]"] {
            XCTAssertThrowsError(try IRegexp(invalid), invalid)
        }
        // Expanded repetitions are bounded; catastrophic patterns run in linear time.
        XCTAssertThrowsError(try IRegexp("(a{1000}){1000}"))
        let evil = try IRegexp("(a*)*b")
        XCTAssertFalse(evil.matches(String(repeating: "a", count: 20_000)))
    }
}
