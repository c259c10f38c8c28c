import CCurlShim
import XCTest

@testable import AFCurl
@testable import AFKit

/// The limits a response is held to (header size, body size, expansion, idle time), bodies that
/// are cut short on purpose, and refused redirects.
final class TransferLimitsTests: LoopbackServerTestCase {
    private func feed(_ parser: inout ResponseHeadParser, _ line: String) -> ResponseHeadParser.Event {
        Array(line.utf8).withUnsafeBytes { parser.feed($0) }
    }

    private func violation(_ event: ResponseHeadParser.Event) -> ResponseLimitViolation? {
        if case .limitExceeded(let violation) = event { return violation }
        return nil
    }

    // MARK: - Head parser limits

    func testAHeadWithTheMostFieldsAllowedCompletes() {
        var parser = ResponseHeadParser()
        XCTAssertNil(violation(feed(&parser, "HTTP/1.1 200 OK\r\n")))
        for index in 0..<1000 {
            XCTAssertNil(violation(feed(&parser, "X-\(index): v\r\n")))
        }
        guard case .completed(let head) = feed(&parser, "\r\n") else { return XCTFail("the head did not complete") }
        XCTAssertEqual(head.headers.count, 1000)
    }

    func testOneFieldMoreThanTheLimitIsRefused() {
        var parser = ResponseHeadParser()
        _ = feed(&parser, "HTTP/1.1 200 OK\r\n")
        for index in 0..<1000 { _ = feed(&parser, "X-\(index): v\r\n") }
        XCTAssertEqual(violation(feed(&parser, "X-1000: v\r\n")), .headerCount(limit: 1000))
    }

    func testTheFieldCountStartsAgainWithEveryHead() {
        var parser = ResponseHeadParser()
        for _ in 0..<3 {
            _ = feed(&parser, "HTTP/1.1 100 Continue\r\n")
            for index in 0..<600 { XCTAssertNil(violation(feed(&parser, "X-\(index): v\r\n"))) }
            _ = feed(&parser, "\r\n")
        }
    }

    func testAHeadOfMoreThanOneMebibyteIsRefused() {
        var parser = ResponseHeadParser()
        _ = feed(&parser, "HTTP/1.1 200 OK\r\n")
        let value = String(repeating: "v", count: 50 * 1024)
        var last: ResponseLimitViolation?
        for index in 0..<30 where last == nil {
            last = violation(feed(&parser, "X-\(index): \(value)\r\n"))
        }
        XCTAssertEqual(last, .headSize(limit: 1024 * 1024))
    }

    func testALineLongerThanLibcurlsLimitIsRefused() {
        var parser = ResponseHeadParser()
        _ = feed(&parser, "HTTP/1.1 200 OK\r\n")
        let line = "X-Long: " + String(repeating: "v", count: 100 * 1024) + "\r\n"
        XCTAssertEqual(violation(feed(&parser, line)), .headerLineLength(limit: 100 * 1024))
    }

    // MARK: - Body limits

    func testBodySizeLimitCountsDecodedBytes() {
        let limits = ResponseLimits(maxBodyBytes: 100, maxExpansionRatio: nil)
        XCTAssertNil(limits.violation(decoded: 100, received: 1))
        XCTAssertEqual(limits.violation(decoded: 101, received: 101), .bodySize(limit: 100))
    }

    func testExpansionRatioIsCheckedOnlyPastTheThreshold() {
        let limits = ResponseLimits()
        let threshold = ResponseLimits.expansionCheckThreshold
        XCTAssertNil(limits.violation(decoded: threshold, received: 1))
        XCTAssertNil(limits.violation(decoded: threshold + 1, received: (threshold + 1) / 200))
        XCTAssertEqual(limits.violation(decoded: threshold + 1, received: 1000), .expansionRatio(limit: 200))
        XCTAssertNil(ResponseLimits(maxExpansionRatio: nil).violation(decoded: 1 << 40, received: 1))
    }

    func testBodyOverTheLimitFailsTheTransfer() throws {
        let body = [UInt8](repeating: 0x61, count: 3000)
        let server = try startServer { _ in .chunked([body, body], delay: 0) }
        let client = HTTPClient(options: options { $0.limits = ResponseLimits(maxBodyBytes: 4000) })
        XCTAssertThrowsError(
            try client.send(
                PreparedRequest(method: "GET", url: server.baseURL + "/", headers: []), delegate: Recorder())
        ) { error in
            XCTAssertEqual((error as? CurlError)?.kind, .limitExceeded)
            XCTAssertEqual((error as? CurlError)?.limitViolation, .bodySize(limit: 4000))
        }
    }

    // MARK: - Idle timeout

