import AFKit
import XCTest

@testable import AFCLI

/// The HTTP version, routing, framing, rate and HSTS options, and how they reach TransferSettings.
final class NetworkOptionTests: XCTestCase {
    private func options(_ arguments: String...) throws -> Settings {
        try ArgumentParser.parse(["example.org"] + arguments).options
    }

    func testVersionSwitchesOverrideEachOther() throws {
        XCTAssertEqual(try options().transfer.transferSettings.httpVersion, .automatic)
        XCTAssertEqual(try options("--http1.1").transfer.transferSettings.httpVersion, .http1_1)
        XCTAssertEqual(try options("--http1.1", "--http2").transfer.transferSettings.httpVersion, .http2)
        XCTAssertEqual(
            try options("--http2-prior-knowledge").transfer.transferSettings.httpVersion, .http2PriorKnowledge)
        XCTAssertEqual(try options("--http2", "--no-http2").transfer.transferSettings.httpVersion, .automatic)
        XCTAssertEqual(try options("--http1.1", "--no-http2").transfer.transferSettings.httpVersion, .http1_1)
    }

    func testHTTP3IsRefusedWithoutLibcurlSupport() throws {
        guard !HTTPClient.supportsHTTP3 else {
            XCTAssertEqual(try options("--http3").transfer.transferSettings.httpVersion, .http3)
            return
        }
        XCTAssertThrowsError(try options("--http3")) { error in
            XCTAssertEqual(
                "\(error)",
                "--http3: libcurl \(HTTPClient.libcurlVersion) was built without HTTP/3, so afcli cannot use it")
        }
    }

    func testConnectToEntries() throws {
        let good = ["a:80:b:8080", "::b:", "[::1]:443:[fe80::1]:8443", ":::", "a::127.0.0.1:1"]
        for entry in good {
            XCTAssertEqual(
                try options("--connect-to", entry).transfer.transferSettings.network.connectTo, [entry], entry)
        }
        for bad in ["a:b:c", "a:80:b", "a:x:b:1", "a:1:b:70000", "a:1:b:1:extra", "[::1:1:b:1", "a b:1:c:2"] {
            XCTAssertThrowsError(try options("--connect-to", bad), bad) {
                XCTAssertEqual(ExitStatus(FailureClass.of(wrapped: $0)), .usage, "\($0)")
            }
        }
        XCTAssertEqual(
            try options("--connect-to", "a:1:b:2", "--connect-to", "c:3:d:4").transfer.transferSettings.network
                .connectTo,
            ["a:1:b:2", "c:3:d:4"])
    }

    func testAddressFamilyAndRouting() throws {
        XCTAssertEqual(try options("-4").transfer.transferSettings.network.addressFamily, .ipv4)
        XCTAssertEqual(try options("-4", "-6").transfer.transferSettings.network.addressFamily, .ipv6)
        XCTAssertEqual(try options("--ipv6", "--no-ipv6").transfer.transferSettings.network.addressFamily, .any)
        let routed = try options("--unix-socket", "/run/s.sock", "--interface", "lo", "--noproxy", "a,b")
            .transfer.transferSettings
        XCTAssertEqual(routed.network.unixSocket, "/run/s.sock")
        XCTAssertEqual(routed.network.interface, "lo")
        XCTAssertEqual(routed.noProxy, "a,b")
        XCTAssertThrowsError(try options("--unix-socket", "")) {
            XCTAssertEqual(ExitStatus(FailureClass.of(wrapped: $0)), .usage, "\($0)")
        }
    }

    func testLimitRateTakesCurlsSuffixes() throws {
        XCTAssertEqual(try options("--limit-rate", "100k").transfer.transferSettings.network.maxReceiveRate, 100 * 1024)
        XCTAssertEqual(try options("--limit-rate", "2M").transfer.transferSettings.network.maxReceiveRate, 2 << 20)
        XCTAssertNil(
            try options("--limit-rate", "1k", "--no-limit-rate").transfer.transferSettings.network.maxReceiveRate)
        for bad in ["", "fast", "0", "-1k"] {
            XCTAssertThrowsError(try options("--limit-rate", bad), bad) {
                XCTAssertEqual(ExitStatus(FailureClass.of(wrapped: $0)), .usage, "\($0)")
            }
        }
    }

    func testChunkedCompressAndHSTS() throws {
        XCTAssertTrue(try options("--chunked").transfer.transferSettings.network.chunked)
        XCTAssertFalse(try options().transfer.transferSettings.network.chunked)
        XCTAssertTrue(try options("-x").request.compress)
        XCTAssertFalse(try options("--compress", "--no-compress").request.compress)
        XCTAssertTrue(try options().transfer.hsts)
        XCTAssertNil(try options("--no-hsts").transfer.transferSettings.network.hstsFile)
    }
}
