import AFCurl
import Foundation
import XCTest

@testable import AFKit

/// Redirects, authentication round trips and proxies through `HTTPClient`.
final class HTTPClientRedirectTests: LoopbackServerTestCase {
    /// Follows redirects; loopback only.
    private func following(maxRedirects: Int = 30) -> TransferSettings {
        TransferSettings(follow: true, maxRedirects: maxRedirects, noProxy: "127.0.0.1")
    }

    /// Redirects `/a` to `/b` with `status`; everything else answers 200 "done".
    private static func redirecting(_ status: Int) -> HTTPClientTestServer.Handler {
        { request in
            request.target == "/a"
                ? .response(status, "Redirect", headers: [("Location", "/b")], body: Array("moved".utf8))
                : .response(200, "OK", body: Array("done".utf8))
        }
    }

    func testFound302TurnsPOSTIntoBodilessGET() throws {
        // Given
        let server = try startServer(Self.redirecting(302))
        let request = PreparedRequest(
            method: "POST", url: server.baseURL + "/a",
            headers: [
                HTTPField(name: "Content-Type", value: "application/json"), HTTPField(name: "X-Keep", value: "1"),
            ],
            body: TestBodySource(Array(#"{"a":1}"#.utf8)))
        let delegate = RecordingDelegate()

        // When
        let result = try HTTPClient(options: following()).send(request, delegate: delegate)

        // Then
        let seen = server.requests
        XCTAssertEqual(seen.map(\.method), ["POST", "GET"])
        XCTAssertEqual(seen.map(\.target), ["/a", "/b"])
        XCTAssertEqual(seen[1].body, [])
        XCTAssertNil(seen[1].header("Content-Type"))
        XCTAssertNil(seen[1].header("Content-Length"))
        XCTAssertEqual(seen[1].header("X-Keep"), "1")
        XCTAssertEqual(delegate.heads.map(\.head.statusCode), [302, 200])
        XCTAssertEqual(delegate.heads.map(\.isFinal), [false, true])
        XCTAssertEqual(delegate.chunks.filter(\.isFinal).flatMap(\.bytes), Array("done".utf8))
        XCTAssertEqual(delegate.sent.map(\.request.method), ["POST", "GET"])
        XCTAssertEqual(result.redirectCount, 1)
        XCTAssertEqual(result.url, server.baseURL + "/b")
        XCTAssertEqual(result.method, "GET")
    }

    func testTemporaryRedirect307ResendsMethodAndBody() throws {
        let server = try startServer(Self.redirecting(307))
        let bytes = Array("field=value&other=1".utf8)
        let body = TestBodySource(bytes)
        let request = PreparedRequest(
            method: "POST", url: server.baseURL + "/a",
            headers: [HTTPField(name: "Content-Type", value: "application/x-www-form-urlencoded")], body: body)

        _ = try HTTPClient(options: following()).send(request, delegate: RecordingDelegate())

        let seen = server.requests
        XCTAssertEqual(seen.map(\.method), ["POST", "POST"])
        XCTAssertEqual(seen[1].target, "/b")
        XCTAssertEqual(seen[1].body, bytes)
        XCTAssertEqual(seen[1].header("Content-Length"), String(bytes.count))
        XCTAssertEqual(seen[1].header("Content-Type"), "application/x-www-form-urlencoded")
        XCTAssertEqual(body.rewinds, 1)
    }

    func testTemporaryRedirect307WithUnreplayableBodyFailsClearly() throws {
        let server = try startServer(Self.redirecting(307))
        let request = PreparedRequest(
            method: "PUT", url: server.baseURL + "/a", headers: [],
            body: TestBodySource(Array("once".utf8), canRewind: false))

        XCTAssertThrowsError(try HTTPClient(options: following()).send(request, delegate: RecordingDelegate())) {
            error in
            guard case HTTPClientError.cannotResendBody(let status, _)? = error as? HTTPClientError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(status, 307)
            XCTAssertEqual(
                "\(error)", "cannot resend the request body after a 307 redirect: standard input cannot be read twice")
        }
    }

    func testSeeOther303TurnsPUTIntoGETButKeepsHEAD() {
        XCTAssertTrue(RedirectPolicy.changesToGET(method: "PUT", status: 303))
        XCTAssertFalse(RedirectPolicy.changesToGET(method: "HEAD", status: 303))
        XCTAssertFalse(RedirectPolicy.changesToGET(method: "PUT", status: 302))
        XCTAssertFalse(RedirectPolicy.changesToGET(method: "POST", status: 308))
    }

    func testTooManyRedirectsStopsAtTheLimit() throws {
        let server = try startServer { _ in .response(302, "Found", headers: [("Location", "/loop")]) }

        XCTAssertThrowsError(
            try HTTPClient(options: following(maxRedirects: 3)).send(
                PreparedRequest(method: "GET", url: server.baseURL + "/loop", headers: []),
                delegate: RecordingDelegate())
        ) { error in
            guard case HTTPClientError.tooManyRedirects(let limit)? = error as? HTTPClientError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(limit, 3)
        }
        XCTAssertEqual(server.requests.count, 4)
    }

    func testRedirectIsNotFollowedByDefault() throws {
        let server = try startServer(Self.redirecting(301))
        let delegate = RecordingDelegate()

        let result = try HTTPClient(options: TransferSettings(noProxy: "127.0.0.1")).send(
            PreparedRequest(method: "GET", url: server.baseURL + "/a", headers: []), delegate: delegate)

        XCTAssertEqual(result.statusCode, 301)
        XCTAssertEqual(result.outcome.redirectURL, server.baseURL + "/b")
        XCTAssertEqual(delegate.heads.map(\.isFinal), [true])
        XCTAssertEqual(delegate.body(hop: 0), Array("moved".utf8))
        XCTAssertEqual(server.requests.count, 1)
    }

    func testCredentialsAreDroppedWhenTheOriginChanges() throws {
        let target = try startServer { _ in .response(200, "OK") }
        let origin = try startServer { request in
            request.target == "/same"
                ? .response(302, "Found", headers: [("Location", "/other")])
                : .response(302, "Found", headers: [("Location", target.baseURL + "/landed")])
        }
        let request = PreparedRequest(
            method: "GET", url: origin.baseURL + "/same",
            headers: [
                HTTPField(name: "Authorization", value: "Bearer secret"), HTTPField(name: "Cookie", value: "a=b"),
            ])

        _ = try HTTPClient(options: following()).send(request, delegate: RecordingDelegate())

        XCTAssertEqual(origin.requests.map(\.target), ["/same", "/other"])
        XCTAssertEqual(origin.requests[1].header("Authorization"), "Bearer secret", "same origin keeps credentials")
        let landed = try XCTUnwrap(target.requests.first)
        XCTAssertEqual(landed.target, "/landed")
        XCTAssertNil(landed.header("Authorization"))
        XCTAssertNil(landed.header("Cookie"))
    }

    func testTheAuthenticationStagesRunAgainForTheSameOriginAndTheirHeadersStayOffAnother() throws {
        let target = try startServer { _ in .response(200, "OK") }
        let origin = try startServer { request in
            request.target == "/same"
                ? .response(302, "Found", headers: [("Location", "/other")])
                : .response(302, "Found", headers: [("Location", target.baseURL + "/landed")])
        }
        var request = PreparedRequest(method: "GET", url: origin.baseURL + "/same", headers: [])
        let stages = RequestAuthentication(command: AuthCommand(command: "echo \"X-For: $AFCLI_URL\""), signer: nil)
        try RequestAuthentication.apply(stages, to: &request)

        _ = try HTTPClient(options: following()).send(request, delegate: RecordingDelegate())

        XCTAssertEqual(origin.requests.map { $0.header("X-For") }, [origin.baseURL + "/same", origin.baseURL + "/other"])
        let landed = try XCTUnwrap(target.requests.first)
        XCTAssertNil(landed.header("X-For"))
    }

    // MARK: - Digest

    func testDigestChallengeIsAnsweredAndOnlyTheFinalHeadIsReported() throws {
        let server = try startServer { request in
            guard let authorization = request.header("Authorization"), authorization.hasPrefix("Digest ") else {
                return .response(
                    401, "Unauthorized",
                    headers: [("WWW-Authenticate", #"Digest realm="afcli", nonce="abc123", qop="auth""#)],
                    body: Array("challenge".utf8))
            }
            return .response(200, "OK", body: Array("secret data".utf8))
        }
        let delegate = RecordingDelegate()
        let request = PreparedRequest(
            method: "GET", url: server.baseURL + "/digest", headers: [],
            digestCredentials: (user: "ann", password: "pw"))

        let result = try HTTPClient(options: TransferSettings(noProxy: "127.0.0.1", verbose: true))
            .send(request, delegate: delegate)

        XCTAssertEqual(server.requests.count, 2)
        XCTAssertTrue(server.requests[1].header("Authorization")?.hasPrefix(#"Digest username="ann""#) == true)
        XCTAssertEqual(delegate.heads.map(\.head.statusCode), [200])
        XCTAssertEqual(delegate.body(hop: 0), Array("secret data".utf8))
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(delegate.sent.count, 1)
        XCTAssertTrue(delegate.sent[0].request.rawHead?.contains("Authorization: Digest") == true)
    }

    // MARK: - Proxies

    func testLowercaseEnvironmentProxyIsHonouredByDefault() throws {
        let proxy = try startServer { _ in .response(200, "OK", body: Array("via proxy".utf8)) }
        setenv("http_proxy", proxy.baseURL, 1)
        defer { unsetenv("http_proxy") }
        let delegate = RecordingDelegate()

        _ = try HTTPClient(options: TransferSettings()).send(
            PreparedRequest(method: "GET", url: "http://afcli-test.invalid/x", headers: []), delegate: delegate)

        XCTAssertEqual(proxy.requests.first?.target, "http://afcli-test.invalid/x")
        XCTAssertEqual(delegate.body(hop: 0), Array("via proxy".utf8))
    }

    func testExplicitProxyForTheSchemeIsUsed() throws {
        let proxy = try startServer { _ in .response(204, "No Content") }
        var options = TransferSettings()
        options.proxies = [
            ProxySetting(url: "http://127.0.0.1:9", scope: "https"), ProxySetting(url: proxy.baseURL, scope: "http"),
        ]

        let result = try HTTPClient(options: options).send(
            PreparedRequest(method: "GET", url: "http://afcli-test.invalid/y", headers: []),
            delegate: RecordingDelegate())

        XCTAssertEqual(result.statusCode, 204)
        XCTAssertEqual(proxy.requests.first?.target, "http://afcli-test.invalid/y")
    }
}
