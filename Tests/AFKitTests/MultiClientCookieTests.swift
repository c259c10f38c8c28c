import AFCurl
import Foundation
import XCTest

@testable import AFKit

/// The one cookie engine every exchange of a `MultiClient` shares (libcurl's share interface).
final class MultiClientCookieTests: LoopbackServerTestCase {
    /// Starts a GET of `path` on `client` and runs it to its end.
    private func send(
        _ client: MultiClient, _ url: String, sendsCookies: Bool = true
    ) throws -> HTTPClientResult {
        try client.start(
            PreparedRequest(method: "GET", url: url, headers: []), options: options(), delegate: RecordingDelegate(),
            tag: 0, readyAt: FileIO.monotonicSeconds(), sendsCookies: sendsCookies)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let finished = try client.wait(timeoutMilliseconds: 100).first { return try finished.result.get() }
        }
        throw CurlError(kind: .other, description: "the exchange did not end in 20 s")
    }

    func testACookieSetByOneExchangeIsSentByTheNextAndOnlyToItsDomain() throws {
        // Given
        let server = try startServer { request in
            request.target == "/login"
                ? .response(200, "OK", headers: [("Set-Cookie", "sid=1; Path=/")]) : .response(200, "OK")
        }
        let client = try MultiClient(
            cookies: CookieSettings(lines: ["elsewhere.test\tFALSE\t/\tFALSE\t0\ttheirs\t9"]))

        // When
        _ = try send(client, server.baseURL + "/login")
        _ = try send(client, server.baseURL + "/me")
        _ = try send(client, server.baseURL + "/quiet", sendsCookies: false)
        _ = try send(client, server.baseURL + "/again")

        // Then
        XCTAssertEqual(server.requests.map { $0.header("Cookie") }, [nil, "sid=1", nil, "sid=1"])
        let lines = client.cookieLines
        XCTAssertEqual(
            Set(lines),
            ["elsewhere.test\tFALSE\t/\tFALSE\t0\ttheirs\t9", "127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\t1"])
        XCTAssertTrue(client.cookiesChanged(lines))
        XCTAssertEqual(client.cookieHeader(for: server.baseURL + "/x"), "sid=1")
        XCTAssertNil(client.cookieHeader(for: "http://localhost:1/x"))
    }

    func testAnExchangeThatOptsOutStoresNoCookie() throws {
        // Given
        let server = try startServer { _ in .response(200, "OK", headers: [("Set-Cookie", "sid=1; Path=/")]) }
        let client = try MultiClient()

        // When
        _ = try send(client, server.baseURL + "/login", sendsCookies: false)

        // Then
        XCTAssertEqual(client.cookieLines, [])
        XCTAssertFalse(client.cookiesChanged([]))
    }
}
