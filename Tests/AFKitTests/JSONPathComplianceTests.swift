import AFKit
import Foundation
import XCTest

/// Runs every case of the RFC 9535 compliance suite (Tests/Conformance/jsonpath-compliance-test-suite):
/// a valid query's nodelist (values and normalized paths) must equal one of the allowed results,
/// an invalid one must fail to parse.
final class JSONPathComplianceTests: XCTestCase {
    private static let suite = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance/jsonpath-compliance-test-suite/cts.json")

    func testEveryComplianceCasePasses() throws {
        let data = try Data(contentsOf: Self.suite)
        guard case .object(let top) = try JSONParser.parse(bytes: Array(data)),
            case .array(let cases)? = top.first(where: { $0.key == "tests" })?.value
        else { return XCTFail("cts.json has no tests array") }
        var failures: [String] = []
        for testCase in cases {
            guard case .object(let fields) = testCase else { continue }
            func field(_ name: String) -> JSONValue? { fields.first { $0.key == name }?.value }
            guard case .string(let name)? = field("name"), case .string(let selector)? = field("selector") else { continue }
            if case .bool(true)? = field("invalid_selector") {
                if let query = try? JSONPathQuery(parsing: selector) {
                    failures.append("\(name): \(selector) parsed (\(query.segments.count) segments), expected an error")
                }
                continue
            }
            let query: JSONPathQuery
            do {
                query = try JSONPathQuery(parsing: selector)
            } catch {
                failures.append("\(name): \(selector) failed to parse: \(error)")
                continue
            }
            let nodes = try query.evaluate(on: field("document") ?? .null)
            var allowed: [(values: JSONValue, paths: JSONValue)] = []
            if let result = field("result"), let paths = field("result_paths") {
                allowed.append((result, paths))
            }
            if case .array(let results)? = field("results"), case .array(let paths)? = field("results_paths") {
                allowed.append(contentsOf: zip(results, paths).map { ($0, $1) })
            }
            let values = JSONValue.array(nodes.map(\.value))
            // `values(in:)` walks singular queries on its own path: it must select the same.
            if !JSONPathEvaluator.equal(.array(try query.values(in: field("document") ?? .null)), values) {
                failures.append("\(name): \(selector): values(in:) differs from evaluate(on:)")
            }
            let paths = JSONValue.array(nodes.map { .string($0.normalizedPath) })
            let passes = allowed.contains { allowedCase in
                JSONPathEvaluator.equal(allowedCase.values, values) && allowedCase.paths == paths
            }
            if !passes {
                failures.append("\(name): \(selector) gave \((try? JSONWriter.encodeToString(values)) ?? "?") at \((try? JSONWriter.encodeToString(paths)) ?? "?")")
            }
        }
        print("JSONPath compliance: \(cases.count - failures.count) of \(cases.count) cases pass")
        XCTAssertEqual(failures, [], "\(failures.count) compliance case(s) fail")
    }
}
