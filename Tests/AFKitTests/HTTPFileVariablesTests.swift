import XCTest

@testable import AFKit

/// `{{variable}}` substitution: file over environment, nesting, cycles, limits, dynamic values.
final class HTTPFileVariablesTests: XCTestCase {
    /// A clock at 2026-11-24T01:02:03Z and a counter for randomness.
    private let fixed = HTTPFileVariables.Sources(now: { 1_795_482_123 }, random: { 0x0123_4567_89AB_CDEF })

    private func variables(
        _ file: [(String, String)], environment: [String: String] = [:], hint: String? = nil, limit: Int = 16 << 20
    ) -> HTTPFileVariables {
        HTTPFileVariables(
            file: file.enumerated().map { HTTPFileVariable(name: $1.0, value: $1.1, line: $0 + 1) },
            environment: environment, undefinedHint: hint, sources: fixed, maximumLength: limit)
    }

    func testFileVariablesWinOverTheEnvironmentAndTheLastDefinitionWins() throws {
        let vars = variables(
            [("host", "a"), ("host", "b"), ("port", "{{envPort}}")],
            environment: ["host": "env", "envPort": "8080", "x": "y"])
        XCTAssertEqual(try vars.expand("http://{{host}}:{{ port }}/{{x}}", line: 1), "http://b:8080/y")
        XCTAssertEqual(try vars.expand("no braces {here} {{ unclosed", line: 1), "no braces {here} {{ unclosed")
    }

    func testUndefinedVariablesAreErrorsAtTheirLine() {
        XCTAssertThrowsError(try variables([]).expand("{{missing}}", line: 7)) { error in
            XCTAssertEqual(
                error as? HTTPFileError, HTTPFileError(line: 7, reason: "variable {{missing}} is not defined"))
        }
        XCTAssertThrowsError(try variables([], hint: "nor in environment dev").expand("a {{b}}", line: 2)) { error in
            XCTAssertEqual("\(error)", "variable {{b}} is not defined (nor in environment dev)")
        }
        XCTAssertThrowsError(try variables([]).expand("{{login.response.body.$.token}}", line: 3)) { error in
            XCTAssertEqual(
                "\(error)",
                "variable {{login.response.body.$.token}} is not defined (a value from another request's response is given only in afcli run)"
            )
        }
    }

    func testSelfReferenceAndDepthAndSizeAreBounded() {
        XCTAssertThrowsError(try variables([("a", "{{b}}"), ("b", "x{{a}}")]).expand("{{a}}", line: 4)) { error in
            XCTAssertEqual(
                error as? HTTPFileError, HTTPFileError(line: 4, reason: "variable a refers to itself (a → b → a)"))
        }
        let chain = (0..<20).map { ("v\($0)", "{{v\($0 + 1)}}") } + [("v20", "end")]
        XCTAssertThrowsError(try variables(chain).expand("{{v0}}", line: 1)) { error in
            XCTAssertEqual("\(error)", "variables refer to each other more than 16 levels deep")
        }
        XCTAssertEqual(try variables(Array(chain.suffix(10))).expand("{{v11}}", line: 1), "end")
        // Each level doubles: 2^30 copies would be gigabytes; the size limit stops it early.
        let bomb =
            (0..<30).map { ("b\($0)", "{{b\($0 + 1)}}{{b\($0 + 1)}}") } + [("b30", String(repeating: "x", count: 1024))]
        XCTAssertThrowsError(try variables(bomb).expand("{{b0}}", line: 9)) { error in
            XCTAssertEqual(
                error as? HTTPFileError,
                HTTPFileError(line: 9, reason: "variables refer to each other more than 16 levels deep"))
        }
        let wide =
            (0..<14).map { ("w\($0)", String(repeating: "{{w\($0 + 1)}}", count: 4)) } + [
                ("w14", String(repeating: "x", count: 64))
            ]
        XCTAssertThrowsError(try variables(wide, limit: 1 << 20).expand("{{w0}}", line: 9)) { error in
            XCTAssertEqual(
                error as? HTTPFileError, HTTPFileError(line: 9, reason: "variables expand to more than 1 MiB"))
        }
        XCTAssertEqual(
            try variables(Array(wide.suffix(4)), limit: 1 << 20).expand("{{w11}}", line: 9).utf8.count, 64 * 64)
    }

