import Glibc
import XCTest

@testable import AFKit

/// The I-Regexp matcher: its answers on patterns and texts whose results are written out here,
/// the limits that refuse a pattern, and the work a match may do.
final class IRegexpTests: XCTestCase {
    /// Pattern, text, whether the whole text matches, whether some substring does.
    private static let cases: [(pattern: String, text: String, whole: Bool, somewhere: Bool)] = [
        ("abc", "abc", true, true),
        ("abc", "xabcx", false, true),
        ("abc", "ab", false, false),
        ("", "", true, true),
        ("", "x", false, true),
        ("a|b|c", "b", true, true),
        ("a|bc", "bc", true, true),
        ("a|bc", "xbcx", false, true),
        ("(ab)*", "ababab", true, true),
        ("(ab)*", "ababa", false, true),
        ("(ab)+c", "c", false, false),
        ("(ab)+c", "zababcz", false, true),
        ("a?b", "b", true, true),
        ("a{3}", "aaa", true, true),
        ("a{3}", "aa", false, false),
        ("a{3}", "aaaa", false, true),
        ("a{2,4}", "aaaa", true, true),
        ("a{2,4}", "aaaaa", false, true),
        ("a{2,}", "aaaaaaa", true, true),
        ("a{2,}", "a", false, false),
        ("a{0}", "", true, true),
        ("(a{0}){1000}b", "b", true, true),
        ("(a|b){2}c", "abc", true, true),
        ("(a|b){2}c", "ac", false, false),
        ("[a-z]{1,3}@", "abc@", true, true),
        ("[a-z]{1,3}@", "abcd@", false, true),
        ("[a-z]{1,3}@", "ABC@", false, false),
        ("[^a-z]", "A", true, true),
        ("[^a-z]", "a", false, false),
        ("[-a]", "-", true, true),
        ("[a-]", "-", true, true),
        ("[ca-b]", "c", true, true),
        ("[a-cb-d]+", "abcd", true, true),
        (".", "\n", false, false),
        (".", "é", true, true),
        (".+", "a\rb", false, true),
        ("\\.", ".", true, true),
        ("\\.", "a", false, false),
        ("\\n", "\n", true, true),
        ("\\p{Lu}+", "ÀB", true, true),
        ("\\p{Lu}", "a", false, false),
        ("\\P{L}", "1", true, true),
        ("\\p{Nd}{2}", "x42y", false, true),
        ("[\\p{Ll}\\p{Nd}]+", "aé9", true, true),
        ("[^\\p{L}]", "é", false, false),
        ("[^\\p{L}]", "€", true, true),
        ("é+", "ééé", true, true),
        ("[α-ω]+", "λx", false, true),
        ("😀{2}", "😀😀", true, true),
        ("^ab", "abc", false, true),
        ("^ab", "cab", false, false),
        ("ab$", "cab", false, true),
        ("ab$", "abc", false, false),
        ("^$", "", true, true),
        ("^$", "a", false, false),
        ("a$|b", "xb", false, true),
        ("a^b", "ab", false, false),
        ("(a*)*b", "aaab", true, true),
        ("(a|aa)*c", "aaaac", true, true),
        ("(a{20}){20}b", String(repeating: "a", count: 400) + "b", true, true),
        ("(a{20}){20}b", String(repeating: "a", count: 399) + "b", false, false),
        ("(a{20}){20}b", "x" + String(repeating: "a", count: 401) + "b", false, true),
        ("(a{2,3}){2}", "aaaaa", true, true),
        ("(a{2,3}){2}", "aaa", false, false),
        ("(a{2,3}){2}", "aaaaaaa", false, true),
    ]

    func testMatchesWhatIsWrittenOut() throws {
        for (pattern, text, whole, somewhere) in Self.cases {
            let regexp = try IRegexp(pattern)
            XCTAssertEqual(regexp.matches(text), whole, "match(\(text.prefix(20)), \(pattern))")
            XCTAssertEqual(regexp.contains(text), somewhere, "search(\(text.prefix(20)), \(pattern))")
        }
    }

    /// A cache emptied on the way (a pattern with more states than it holds) gives the same answers.
    func testAnswersSurviveTheCacheBeingEmptied() throws {
        // The threads of (a|b)*a(a|b){40} tell the last 41 scalars apart: about a new state per
        // scalar of a random a/b text, more than 64 KiB hold.
        let regexp = try IRegexp("(a|b)*a(a|b){40}")
        var text: [Character] = []
        var seed: UInt32 = 7
        for _ in 0..<3000 {
            seed = seed &* 1_103_515_245 &+ 12345
            text.append(seed >> 16 & 1 == 0 ? "a" : "b")
        }
        for end in [2998, 2999, 3000] {
            var automaton = IRegexpDFA(regexp, anchored: true, cacheLimit: 64 << 10)
            var budget = Int.max
            XCTAssertEqual(try automaton.run(String(text[..<end]), budget: &budget), text[end - 41] == "a")
            XCTAssertGreaterThan(automaton.clears, 0)
        }
        var automaton = IRegexpDFA(regexp, anchored: false, cacheLimit: 64 << 10)
        var budget = Int.max
        XCTAssertTrue(try automaton.run(String(text), budget: &budget))
    }

