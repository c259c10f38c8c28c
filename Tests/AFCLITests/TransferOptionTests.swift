import AFKit
import XCTest

@testable import AFCLI

/// The timeout and response-limit options, and how they reach the client's settings.
final class TransferOptionTests: XCTestCase {
    private func options(_ arguments: String...) throws -> Settings {
        try ArgumentParser.parse(["example.org"] + arguments).options
    }

    func testTimeoutIsIdleAndMaxTimeIsTotal() throws {
        let client = try options("--timeout", "5", "--max-time", "30").transfer.transferSettings
        XCTAssertEqual(client.idleTimeout, 5)
        XCTAssertEqual(client.totalTimeout, 30)
        XCTAssertNil(try options().transfer.transferSettings.idleTimeout)
        XCTAssertNil(try options().transfer.transferSettings.totalTimeout)
        XCTAssertNil(try options("--max-time", "3", "--no-max-time").transfer.maxTime)
    }

    func testDownloadWithRetryGetsADefaultIdleTimeout() throws {
        func download(_ arguments: String...) throws -> TransferSettings {
            let parsed = try ArgumentParser.parse(["download", "example.org/f"] + arguments)
            return try EngineStack.downloadSettings(
                options: parsed.options, environment: [:], urls: ["http://example.org/f"])
        }
        XCTAssertEqual(try download("--retry", "3").idleTimeout, 60)
        XCTAssertEqual(try download("--retry", "3", "--timeout", "7").idleTimeout, 7)
        XCTAssertNil(try download().idleTimeout)
    }

    func testCredentialsReachAsTheOptionsSay() throws {
        let plain = try options().transferSettings(netrcFile: "/home/u/.netrc")
        XCTAssertEqual(plain.netrcFile, "/home/u/.netrc")
        XCTAssertFalse(plain.locationTrusted)
        XCTAssertNil(try options("--ignore-netrc").transferSettings(netrcFile: "/home/u/.netrc").netrcFile)
        XCTAssertTrue(try options("--location-trusted").transferSettings(netrcFile: nil).locationTrusted)
        // The rest is the transfer group's.
        XCTAssertEqual(try options("--timeout", "5").transferSettings(netrcFile: nil).idleTimeout, 5)
    }

    func testMaxFilesizeTakesCurlsSuffixes() throws {
        XCTAssertEqual(try options("--max-filesize", "1000").transfer.maxFilesize, 1000)
        XCTAssertEqual(try options("--max-filesize", "500k").transfer.maxFilesize, 500 * 1024)
        XCTAssertEqual(try options("--max-filesize", "2M").transfer.maxFilesize, 2 << 20)
        XCTAssertEqual(try options("--max-filesize", "1g").transfer.maxFilesize, 1 << 30)
        for bad in ["", "k", "0", "-1", "1.5m", "1t", "99999999999999999999"] {
            XCTAssertThrowsError(try options("--max-filesize", bad), bad) {
                XCTAssertEqual(ExitStatus(FailureClass.of(wrapped: $0)), .usage, "\($0)")
            }
        }
        XCTAssertEqual(try options("--max-filesize", "4k").transfer.transferSettings.limits.maxBodyBytes, 4096)
    }

    func testMaxExpansionDefaultsAndTurnsOff() throws {
        XCTAssertEqual(try options().transfer.transferSettings.limits.maxExpansionRatio, 200)
        XCTAssertEqual(try options("--max-expansion", "50").transfer.transferSettings.limits.maxExpansionRatio, 50)
        XCTAssertNil(try options("--max-expansion", "0").transfer.transferSettings.limits.maxExpansionRatio)
        XCTAssertThrowsError(try options("--max-expansion", "-3")) {
            XCTAssertEqual(ExitStatus(FailureClass.of(wrapped: $0)), .usage, "\($0)")
        }
    }

    func testResolveEntriesTakeUnicodeHostNames() throws {
        XCTAssertEqual(
            try options("--resolve", "bücher.example:443:127.0.0.1").tls.resolve,
            ["xn--bcher-kva.example:443:127.0.0.1"])
    }
}
