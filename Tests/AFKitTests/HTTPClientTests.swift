import AFCurl
import Foundation
import XCTest

@testable import AFKit

/// End-to-end tests of `HTTPClient` over libcurl against a loopback server started per test.
final class HTTPClientTests: LoopbackServerTestCase {
    private static let ok = HTTPClientTestServer.Reply.response(200, "OK", body: Array("done".utf8))

    // MARK: - Requests

    func testGETSendsCustomHeadersEmptyHeadersAndRemovals() throws {
        // Given
        let server = try startServer { _ in Self.ok }
        let request = PreparedRequest(
            method: "GET", url: server.baseURL + "/get?a=1",
            headers: [HTTPField(name: "X-Custom", value: "one"), HTTPField(name: "X-Empty", value: "")],
            removedHeaders: ["Accept"])
        let delegate = RecordingDelegate()

        // When
        let result = try HTTPClient(options: options { $0.verbose = true }).send(request, delegate: delegate)

        // Then
        let seen = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(seen.method, "GET")
        XCTAssertEqual(seen.target, "/get?a=1")
        XCTAssertEqual(seen.header("X-Custom"), "one")
        XCTAssertEqual(seen.header("X-Empty"), "")
        XCTAssertNil(seen.header("Accept"))
        XCTAssertNil(seen.header("Content-Length"))
        XCTAssertNil(seen.header("Transfer-Encoding"))
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(result.reasonPhrase, "OK")
        XCTAssertEqual(result.head.httpVersion, "HTTP/1.1")
        XCTAssertEqual(delegate.body(hop: 0), Array("done".utf8))
        let rawHead = try XCTUnwrap(delegate.sent.first?.request.rawHead)
        XCTAssertTrue(rawHead.hasPrefix("GET /get?a=1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"), rawHead)
        XCTAssertTrue(rawHead.contains("\r\nX-Empty:\r\n"), rawHead)
        XCTAssertTrue(rawHead.hasSuffix("\r\n\r\n"))
        XCTAssertEqual(delegate.finished.map(\.isFinal), [true])
    }

    func testPOSTSendsExactBytesWithContentLengthAndNoExpect() throws {
        let server = try startServer { _ in Self.ok }
        let bytes: [UInt8] =
            [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x31, 0x7D, 0x00, 0xFF, 0x0A] + Array(repeating: 0x41, count: 3000)
        let request = PreparedRequest(
            method: "POST", url: server.baseURL + "/post",
            headers: [HTTPField(name: "Content-Type", value: "application/json")], body: TestBodySource(bytes))

        _ = try HTTPClient(options: options()).send(request, delegate: RecordingDelegate())

        let seen = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(seen.method, "POST")
        XCTAssertEqual(seen.header("Content-Length"), String(bytes.count))
        XCTAssertEqual(seen.header("Content-Type"), "application/json")
        XCTAssertNil(seen.header("Expect"))
        XCTAssertNil(seen.header("Transfer-Encoding"))
        XCTAssertEqual(seen.body, bytes)
    }

    func testBodyOfUnknownLengthIsSentChunked() throws {
        let server = try startServer { _ in Self.ok }
        let bytes = Array("streamed from somewhere without a size".utf8)
        let request = PreparedRequest(
            method: "PUT", url: server.baseURL + "/put", headers: [],
            body: TestBodySource(bytes, reportsLength: false))

        _ = try HTTPClient(options: options()).send(request, delegate: RecordingDelegate())

        let seen = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(seen.method, "PUT")
        XCTAssertEqual(seen.header("Transfer-Encoding"), "chunked")
        XCTAssertNil(seen.header("Content-Length"))
        XCTAssertNil(seen.header("Expect"))
        XCTAssertEqual(seen.body, bytes)
    }