    func testIdleTimeoutFailsAStalledServer() throws {
        let server = try startServer { _ in HTTPClientTestServer.Reply(pieces: [], stall: 5) }
        let client = HTTPClient(options: options { $0.idleTimeout = 0.3 })
        let started = Date()
        XCTAssertThrowsError(
            try client.send(
                PreparedRequest(method: "GET", url: server.baseURL + "/", headers: []), delegate: Recorder())
        ) { error in
            XCTAssertEqual((error as? CurlError)?.kind, .timeout)
            XCTAssertEqual((error as? CurlError)?.description, "timed out: no data received or sent for 0.3 seconds")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testIdleTimeoutAllowsASlowButSteadyBody() throws {
        let chunks = (0..<4).map { _ in [UInt8]("x".utf8) }
        let server = try startServer { _ in .chunked(chunks, delay: 0.25) }
        let client = HTTPClient(options: options { $0.idleTimeout = 1 })
        let recorder = Recorder()
        let result = try client.send(
            PreparedRequest(method: "GET", url: server.baseURL + "/", headers: []), delegate: recorder)
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(recorder.body, Array("xxxx".utf8))
    }

    // MARK: - Bodies cut short on purpose

    func testADelegateThatNeedsNoBodyEndsTheExchangeAsComplete() throws {
        let chunks = (0..<100).map { _ in [UInt8](repeating: 0x62, count: 1000) }
        let server = try startServer { _ in .chunked(chunks, delay: 0.05) }
        let recorder = Recorder()
        recorder.needsBody = false
        let started = Date()
        let result = try HTTPClient(options: options()).send(
            PreparedRequest(method: "GET", url: server.baseURL + "/", headers: []), delegate: recorder)
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertTrue(recorder.body.isEmpty)
        XCTAssertEqual(recorder.finished, 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5, "100 chunks 0.05 s apart were read")
    }

    // MARK: - Redirects

    func testARedirectToAnotherSchemeIsRefused() throws {
        let server = try startServer { _ in .response(302, "Found", headers: [("Location", "file:///etc/passwd")]) }
        let client = HTTPClient(options: options { $0.follow = true })
        XCTAssertThrowsError(
            try client.send(
                PreparedRequest(method: "GET", url: server.baseURL + "/", headers: []), delegate: Recorder())
        ) { error in
            guard case .refusedRedirect(let target)? = error as? HTTPClientError else { return XCTFail("\(error)") }
            XCTAssertEqual(target, "file:///etc/passwd")
            XCTAssertEqual(
                "\(error)", "refusing to follow a redirect to file:///etc/passwd (only http and https)")
        }
    }

    func testOnlyRedirectsFromHTTPSToHTTPAreAnnouncedAsInsecure() throws {
        let server = try startServer { request in
            request.target == "/from" ? .response(302, "Found", headers: [("Location", "/to")]) : .response(200, "OK")
        }
        let recorder = Recorder()
        _ = try HTTPClient(options: options { $0.follow = true }).send(
            PreparedRequest(method: "GET", url: server.baseURL + "/from", headers: []), delegate: recorder)
        XCTAssertEqual(recorder.finished, 2)
        XCTAssertTrue(recorder.insecureRedirects.isEmpty, "http to http is no downgrade")
        XCTAssertTrue(RedirectPolicy.isDowngrade(from: "https://a.test/", to: "http://a.test/"))
        XCTAssertFalse(RedirectPolicy.isDowngrade(from: "http://a.test/", to: "https://a.test/"))
        XCTAssertFalse(RedirectPolicy.isDowngrade(from: "https://a.test/", to: "https://b.test/"))
    }

    // MARK: - URLs

    func testDotSegmentsAreRemovedAsLibcurlDoes() throws {
        XCTAssertEqual(try RequestURL.make(from: "example.org/a/../b"), "http://example.org/b")
        XCTAssertEqual(try RequestURL.make(from: "example.org/a/./b/.."), "http://example.org/a/")
        XCTAssertEqual(try RequestURL.make(from: "example.org/../../x?q=/../y"), "http://example.org/x?q=/../y")
        XCTAssertEqual(try RequestURL.make(from: "/c/../d", baseURL: "http://h.test/a/./b"), "http://h.test/d")
        XCTAssertEqual(try RequestURL.make(from: "?q=1", baseURL: "http://h.test/a/../b"), "http://h.test/b/?q=1")
    }

    func testUnicodeHostsBecomeALabels() throws {
        XCTAssertEqual(try RequestURL.make(from: "bücher.example:3000/x"), "http://xn--bcher-kva.example:3000/x")
        XCTAssertEqual(try RequestURL.make(from: "https://BÜCHER.example/"), "https://xn--bcher-kva.example/")
        XCTAssertEqual(try RequestURL.make(from: "http://例え.テスト/"), "http://xn--r8jz45g.xn--zckzah/")
        XCTAssertEqual(try RequestURL.make(from: "http://Example.ORG/"), "http://Example.ORG/", "ASCII is left alone")
        XCTAssertEqual(RequestURL.asciiHost("bücher.example"), "xn--bcher-kva.example")
    }

    func testAnInvalidInternationalizedNameIsBadInput() {
        XCTAssertThrowsError(try RequestURL.make(from: "http://a\u{200D}b-.example/")) { error in
            XCTAssertTrue("\(error)".contains("not a valid internationalized domain name"), "\(error)")
        }
    }
}

/// Records what the tests need: the final body, finished responses and followed redirects.
private final class Recorder: HTTPClientDelegate {
    var body: [UInt8] = []
    var finished = 0
    var needsBody = true
    var insecureRedirects: [String] = []

    func willSend(hop: Int, request: SentRequest) throws {}
    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {}
    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        if isFinal { body.append(contentsOf: chunk) }
    }
    func didFinishResponse(hop: Int, isFinal: Bool) throws { finished += 1 }
    func needsMoreFinalBody() -> Bool { needsBody }
    func willFollowInsecureRedirect(hop: Int, to: String) { insecureRedirects.append(to) }
}

/// Error texts read in one casing: lower case, errno texts from libcurl included.
final class ErrorCasingTests: XCTestCase {
    func testErrnoTextsQuotedByLibcurlAreLowerCased() {
        XCTAssertEqual(
            CurlError(code: CURLE_SEND_ERROR, errorBuffer: "Send failure: Broken pipe").description,
            "send failure: broken pipe")
        XCTAssertEqual(
            CurlError(code: CURLE_RECV_ERROR, errorBuffer: "Recv failure: Connection reset by peer").description,
            "recv failure: connection reset by peer")
        XCTAssertEqual(
            CurlError(code: CURLE_COULDNT_RESOLVE_HOST, errorBuffer: "Could not resolve host: Example.ORG").description,
            "could not resolve host: Example.ORG", "only errno texts change")
    }
}
