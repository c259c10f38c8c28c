import AFKit
import Foundation
import XCTest

/// `--jsonpath` over a streamed body: the same matches as evaluating the parsed document.
final class JSONPathStreamTests: XCTestCase {
    private func stream(_ query: String, _ body: String, chunkSize: Int = 1 << 16) throws -> String {
        let output = try JSONPathStreamFilter.run(try JSONPathQuery(parsing: query), on: Array(body.utf8), chunkSize: chunkSize)
        return String(decoding: output, as: UTF8.self)
    }

    /// Every valid query of the compliance suite, streamed over its document (compact and
    /// indented, whole and byte by byte), prints what the in-memory evaluation selects; with
    /// `..` in document order, so the lines are compared as a multiset there.
    func testStreamingAgreesWithEvaluationOnTheComplianceSuite() throws {
        let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Conformance/jsonpath-compliance-test-suite/cts.json")
        guard case .object(let top) = try JSONParser.parse(bytes: Array(try Data(contentsOf: suite))),
            case .array(let cases)? = top.first(where: { $0.key == "tests" })?.value
        else { return XCTFail("cts.json has no tests array") }
        var checked = 0
        for testCase in cases {
            guard case .object(let fields) = testCase,
                case .string(let selector)? = fields.first(where: { $0.key == "selector" })?.value,
                let document = fields.first(where: { $0.key == "document" })?.value,
                let query = try? JSONPathQuery(parsing: selector)
            else { continue }
            let expected = try query.evaluate(on: document).map { String(decoding: try JSONWriter.encode($0.value), as: UTF8.self) }
            let compact = try JSONWriter.encode(document)
            let indented = try JSONStreamFormatter.format(compact, options: JSONFormatOptions(layout: .indented(2))).output
            for (body, chunkSize, repeats) in [(compact, 1 << 16, 1), (indented, 1, 1), (compact + [0x0A] + compact, 3, 2)] {
                let output = try JSONPathStreamFilter.run(query, on: body, chunkSize: chunkSize)
                var lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
                var wanted = Array([[String]](repeating: expected, count: repeats).joined())
                if selector.contains("..") {
                    lines.sort()
                    wanted.sort()
                }
                XCTAssertEqual(lines, wanted, "\(selector) on \(String(decoding: body, as: UTF8.self))")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 400)
    }

    func testNDJSONIsQueriedValueByValue() throws {
        XCTAssertEqual(try stream("$.id", "{\"id\":1}\n{\"id\": \"two\"}\n{\"x\":3}\n{\"id\":[4, 5]}\n"), "1\n\"two\"\n[4,5]\n")
        XCTAssertEqual(try stream("$", "1 2\n[ true ]", chunkSize: 1), "1\n2\n[true]\n")
        XCTAssertEqual(try stream("$[-1]", "[1,2]\n[3]"), "2\n3\n")
    }

    func testMatchesAreCompactAndKeepTheirText() throws {
        XCTAssertEqual(try stream("$.a", "\u{FEFF}{ \"a\" : { \"b\" : [ 1.50 , \"x y\\n\" , null ] } }"), "{\"b\":[1.50,\"x y\\n\",null]}\n")
        XCTAssertEqual(try stream("$['k\\u00e9']", "{\"k\\u00e9\":1,\"k\":2}"), "1\n")
    }

    func testInvalidBodiesAreErrorsNamingTheOffset() {
        for (body, message) in [
            ("{\"a\" 1}", "the body is not valid JSON: expected ':' at offset 5"),
            ("[1,2", "the body is not valid JSON: the body ended inside a JSON value at offset 4"),
            ("<html>", "the body is not valid JSON: expected a value at offset 0"),
        ] {
            XCTAssertThrowsError(try stream("$[0]", body)) { XCTAssertEqual(($0 as? JSONPathBodyError)?.description, message) }
        }
        XCTAssertThrowsError(try stream("$[?@.a]", "[{\"a\":tru}]")) {
            XCTAssertEqual(($0 as? JSONPathBodyError)?.failureClass, .responseRejected)
        }
    }

    /// Nesting past the parser's limit is told the same way by every query, whether it descends
    /// into the body, holds a value, copies one or skips it: the limit, not invalid JSON, and
    /// not silence.
    func testABodyNestedPastTheLimitIsTheSameErrorForEveryQuery() throws {
        func nested(_ depth: Int) -> String { #"{"a":"# + String(repeating: "[", count: depth - 1) + "1"
            + String(repeating: "]", count: depth - 1) + "}" }
        let queries = ["$..a", "$.a", "$.b", "$", "$.a[0]", "$..*", "$[?@.x]", "$.a[-1]", "$..[0]"]
        for query in queries {
            XCTAssertNoThrow(try stream(query, nested(512)), query)
            for body in [nested(513), String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)] {
                XCTAssertThrowsError(try stream(query, body), query) { error in
                    let error = error as? JSONPathBodyError
                    XCTAssertEqual(error?.failureClass, .limitExceeded, query)
                    XCTAssertTrue(
                        error?.description.hasPrefix(
                            "the body is nested deeper than the limit (512 levels; --max-depth raises it) at offset ")
                            == true, "\(query): \(error?.description ?? "no error")")
                }
            }
        }
    }

    func testHeldValuesAreBounded() throws {
        var limits = JSONPathStreamLimits()
        limits.maximumHeldBytes = 100
        let big = "[" + Array(repeating: "1", count: 200).joined(separator: ",") + "]"
        // Streamed: a copied match is never held, whatever its size.
        XCTAssertEqual(try JSONPathStreamFilter.run(try JSONPathQuery(parsing: "$.a"), on: Array("{\"a\":\(big)}".utf8), limits: limits).count, big.count + 1)
        // Not streamable (a negative index needs the length): the whole value is held.
        XCTAssertThrowsError(try JSONPathStreamFilter.run(try JSONPathQuery(parsing: "$[-1]"), on: Array(big.utf8), limits: limits)) {
            XCTAssertEqual(($0 as? JSONPathBodyError)?.failureClass, .limitExceeded)
        }
    }
}
