import XCTest

@testable import AFCLI

/// The command table is the one list of subcommands: the parser, `--help`, the man page's
/// synopsis and every completion script read it.
final class CommandTableTests: XCTestCase {
    private func parse(_ arguments: [String]) throws -> ParsedCommandLine {
        try ArgumentParser.parse(arguments)
    }

    func testEveryCommandWordIsDispatched() throws {
        XCTAssertEqual(
            CommandTable.words,
            ["help", "completions", "man", "download", "run", "pin", "reachability", "env", "config", "cache"])
        XCTAssertEqual(try parse(["cache", "ls"]).command, .cache)
        XCTAssertEqual(try parse(["help"]).command, .help(.long))
        XCTAssertEqual(try parse(["completions", "zsh"]).command, .completions(.zsh))
        XCTAssertEqual(try parse(["man"]).command, .manPage(.roff))
        XCTAssertEqual(try parse(["man", "markdown"]).command, .manPage(.markdown))
        XCTAssertEqual(try parse(["download", "a", "b"]).command, .download)
        XCTAssertEqual(try parse(["run", "-"]).command, .run)
        XCTAssertEqual(try parse(["pin", "example.org"]).command, .pin)
        XCTAssertEqual(try parse(["reachability"]).command, .reachability)
        XCTAssertEqual(try parse(["--", "help"]).command, .request)
    }

    func testArgumentCountsComeFromTheTable() {
        let cases: [([String], UsageError)] = [
            (["help", "x"], .unexpectedArgument(command: "help", argument: "x")),
            (["man", "x"], .unexpectedArgument(command: "man", argument: "x")),
            (["man", "markdown", "x"], .unexpectedArgument(command: "man", argument: "x")),
            (["completions"], .missingShell),
            (["completions", "bash", "x"], .unexpectedArgument(command: "completions", argument: "x")),
            (["completions", "tcsh"], .unknownShell("tcsh")),
            (["download"], .missingURL),
            (["pin"], .missingURL),
            (["pin", "a", "b"], .unexpectedArgument(command: "pin", argument: "b")),
            (["reachability", "a", "b"], .unexpectedArgument(command: "reachability", argument: "b")),
        ]
        for (arguments, expected) in cases {
            XCTAssertThrowsError(try parse(arguments), "\(arguments)") { error in
                XCTAssertEqual(error as? UsageError, expected, "\(arguments)")
            }
        }
    }

    func testHelpManPageAndCompletionsListEveryCommand() {
        let help = HelpText.short()
        let page = ManPage.render()
        let scripts = [Completions.bash(), Completions.zsh(), Completions.fish()]
        for spec in CommandTable.all {
            XCTAssertTrue(help.contains("\n  \(spec.briefUsage)"), spec.word)
            XCTAssertTrue(help.contains(spec.summary), spec.word)
            XCTAssertTrue(ManualText.synopsis.contains(spec.synopsis), spec.word)
            XCTAssertTrue(page.contains(Roff.usage(spec.synopsis)), spec.word)
            for script in scripts {
                XCTAssertTrue(script.contains(spec.word), spec.word)
            }
            XCTAssertTrue(scripts[2].contains("-a \(spec.word) -d "), spec.word)
        }
    }

    func testBriefUsageDropsOptionsAndKeepsAlternativesTogether() {
        let reachability = CommandTable.spec(for: "reachability")
        XCTAssertEqual(reachability?.briefUsage, "reachability [HOST[:PORT]|URL]")
        XCTAssertEqual(CommandTable.spec(for: "download")?.briefUsage, "download URL...")
        XCTAssertEqual(CommandTable.spec(for: "pin")?.synopsis, "afcli pin URL [OPTION...]")
        XCTAssertNil(CommandTable.spec(for: "get"))
    }
}
