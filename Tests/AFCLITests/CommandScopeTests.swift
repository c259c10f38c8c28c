import XCTest

@testable import AFCLI

final class CommandScopeTests: XCTestCase {
    func testEveryOptionIsPlacedAndNothingElse() {
        let longs = Set(OptionTable.all.map(\.long))
        XCTAssertEqual(longs.subtracting(OptionScopes.table.keys), [], "options missing from OptionScopes.table")
        XCTAssertEqual(Set(OptionScopes.table.keys).subtracting(longs), [], "entries that are no option")
    }

    func testEveryOptionDoesSomethingForSomeCommand() {
        for (long, scope) in OptionScopes.table {
            XCTAssertFalse(scope.isEmpty, long)
            XCTAssertTrue(CommandScope.every.isSuperset(of: scope), long)
        }
    }

    func testAnOptionOfOneOtherCommandNamesIt() {
        XCTAssertEqual(OptionScopes.reason("probe", .request), "it is an option of afcli reachability")
        XCTAssertEqual(OptionScopes.reason("all", .run), "it is an option of afcli cache")
        XCTAssertEqual(OptionScopes.reason("resume", .pin), "it is an option of afcli download")
        XCTAssertNotEqual(OptionScopes.reason("pretty", .run), "it is an option of afcli request")
    }

    func testEveryRefusalHasAReason() {
        for (long, scope) in OptionScopes.table {
            for command in CommandScope.each where !scope.contains(command) {
                XCTAssertFalse(OptionScopes.reason(long, command).isEmpty, "\(long) on \(command.word)")
            }
        }
    }

    func testTheTLSSettingsApplyWhereverAHandshakeIsMade() {
        for long in ["verify", "insecure", "pin-key", "pin-cert", "cert", "tls-min", "resolve", "connect-timeout"] {
            XCTAssertEqual(OptionScopes.table[long], .handshaking, long)
        }
    }

    func testOnlyTypedOptionsAreReportedNotDefaultsOrUndoneOnes() throws {
        let defaults = ["--pretty=all", "--timeout", "3", "-v"]
        let typed = ["run", "-", "--follow", "--no-cache", "-w", "x", "--parallel=2"]
        let (parsed, names) = try ArgumentParser.parse(defaults + typed, defaults: defaults.count)
        XCTAssertEqual(parsed.command, .run)
        XCTAssertEqual(names, ["follow", "write-out", "parallel"])
        XCTAssertEqual(parsed.options.pretty, .all)
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
