import AFKit
import XCTest

@testable import AFCLI

/// The encryption and envelope options, and how they combine with a config environment's
/// `encrypt`, `decrypt` and `envelope`.
final class CryptoOptionTests: XCTestCase {
    private func options(_ arguments: String...) throws -> CryptoOptions {
        try ArgumentParser.parse(["example.org"] + arguments).options.crypto
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
        XCTAssertNil(try options().encryptCommand(profile: nil))
        XCTAssertEqual(try options().encryptCommand(profile: profile), "env-encrypt")
        XCTAssertEqual(try options().decryptCommand(profile: profile), "env-decrypt")
        let given = try options("--encrypt-cmd", "mine", "--decrypt-cmd=theirs")
        XCTAssertEqual(given.encryptCommand(profile: profile), "mine")
        XCTAssertEqual(given.decryptCommand(profile: profile), "theirs")
        XCTAssertEqual(given.encryptCommand(profile: nil), "mine")
    }

    func testNoEncryptTurnsBothOffAndEncryptUndoesIt() throws {
        let off = try options("--encrypt-cmd", "mine", "--no-encrypt")
        XCTAssertNil(off.encryptCommand(profile: profile))
        XCTAssertNil(off.decryptCommand(profile: profile))
        XCTAssertEqual(try options("--no-encrypt", "--encrypt").encryptCommand(profile: profile), "env-encrypt")
        XCTAssertNil(try options("--encrypt-cmd", "mine", "--no-encrypt-cmd").encryptCommand(profile: nil))
    }

    func testEnvelopeSpec() throws {
        XCTAssertNil(try options().envelopeSpec(profile: profile))
        XCTAssertEqual(try options("--envelope").envelopeSpec(profile: nil), EnvelopeSpec())
        let configured = try XCTUnwrap(try options("--envelope").envelopeSpec(profile: profile))
        XCTAssertEqual(configured.statusKey, "code")
        XCTAssertEqual(configured.commonFailure, ["5"])
        let overridden = try XCTUnwrap(
            try options("--envelope", "--envelope-success", "1,ok", "--common-failure=9").envelopeSpec(
                profile: profile))
        XCTAssertEqual(overridden.success, ["1", "ok"])
        XCTAssertEqual(overridden.commonFailure, ["9"])
        XCTAssertEqual(overridden.statusKey, "code")
    }

    func testBadValues() {
        for arguments in [["--envelope-success", ""], ["--envelope-success", "0,,1"], ["--encrypt-cmd", ""],
            ["--encrypted-type", ""]]
        {
            XCTAssertThrowsError(try ArgumentParser.parse(["example.org"] + arguments), "\(arguments)") {
                XCTAssertTrue($0 is UsageError)
            }
        }
    }
}