    func testEmptyBodiesSendContentLengthZeroButBodilessDELETEDoesNot() throws {
        let server = try startServer { _ in Self.ok }
        let client = HTTPClient(options: options())

        _ = try client.send(
            PreparedRequest(method: "PATCH", url: server.baseURL + "/a", headers: [], body: TestBodySource([])),
            delegate: RecordingDelegate())
        _ = try client.send(
            PreparedRequest(method: "POST", url: server.baseURL + "/b", headers: []), delegate: RecordingDelegate())
        _ = try client.send(
            PreparedRequest(method: "DELETE", url: server.baseURL + "/c", headers: []), delegate: RecordingDelegate())

        let seen = server.requests
        XCTAssertEqual(seen.map(\.method), ["PATCH", "POST", "DELETE"])
        XCTAssertEqual(seen[0].header("Content-Length"), "0")
        XCTAssertEqual(seen[1].header("Content-Length"), "0")
        XCTAssertNil(seen[1].header("Content-Type"))
        XCTAssertNil(seen[2].header("Content-Length"))
        XCTAssertEqual(server.connectionCount, 1, "the handle keeps the connection alive between requests")
    }

    func testHEADReportsHeadersAndNoBody() throws {
        let server = try startServer { _ in
            HTTPClientTestServer.Reply(pieces: [Array("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\nX-A: b\r\n\r\n".utf8)]
            )
        }
        let delegate = RecordingDelegate()

        let result = try HTTPClient(options: options()).send(
            PreparedRequest(method: "HEAD", url: server.baseURL + "/head", headers: []), delegate: delegate)

        XCTAssertEqual(server.requests.first?.method, "HEAD")
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(result.head.value(for: "content-length"), "1234")
        XCTAssertEqual(result.head.headers.map(\.name), ["Content-Length", "X-A"])
        XCTAssertEqual(delegate.chunkCount(hop: 0), 0)
    }

    // MARK: - Responses

    func testGzipResponseIsDecodedTransparently() throws {
        // `printf 'hello, transparently decoded gzip\n' | gzip -n -9`
        let gzipped: [UInt8] = [
            31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 203, 72, 205, 201, 201, 215, 81, 40, 41, 74, 204, 43, 46, 72, 44, 74,
            205, 43, 201, 169, 84, 72, 73, 77, 206, 79, 73, 77, 81, 72, 175, 202, 44, 224, 2, 0, 131, 223, 104, 46,
            34, 0, 0, 0,
        ]
        let server = try startServer { _ in
            .response(200, "OK", headers: [("Content-Encoding", "gzip")], body: gzipped)
        }
        let delegate = RecordingDelegate()

        let result = try HTTPClient(options: options { $0.acceptEncoding = HTTPClient.supportedAcceptEncoding })
            .send(PreparedRequest(method: "GET", url: server.baseURL, headers: []), delegate: delegate)

        XCTAssertTrue(HTTPClient.supportedAcceptEncoding.hasPrefix("gzip, deflate"))
        XCTAssertEqual(server.requests.first?.header("Accept-Encoding"), HTTPClient.supportedAcceptEncoding)
        XCTAssertEqual(String(decoding: delegate.body(hop: 0), as: UTF8.self), "hello, transparently decoded gzip\n")
        XCTAssertEqual(result.head.value(for: "Content-Encoding"), "gzip", "headers stay as received")
    }

    func testInterimResponsesAreSkippedAndRepeatedHeadersKeptInOrder() throws {
        let server = try startServer { _ in
            HTTPClientTestServer.Reply(pieces: [
                Array("HTTP/1.1 100 Continue\r\n\r\n".utf8),
                Array("HTTP/1.1 201 Created\r\nSet-Cookie: a=1\r\nX-Folded: one\r\n two\r\nSet-Cookie: b=2\r\n".utf8)
                    + Array("Content-Length: 2\r\n\r\nok".utf8),
            ])
        }
        let delegate = RecordingDelegate()

        let result = try HTTPClient(options: options()).send(
            PreparedRequest(method: "GET", url: server.baseURL, headers: []), delegate: delegate)

        XCTAssertEqual(delegate.heads.map(\.head.statusCode), [201])
        XCTAssertEqual(result.reasonPhrase, "Created")
        XCTAssertEqual(result.head.values(for: "set-cookie"), ["a=1", "b=2"])
        XCTAssertEqual(result.head.value(for: "X-Folded"), "one two")
        XCTAssertEqual(result.head.headers.map(\.name), ["Set-Cookie", "X-Folded", "Set-Cookie", "Content-Length"])
    }

