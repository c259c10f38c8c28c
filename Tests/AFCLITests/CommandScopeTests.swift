import XCTest

@testable import AFCLI

final class CommandScopeTests: XCTestCase {
    /// The scope is a required argument of every entry; an empty one is an option placed nowhere.
    func testEveryOptionIsPlacedAndDoesSomethingForSomeCommand() {
        for spec in OptionTable.all {
            XCTAssertFalse(spec.scope.isEmpty, "\(spec.long) has no scope in its OptionTable entry")
            XCTAssertTrue(CommandScope.every.isSuperset(of: spec.scope), spec.long)
        }
    }

    func testAnOptionOfOneOtherCommandNamesIt() {
        XCTAssertEqual(OptionScopes.reason("probe", .request), "it is an option of afcli reachability")
        XCTAssertEqual(OptionScopes.reason("all", .run), "it is an option of afcli cache")
        XCTAssertEqual(OptionScopes.reason("resume", .pin), "it is an option of afcli download")
        XCTAssertNotEqual(OptionScopes.reason("pretty", .run), "it is an option of afcli request")
    }

    func testEveryRefusalHasAReason() {
        for spec in OptionTable.all {
            for command in CommandScope.each where !spec.scope.contains(command) {
                XCTAssertFalse(OptionScopes.reason(spec.long, command).isEmpty, "\(spec.long) on \(command.word)")
            }
        }
    }

    func testTheTLSSettingsApplyWhereverAHandshakeIsMade() {
        for long in ["verify", "insecure", "pin-key", "pin-cert", "cert", "tls-min", "resolve", "connect-timeout"] {
            XCTAssertEqual(OptionScopes.scope(of: long), .handshaking, long)
        }
    }

    func testOnlyTypedOptionsAreReportedNotDefaultsOrUndoneOnes() throws {
        let defaults = ["--pretty=all", "--timeout", "3", "-v"]
        let typed = ["run", "-", "--follow", "--no-cache", "-w", "x", "--parallel=2"]
        let (parsed, names) = try ArgumentParser.parse(defaults + typed, defaults: defaults.count)
        XCTAssertEqual(parsed.command, .run)
        XCTAssertEqual(names, ["follow", "write-out", "parallel"])
        // A default option outside the command's scope (--pretty, -v for a run) is passed over.
        XCTAssertNil(parsed.options.output.pretty)
        XCTAssertEqual(parsed.options.transfer.timeout, 3)
        XCTAssertFalse(parsed.options.output.verbose)
    }

    func testCheckRefusesTheFirstOptionTheCommandCannotUse() {
        XCTAssertNoThrow(try OptionScopes.check(["follow", "timeout", "parallel"], command: .run))
        XCTAssertThrowsError(try OptionScopes.check(["follow", "pretty", "cache"], command: .run)) { error in
            XCTAssertEqual(
                error as? UsageError,
                .notForCommand(
                    option: "--pretty", command: "run",
                    reason: "a run prints one JSON line per request; --output-dir saves the bodies as received"))
        }
        XCTAssertThrowsError(try OptionScopes.check(["json"], command: .download)) { error in
            XCTAssertEqual(
                (error as? UsageError)?.description,
                "--json does not apply to afcli download (a download sends no body)")
        }
        XCTAssertNoThrow(try OptionScopes.check(["pretty", "cache", "envelope", "log"], command: .request))
    }
}
