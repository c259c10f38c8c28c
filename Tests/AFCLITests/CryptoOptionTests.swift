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

    func testCommandsComeFromTheOptionsElseTheEnvironment() throws {
        XCTAssertNil(SettingsResolver(try options(), profile: nil).encryptCommand)
        XCTAssertEqual(SettingsResolver(try options(), profile: profile).encryptCommand, "env-encrypt")
        XCTAssertEqual(SettingsResolver(try options(), profile: profile).decryptCommand, "env-decrypt")
        let given = try options("--encrypt-cmd", "mine", "--decrypt-cmd=theirs")
        XCTAssertEqual(SettingsResolver(given, profile: profile).encryptCommand, "mine")
        XCTAssertEqual(SettingsResolver(given, profile: profile).decryptCommand, "theirs")
        XCTAssertEqual(SettingsResolver(given, profile: nil).encryptCommand, "mine")
    }

    func testNoEncryptTurnsBothOffAndEncryptUndoesIt() throws {
        let off = try options("--encrypt-cmd", "mine", "--no-encrypt")
        XCTAssertNil(SettingsResolver(off, profile: profile).encryptCommand)
        XCTAssertNil(SettingsResolver(off, profile: profile).decryptCommand)
        XCTAssertEqual(
            SettingsResolver(try options("--no-encrypt", "--encrypt"), profile: profile).encryptCommand, "env-encrypt")
        XCTAssertNil(
            SettingsResolver(try options("--encrypt-cmd", "mine", "--no-encrypt-cmd"), profile: nil).encryptCommand)
    }

    func testEnvelopeSpec() throws {
        XCTAssertNil(SettingsResolver(try options(), profile: profile).envelope)
        XCTAssertEqual(SettingsResolver(try options("--envelope"), profile: nil).envelope, EnvelopeSpec())
        let configured = try XCTUnwrap(SettingsResolver(try options("--envelope"), profile: profile).envelope)
        XCTAssertEqual(configured.statusKey, "code")
        XCTAssertEqual(configured.commonFailure, ["5"])
        let overridden = try XCTUnwrap(
            SettingsResolver(
                try options("--envelope", "--envelope-success", "1,ok", "--common-failure=9"), profile: profile
            ).envelope)
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