    func testHTTPVersionChoiceReachesTheWire() throws {
        let server = try startServer { _ in Self.ok }
        let request = PreparedRequest(method: "GET", url: server.baseURL, headers: [])

        _ = try HTTPClient(options: options { $0.httpVersion = .http2 }).send(request, delegate: RecordingDelegate())
        _ = try HTTPClient(options: options { $0.httpVersion = .http1_1 }).send(request, delegate: RecordingDelegate())

        let seen = server.requests
        XCTAssertEqual(seen.count, 2)
        XCTAssertEqual(seen[0].header("Upgrade"), "h2c", "cleartext HTTP/2 is an upgrade, never prior knowledge")
        XCTAssertNil(seen[1].header("Upgrade"))
    }

    func testHandleIsReusableAfterAFailure() throws {
        let server = try startServer { request in
            request.target == "/slow" ? HTTPClientTestServer.Reply(pieces: [], stall: 2) : Self.ok
        }
        let client = HTTPClient(options: options { $0.totalTimeout = 0.2 })

        XCTAssertThrowsError(
            try client.send(
                PreparedRequest(method: "GET", url: server.baseURL + "/slow", headers: []),
                delegate: RecordingDelegate())
        ) {
            XCTAssertEqual(FailureClass.of(wrapped: $0), .timeout, "\($0)")
        }
        let result = try client.send(
            PreparedRequest(method: "GET", url: server.baseURL + "/fast", headers: []), delegate: RecordingDelegate())

        XCTAssertEqual(result.statusCode, 200)
    }

    func testBodyIsStreamedInSeveralChunks() throws {
        let chunks = (0..<20).map { index in [UInt8](repeating: UInt8(65 + index), count: 1000) }
        let server = try startServer { _ in .chunked(chunks, delay: 0.01) }
        let delegate = RecordingDelegate()

        _ = try HTTPClient(options: options()).send(
            PreparedRequest(method: "GET", url: server.baseURL + "/stream", headers: []), delegate: delegate)

        XCTAssertGreaterThan(delegate.chunkCount(hop: 0), 1)
        XCTAssertEqual(delegate.body(hop: 0), chunks.flatMap { $0 })
    }
}

/// A body source over bytes that hands out at most 7 bytes per read, like a slow stream.
final class TestBodySource: BodySource {
    let bytes: [UInt8]
    let reportsLength: Bool
    let canRewind: Bool
    private var position = 0
    private(set) var rewinds = 0

    /// The error a non-rewindable source throws.
    struct CannotRewind: Error, CustomStringConvertible {
        var description: String { "standard input cannot be read twice" }
    }

    init(_ bytes: [UInt8], reportsLength: Bool = true, canRewind: Bool = true) {
        self.bytes = bytes
        self.reportsLength = reportsLength
        self.canRewind = canRewind
    }

    var length: UInt64? { reportsLength ? UInt64(bytes.count) : nil }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position, 7)
        guard count > 0 else { return 0 }
        for index in 0..<count { buffer[index] = bytes[position + index] }
        position += count
        return count
    }

    func rewind() throws {
        guard canRewind else { throw CannotRewind() }
        position = 0
        rewinds += 1
    }
}

/// Records every delegate call of an exchange.
final class RecordingDelegate: HTTPClientDelegate {
    var sent: [(hop: Int, request: SentRequest)] = []
    var heads: [(hop: Int, head: ResponseHead, isFinal: Bool)] = []
    var chunks: [(hop: Int, bytes: [UInt8], isFinal: Bool)] = []
    var finished: [(hop: Int, isFinal: Bool)] = []
    var abortsAfterFirstChunk = false
    var errorOnHead: (any Error)?

    func willSend(hop: Int, request: SentRequest) throws {
        sent.append((hop, request))
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        if let errorOnHead { throw errorOnHead }
        heads.append((hop, head, isFinal))
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        chunks.append((hop, Array(chunk), isFinal))
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        finished.append((hop, isFinal))
    }

    func shouldAbort() -> Bool {
        abortsAfterFirstChunk && !chunks.isEmpty
    }

    func body(hop: Int) -> [UInt8] {
        chunks.filter { $0.hop == hop }.flatMap(\.bytes)
    }

    func chunkCount(hop: Int) -> Int {
        chunks.filter { $0.hop == hop }.count
    }
}
