import AFKit
import XCTest

@testable import AFCLI

/// The encryption and envelope options, and how they combine with a config environment's
/// `encrypt`, `decrypt` and `envelope`.
final class CryptoOptionTests: XCTestCase {
    private func options(_ arguments: String...) throws -> Settings {
        try ArgumentParser.parse(["example.org"] + arguments).options
    }

    private var profile: EnvironmentProfile {
        var profile = EnvironmentProfile(name: "dev")
        profile.encryptCommand = "env-encrypt"
        profile.decryptCommand = "env-decrypt"
        var envelope = EnvelopeSpec()
        envelope.statusKey = "code"
        envelope.success = ["0"]
        envelope.commonFailure = ["5"]
        profile.envelope = envelope
        return profile
    }

    /// The settings of `options` resolved in the config environment `profile`, as a command makes them.
    private func resolved(_ options: Settings, _ profile: EnvironmentProfile?) -> ResolvedSettings {
        ResolvedSettings(options, profile: profile)
    }

    func testCommandsComeFromTheOptionsElseTheEnvironment() throws {
        XCTAssertNil(resolved(try options(), nil).encryptCommand)
        XCTAssertEqual(resolved(try options(), profile).encryptCommand, "env-encrypt")
        XCTAssertEqual(resolved(try options(), profile).decryptCommand, "env-decrypt")
        let given = try options("--encrypt-cmd", "mine", "--decrypt-cmd=theirs")
        XCTAssertEqual(resolved(given, profile).encryptCommand, "mine")
        XCTAssertEqual(resolved(given, profile).decryptCommand, "theirs")
        XCTAssertEqual(resolved(given, nil).encryptCommand, "mine")
    }

    func testNoEncryptTurnsBothOffAndEncryptUndoesIt() throws {
        let off = try options("--encrypt-cmd", "mine", "--no-encrypt")
        XCTAssertNil(resolved(off, profile).encryptCommand)
        XCTAssertNil(resolved(off, profile).decryptCommand)
        XCTAssertEqual(
            resolved(try options("--no-encrypt", "--encrypt"), profile).encryptCommand, "env-encrypt")
        XCTAssertNil(
            resolved(try options("--encrypt-cmd", "mine", "--no-encrypt-cmd"), nil).encryptCommand)
    }

    func testEnvelopeSpec() throws {
        XCTAssertNil(resolved(try options(), profile).envelope)
        XCTAssertEqual(resolved(try options("--envelope"), nil).envelope, EnvelopeSpec())
        let configured = try XCTUnwrap(resolved(try options("--envelope"), profile).envelope)
        XCTAssertEqual(configured.statusKey, "code")
        XCTAssertEqual(configured.commonFailure, ["5"])
        let overridden = try XCTUnwrap(
            resolved(try options("--envelope", "--envelope-success", "1,ok", "--common-failure=9"), profile).envelope)
        XCTAssertEqual(overridden.success, ["1", "ok"])
        XCTAssertEqual(overridden.commonFailure, ["9"])
        XCTAssertEqual(overridden.statusKey, "code")
    }

    func testBadValues() {
        for arguments in [
            ["--envelope-success", ""], ["--envelope-success", "0,,1"], ["--encrypt-cmd", ""],
            ["--encrypted-type", ""],
        ] {
            XCTAssertThrowsError(try ArgumentParser.parse(["example.org"] + arguments), "\(arguments)") {
                XCTAssertTrue($0 is UsageError)
            }
        }
    }
}