    func testRepetitionCountsOverTheLimitAreRefused() throws {
        XCTAssertNoThrow(try IRegexp("a{1000}"))
        XCTAssertNoThrow(try IRegexp("a{2,1000}"))
        for (pattern, position) in [("a{1001}", 2), ("a{1,1001}", 4), ("a{1001,}", 2), ("[a-z]{99999999999999}", 6)] {
            XCTAssertThrowsError(try IRegexp(pattern), pattern) { error in
                let error = error as? IRegexpError
                XCTAssertEqual(error?.isLimit, true)
                XCTAssertEqual(error?.position, position, pattern)
                XCTAssertTrue(error?.reason.hasSuffix("is over the limit of 1000") ?? false, "\(String(describing: error))")
            }
        }
        XCTAssertEqual((try? IRegexp("a{2,1}")).map { _ in true }, nil)
    }

    func testProgramsOverTheSizeLimitAreRefused() throws {
        XCTAssertNoThrow(try IRegexp("(a{100}){100}b"))
        let patterns = [
            "(a{1000}){1000}", "(a{200}){101}", "((a{0}){1000}){1000}", "((()){1000}){1000}",
            String(repeating: "a", count: 20_001),
        ]
        for pattern in patterns {
            XCTAssertThrowsError(try IRegexp(pattern), pattern) { error in
                let error = error as? IRegexpError
                XCTAssertEqual(error?.isLimit, true, pattern)
                XCTAssertEqual(
                    error?.reason,
                    "the pattern is too large once its repetitions are expanded (more than 20000 instructions, the limit)")
            }
        }
        // A syntax error is not a limit.
        XCTAssertEqual((try? IRegexp("a{1,")) == nil, true)
        do {
            _ = try IRegexp("(")
        } catch {
            XCTAssertFalse(error.isLimit)
        }
    }

    /// The work of a match is counted: the patterns that took minutes run in a bounded number of
    /// units, a smaller budget stops them with `budgetSpent`.
    func testWorkIsCountedAgainstTheBudget() throws {
        let letters = String(repeating: "abcdefghij", count: 100_000)
        let email = try IRegexp("[a-z]{1,255}@")
        var budget = 10_000_000
        XCTAssertFalse(try email.contains(letters, budget: &budget))
        // One unit per scalar once the states are built (256 of them, 256 instructions at most).
        XCTAssertGreaterThan(budget, 10_000_000 - 1_000_000 - 300_000)

        let nested = try IRegexp("(a{100}){100}b")
        let run = String(repeating: "a", count: 100_000)
        budget = 100_000_000
        XCTAssertFalse(try nested.contains(run, budget: &budget))
        // The first 10,000 scalars each build a state, a word of 64 threads at a time (157 words),
        // hashed and kept; one state holds them all from then on: look-ups.
        XCTAssertGreaterThan(budget, 100_000_000 - 10_000 * (157 * 16 + 256) - 100_000)

        budget = 1_000_000
        XCTAssertThrowsError(try nested.contains(run, budget: &budget)) { error in
            XCTAssertEqual(error as? IRegexpStop, .budgetSpent)
        }
    }

    /// `match()` and `search()` count their work in the query's steps.
    func testJSONPathCountsTheMatcherInItsSteps() throws {
        let long = String(repeating: "a", count: 100_000)
        let document = try JSONParser.parse("[" + Array(repeating: "{\"s\": \"\(long)\"}", count: 4).joined(separator: ",") + "]")
        var limits = JSONPathLimits()
        limits.maximumSteps = 1_000_000
        let query = try JSONPathQuery(parsing: "$[?search(@.s, '(a{100}){100}b')]", limits: limits)
        XCTAssertThrowsError(try query.evaluate(on: document, limits: limits)) { error in
            XCTAssertEqual((error as? JSONPathLimitError)?.description, "the query needs more than 1000000 steps")
        }
        // A pattern from the document is counted too.
        let fromDocument = try JSONParser.parse("{\"p\": \"[a-z]{1,255}@\", \"s\": [\"\(long)\"]}")
        let dynamic = try JSONPathQuery(parsing: "$.s[?search(@, $.p)]", limits: limits)
        limits.maximumSteps = 5_000
        XCTAssertThrowsError(try dynamic.evaluate(on: fromDocument, limits: limits)) { error in
            XCTAssertEqual((error as? JSONPathLimitError)?.description, "the query needs more than 5000 steps")
        }
        limits.maximumSteps = 1_000_000
        XCTAssertEqual(try dynamic.evaluate(on: fromDocument, limits: limits).count, 0)
        XCTAssertEqual(try JSONPathQuery(parsing: "$[?search(@.s, 'b')]").evaluate(on: document).count, 0)
    }

    /// A literal pattern past the limits is refused with the query; an invalid one is false.
    func testJSONPathRefusesPatternsPastTheLimitsWhenParsing() throws {
        XCTAssertThrowsError(try JSONPathQuery(parsing: "$[?match(@.a, 'a{1001}')]")) { error in
            XCTAssertEqual(
                (error as? JSONPathError)?.description,
                "match() pattern refused: the repetition count 1001 is over the limit of 1000 at character 15")
        }
        XCTAssertThrowsError(try JSONPathQuery(parsing: "$[?search(@.a, '(a{1000}){1000}')]"))
        let invalid = try JSONPathQuery(parsing: "$[?match(@, '[')]")
        XCTAssertEqual(try invalid.evaluate(on: .array([.string("[")])).count, 0)
    }

    /// SIGINT or SIGTERM stops a match.
    func testAnInterruptStopsAMatch() throws {
        let nested = try IRegexp("(a|b)*a(a|b){1000}")
        Interruption.install()
        raise(SIGINT)
        defer { Interruption.clear() }
        var budget = Int.max
        XCTAssertThrowsError(try nested.contains(String(repeating: "ab", count: 10_000), budget: &budget)) { error in
            XCTAssertEqual(error as? IRegexpStop, .interrupted)
        }
    }
}