    func testReferencesToEmptyValuesAreBoundedInNumber() {
        // 8^14 references to values that expand to nothing: no size limit is reached, only time.
        let empty = (0..<14).map { ("e\($0)", String(repeating: "{{e\($0 + 1)}}", count: 8)) } + [("e14", "")]
        XCTAssertThrowsError(try variables(empty).expand("x{{e0}}", line: 3)) { error in
            XCTAssertEqual(
                error as? HTTPFileError,
                HTTPFileError(line: 3, reason: "variables expand to more than 100000 references"))
        }
        XCTAssertEqual(try variables(Array(empty.suffix(5))).expand("x{{e10}}", line: 3), "x")
    }

    func testDynamicVariables() throws {
        let vars = variables([])
        XCTAssertEqual(try vars.expand("{{$timestamp}}", line: 1), "1795482123")
        XCTAssertEqual(try vars.expand("{{$isoTimestamp}}", line: 1), "2026-11-24T01:02:03Z")
        XCTAssertEqual(try vars.expand("{{$randomInt}}", line: 1), String(0x0123_4567_89AB_CDEF % 1000))
        XCTAssertEqual(try vars.expand("{{$randomInt 10 20}}", line: 1), String(10 + 0x0123_4567_89AB_CDEF % 10))
        XCTAssertEqual(try vars.expand("{{$uuid}}", line: 1), "efcdab89-6745-4301-afcd-ab8967452301")
        XCTAssertEqual(try vars.expand("{{$guid}}", line: 1), try vars.expand("{{$random.uuid}}", line: 1))
        let system = HTTPFileVariables(file: [], environment: [:])
        let uuid = try system.expand("{{$uuid}}", line: 1)
        XCTAssertNotNil(uuid.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/))
        XCTAssertNotEqual(uuid, try system.expand("{{$uuid}}", line: 1))
        XCTAssertThrowsError(try vars.expand("{{$random.address.city}}", line: 5)) { error in
            XCTAssertEqual(
                error as? HTTPFileError,
                HTTPFileError(
                    line: 5,
                    reason: "{{$random.address.city}}: not a system variable afcli knows ($uuid, $guid, $timestamp, "
                        + "$isoTimestamp, $datetime, $localDatetime, $randomInt, $processEnv, $dotenv and "
                        + "$random.uuid, .integer, .float, .alphabetic, .alphanumeric, .hexadecimal, .email)"))
        }
        XCTAssertThrowsError(try vars.expand("{{$randomInt 5 1}}", line: 5)) { error in
            XCTAssertEqual("\(error)", "{{$randomInt 5 1}}: the minimum 5 is not less than the maximum 1")
        }
        XCTAssertThrowsError(try vars.expand("{{$randomInt 1 x}}", line: 5)) { error in
            XCTAssertEqual("\(error)", "{{$randomInt 1 x}}: $randomInt takes no arguments or two integers, MIN MAX")
        }
        // Spaces inside the braces are allowed, as the JetBrains format says.
        XCTAssertEqual(try vars.expand("{{ $randomInt 1 2 }}", line: 1), "1")
        // Bounds whose difference does not fit 64 bits are refused, not a crash.
        let wide = "{{$randomInt -9223372036854775808 9223372036854775807}}"
        XCTAssertThrowsError(try vars.expand(wide, line: 6)) { error in
            XCTAssertEqual("\(error)", wide + ": MAX - MIN may be at most 2147483647")
        }
    }
}
