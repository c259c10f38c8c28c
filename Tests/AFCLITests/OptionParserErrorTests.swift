import XCTest

@testable import AFCLI

/// The argument parser's usage errors, each with its exact lower-case message.
final class OptionParserErrorTests: XCTestCase {
    /// The description of the error parsing `arguments` throws, or a failure if it succeeds.
    private func message(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let parsed = try ArgumentParser.parse(arguments)
            XCTFail("parsed without error: \(parsed)", file: file, line: line)
            return nil
        } catch let error as UsageError {
            return error.description
        } catch {
            XCTFail("not a usage error: \(error)", file: file, line: line)
            return nil
        }
    }

    func testUnknownOptionSuggestsTheClosestSpelling() {
        XCTAssertEqual(message("x", "--folow"), "unknown option --folow (did you mean --follow?)")
        XCTAssertEqual(message("x", "--follw=1"), "unknown option --follw (did you mean --follow?)")
        XCTAssertEqual(message("x", "--no-folow"), "unknown option --no-folow (did you mean --no-follow?)")
        XCTAssertEqual(message("x", "--verbos"), "unknown option --verbos (did you mean --verbose?)")
        XCTAssertEqual(message("x", "--max-redir"), "unknown option --max-redir (did you mean --max-redirects?)")
        XCTAssertEqual(message("x", "--zzzzzzzz"), "unknown option --zzzzzzzz")
        XCTAssertEqual(message("x", "--follwo"), "unknown option --follwo (did you mean --follow?)")
        XCTAssertEqual(message("x", "--ignore-stdn"), "unknown option --ignore-stdn (did you mean --ignore-stdin?)")
        // Two edits in a seven-letter name is not a real resemblance (--version, --session).
        XCTAssertEqual(message("x", "--vassion"), "unknown option --vassion")
        XCTAssertEqual(message("x", "--sesion"), "unknown option --sesion (did you mean --session?)")
        XCTAssertEqual(message("x", "-Z"), "unknown option -Z")
        XCTAssertEqual(message("x", "-vZ"), "unknown option -Z")
        XCTAssertEqual(message("x", "-help"), "unknown option -e (did you mean --help?)")
    }

    func testMissingValue() {
        XCTAssertEqual(message("x", "--timeout"), "--timeout requires a value (SECONDS)")
        XCTAssertEqual(message("x", "-o"), "-o requires a value (FILE)")
        XCTAssertEqual(message("x", "-vo"), "-o requires a value (FILE)")
        XCTAssertEqual(message("x", "--auth"), "--auth requires a value (USER[:PASS])")
    }

    func testInvalidValuesNameTheOptionAndValue() {
        XCTAssertEqual(message("x", "--max-redirects", "abc"), "--max-redirects: \"abc\" is not a positive integer")
        XCTAssertEqual(message("x", "--max-redirects=0"), "--max-redirects: \"0\" is not a positive integer")
        XCTAssertEqual(message("x", "--max-redirects=-3"), "--max-redirects: \"-3\" is not a positive integer")
        XCTAssertEqual(message("x", "--timeout", "0"), "--timeout: \"0\" is not a positive number of seconds")
        XCTAssertEqual(message("x", "--timeout=inf"), "--timeout: \"inf\" is not a positive number of seconds")
        XCTAssertEqual(message("x", "--timeout=1e3"), "--timeout: \"1e3\" is not a positive number of seconds")
        // Digits enough to overflow a Double are no number of seconds either.
        let huge = String(repeating: "9", count: 400)
        XCTAssertEqual(message("x", "--timeout=" + huge), "--timeout: \"\(huge)\" is not a positive number of seconds")
        XCTAssertEqual(
            message("x", "--connect-timeout="), "--connect-timeout: \"\" is not a positive number of seconds")
        XCTAssertEqual(
            message("x", "-X", "GE T"),
            "-X: \"GE T\" is not a valid method name (letters, digits and !#$%&'*+-.^_`|~ only)")
        XCTAssertEqual(message("x", "-pHx"), "-p: \"Hx\" may only contain the letters H, B, h, b and m")
        XCTAssertEqual(message("x", "--print="), "--print: \"\" may only contain the letters H, B, h, b and m")
        XCTAssertEqual(
            message("x", "-A", "kerberos"),
            "-A: \"kerberos\" is not one of basic, digest, bearer, ntlm, negotiate, oauth2")
        XCTAssertEqual(message("x", "--proxy=https:"), "--proxy: \"https:\" has no proxy URL after the protocol")
        XCTAssertEqual(message("x", "--output="), "--output: \"\" is not a file name")
    }

    func testFlagsTakeNoValue() {
        XCTAssertEqual(message("x", "--follow=yes"), "--follow takes no value")
        XCTAssertEqual(message("x", "--no-timeout=5"), "--no-timeout takes no value")
        XCTAssertEqual(message("x", "-F=yes"), "-F takes no value")
    }

    func testSubcommandArguments() {
        XCTAssertEqual(
            message("completions", "tcsh"), "completions: unknown shell \"tcsh\" (expected bash, zsh or fish)")
        XCTAssertEqual(message("completions"), "completions: missing shell (expected bash, zsh or fish)")
        XCTAssertEqual(message("completions", "bash", "zsh"), "completions: unexpected argument \"zsh\"")
        XCTAssertEqual(message("help", "me"), "help: unexpected argument \"me\"")
        XCTAssertEqual(message("man", "1"), "man: unexpected argument \"1\"")
    }

    func testMissingURL() {
        XCTAssertEqual(message(), "missing URL (see afcli --help)")
        XCTAssertEqual(message("--follow"), "missing URL (see afcli --help)")
    }

    func testTheFirstMistakeIsReported() {
        XCTAssertEqual(message("x", "--timeout=0", "--folow"), "--timeout: \"0\" is not a positive number of seconds")
    }

    func testEditDistance() {
        XCTAssertEqual(OptionSuggester.editDistance(Array("follow"), Array("folow")), 1)
        XCTAssertEqual(OptionSuggester.editDistance(Array(""), Array("abc")), 3)
        XCTAssertEqual(OptionSuggester.editDistance(Array("kitten"), Array("sitting")), 3)
        XCTAssertEqual(OptionSuggester.editDistance(Array("follwo"), Array("follow")), 1)
        XCTAssertEqual(OptionSuggester.editDistance(Array("session"), Array("version")), 2)
        XCTAssertNil(OptionSuggester.suggestion(for: "--"))
    }
}
