import AFCurl
import Foundation
import XCTest

@testable import AFKit

/// libcurl's cookie engine, netrc and `--location-trusted` through `HTTPClient`.
final class HTTPClientCookieTests: XCTestCase {
    private var servers: [HTTPClientTestServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    private func startServer(_ handler: @escaping HTTPClientTestServer.Handler) throws -> HTTPClientTestServer {
        let server = try HTTPClientTestServer(handler: handler)
        servers.append(server)
        return server
    }

    func testEngineSendsCookiesOnlyToTheirDomainAndReportsNewOnes() throws {
        let server = try startServer { request in
            request.target == "/set"
                ? .response(302, "Found", headers: [("Set-Cookie", "new=2; Path=/"), ("Location", "/next")])
                : .response(200, "OK")
        }
        var options = TransferSettings(follow: true, noProxy: "127.0.0.1")
        options.cookies = CookieSettings(lines: [
            "127.0.0.1\tFALSE\t/\tFALSE\t0\tmine\t1", "elsewhere.test\tFALSE\t/\tFALSE\t0\ttheirs\t9",
        ])
        let result = try HTTPClient(options: options).send(
            PreparedRequest(method: "GET", url: server.baseURL + "/set", headers: []), delegate: RecordingDelegate())

        XCTAssertEqual(server.requests[0].header("Cookie"), "mine=1")
        XCTAssertEqual(server.requests[1].header("Cookie"), "mine=1; new=2", "a cookie set on one hop goes on the next")
        XCTAssertEqual(
            Set(result.cookieLines),
            [
                "127.0.0.1\tFALSE\t/\tFALSE\t0\tmine\t1", "elsewhere.test\tFALSE\t/\tFALSE\t0\ttheirs\t9",
                "127.0.0.1\tFALSE\t/\tFALSE\t0\tnew\t2",
            ])
        XCTAssertTrue(result.cookiesChanged)
    }

    func testCookiesFromTheFileThatComeBackUnchangedAreNotAChange() throws {
        let server = try startServer { _ in .response(200, "OK") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("afkit-jar-\(UUID().uuidString)")
        try Data("127.0.0.1\tFALSE\t/\tFALSE\t0\tmine\t1\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var options = TransferSettings(noProxy: "127.0.0.1")
        options.cookies = CookieSettings(file: file.path)
        let result = try HTTPClient(options: options).send(
            PreparedRequest(method: "GET", url: server.baseURL + "/", headers: []), delegate: RecordingDelegate())
        XCTAssertEqual(result.cookieLines, ["127.0.0.1\tFALSE\t/\tFALSE\t0\tmine\t1"])
        XCTAssertFalse(result.cookiesChanged)
    }

    func testEngineStaysOffWithoutCookieSettings() throws {
        let server = try startServer { _ in .response(200, "OK", headers: [("Set-Cookie", "a=1")]) }
        let client = HTTPClient(options: TransferSettings(noProxy: "127.0.0.1"))
        let request = PreparedRequest(method: "GET", url: server.baseURL + "/", headers: [])
        XCTAssertEqual(try client.send(request, delegate: RecordingDelegate()).cookieLines, [])
        _ = try client.send(request, delegate: RecordingDelegate())
        XCTAssertNil(server.requests[1].header("Cookie"))
    }

    func testNetrcAnswersOnlyRequestsWithoutCredentials() throws {
        let server = try startServer { _ in .response(200, "OK") }
        let netrc = FileManager.default.temporaryDirectory.appendingPathComponent("afkit-netrc-\(UUID().uuidString)")
        try Data("machine 127.0.0.1 login nu password np\n".utf8).write(to: netrc)
        defer { try? FileManager.default.removeItem(at: netrc) }
        var options = TransferSettings(noProxy: "127.0.0.1")
        options.netrcFile = netrc.path
        let client = HTTPClient(options: options)
        _ = try client.send(
            PreparedRequest(method: "GET", url: server.baseURL + "/", headers: []), delegate: RecordingDelegate())
        _ = try client.send(
            PreparedRequest(
                method: "GET", url: server.baseURL + "/",
                headers: [HTTPField(name: "Authorization", value: "Bearer mine")]),
            delegate: RecordingDelegate())
        XCTAssertEqual(server.requests[0].header("Authorization"), "Basic bnU6bnA=")
        XCTAssertEqual(server.requests[1].header("Authorization"), "Bearer mine")
    }

    func testLocationTrustedKeepsCredentialsAcrossOrigins() throws {
        let target = try startServer { _ in .response(200, "OK") }
        let origin = try startServer { _ in .response(302, "Found", headers: [("Location", target.baseURL + "/landed")])
        }
        var options = TransferSettings(follow: true, noProxy: "127.0.0.1")
        options.locationTrusted = true
        let request = PreparedRequest(
            method: "GET", url: origin.baseURL + "/",
            headers: [
                HTTPField(name: "Authorization", value: "Bearer secret"), HTTPField(name: "Cookie", value: "a=b"),
            ])
        _ = try HTTPClient(options: options).send(request, delegate: RecordingDelegate())
        let landed = try XCTUnwrap(target.requests.first)
        XCTAssertEqual(landed.header("Authorization"), "Bearer secret")
        XCTAssertEqual(landed.header("Cookie"), "a=b")
    }
}
