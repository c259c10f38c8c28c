import AFKit
import XCTest

@testable import AFCLI

/// The environment options and commands: `--simulate[=URL]`, `--local`, `--config`/`--no-config`,
/// `--no-env`, the default-option check, `afcli env` and `afcli config path`.
final class EnvironmentOptionTests: XCTestCase {
    private func options(_ arguments: String...) throws -> Settings {
        try ArgumentParser.parse(["example.org"] + arguments).options
    }

    func testSimulateTakesAValueOnlyAfterEquals() throws {
        XCTAssertEqual(try options("--simulate").environment.simulate, .environment)
        XCTAssertEqual(try options("--simulate=http://m/").environment.simulate, .url("http://m/"))
        let parsed = try ArgumentParser.parse(["--simulate", "get", "/x"])
        XCTAssertEqual(parsed.positionals, ["get", "/x"])
        XCTAssertEqual(parsed.options.environment.simulate, .environment)
        XCTAssertNil(try options("--simulate=http://m/", "--no-simulate").environment.simulate)
        XCTAssertThrowsError(try options("--simulate="))
        XCTAssertThrowsError(try options("--local=x"))
    }

    func testSimulateSynopsisShowsTheOptionalValue() throws {
        let spec = try XCTUnwrap(OptionTable.all.first { $0.long == "simulate" })
        XCTAssertEqual(spec.synopsis, "    --simulate[=URL]")
    }

    func testConfigAndEnvResets() throws {
        XCTAssertFalse(try options("--no-config").environment.readsConfig)
        XCTAssertTrue(try options("--no-config", "--config").environment.readsConfig)
        XCTAssertNil(try options("--env", "dev", "--no-env").environment.name)
        XCTAssertTrue(try options("--local").environment.local)
        XCTAssertFalse(ConfigSetup.readsConfig(["get", "--no-config", "x"]))
        XCTAssertTrue(ConfigSetup.readsConfig(["--no-config", "--config"]))
        XCTAssertTrue(ConfigSetup.readsConfig(["--", "--no-config"]))
    }

    func testDefaultOptionsAreReadAsOptionsAlone() throws {
        XCTAssertEqual(try ArgumentParser.positionalsAmongOptions(["--follow", "--timeout", "5"]), [])
        XCTAssertEqual(try ArgumentParser.positionalsAmongOptions(["--follow", "get"]), ["get"])
        XCTAssertThrowsError(try ArgumentParser.positionalsAmongOptions(["--timeout"]))
    }

    func testEnvironmentCommands() throws {
        XCTAssertEqual(try ArgumentParser.parse(["env"]).command, .environments)
        XCTAssertEqual(try ArgumentParser.parse(["env", "show", "dev"]).command, .environments)
        XCTAssertThrowsError(try ArgumentParser.parse(["env", "show", "dev", "more"]))
        XCTAssertEqual(try ArgumentParser.parse(["config", "path"]).command, .configPath)
        XCTAssertThrowsError(try ArgumentParser.parse(["config", "path", "x"]))
    }

    func testDescribeEscapesControlCharacters() {
        var profile = EnvironmentProfile(name: "a\u{1b}[2J")
        profile.headers = [HTTPField(name: "X-Client", value: "afcli")]
        XCTAssertEqual(
            EnvironmentCommand.describe(profile, showSecrets: false), "name: a\\x1b[2J\nheaders:\n  X-Client: afcli\n")
    }
}
