import XCTest

@testable import AFCurl

/// One `EasyHandle` exchange against a loopback server: what goes on the wire, what comes back
/// through `TransferEvents`, and how failures are classified.
final class EasyHandleTests: XCTestCase {
    /// Records the events of one transfer.
    private final class Recorder: TransferEvents {
        var heads: [ResponseHead] = []
        var body: [UInt8] = []
        func responseHead(_ head: ResponseHead) throws { heads.append(head) }
        func responseBody(_ chunk: UnsafeRawBufferPointer) throws { body += chunk }
    }

    /// A body held in memory, read in small pieces so libcurl asks several times.
    private final class BytesSource: BodySource {
        let bytes: [UInt8]
        var offset = 0
        init(_ text: String) { bytes = Array(text.utf8) }
        var length: UInt64? { UInt64(bytes.count) }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = min(3, buffer.count, bytes.count - offset)
            bytes[offset..<offset + count].withUnsafeBytes { buffer.copyMemory(from: $0) }
            offset += count
            return count
        }
        func rewind() throws { offset = 0 }
    }

    func testHTTPSIsRecognisedInAnyCaseAndOnlyWithItsColon() {
        for url in ["https://a/", "HTTPS://a/", "hTtPs:x", "https:"] {
            XCTAssertTrue(EasyHandle.isHTTPS(url), url)
        }
        for url in ["http://a/", "https", "httpsx://a/", "ftps://a/", "", "https;//a/", "htt", "https\u{e9}:"] {
            XCTAssertFalse(EasyHandle.isHTTPS(url), url)
        }
    }

    func testAGetDeliversTheFinalHeadAndTheBody() throws {
        let server = try OneShotServer(
            reply: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello")
        let recorder = Recorder()
        let outcome = try EasyHandle().perform(
            TransferRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/p?q=1", headerLines: ["X-Test: yes"]),
            events: recorder)
        let request = server.received()
        XCTAssertTrue(request.hasPrefix("GET /p?q=1 HTTP/1.1\r\n"), request)
        XCTAssertTrue(request.contains("\r\nX-Test: yes\r\n"), request)
        XCTAssertEqual(recorder.heads.map(\.statusCode), [200])
        XCTAssertEqual(recorder.heads.first?.value(for: "x-a"), "1")
        XCTAssertEqual(String(decoding: recorder.body, as: UTF8.self), "hello")
        XCTAssertEqual(outcome.statusCode, 200)
        XCTAssertEqual(outcome.bytesDownloaded, 5)
    }

    func testAHandleSendsEachTransfersOwnHeadersWhenItReusesItsHeaderList() throws {
        let handle = try EasyHandle()
        let sent: [(lines: [String], body: BytesSource?)] = [
            (["X-One: 1"], nil), (["X-One: 1"], nil), (["X-One: 1"], BytesSource("ab")), (["X-Two: 2"], nil), ([], nil),
        ]
        var requests: [String] = []
        for (lines, body) in sent {
            let server = try OneShotServer(reply: "HTTP/1.1 204 No Content\r\n\r\n")
            _ = try handle.perform(
                TransferRequest(
                    method: body == nil ? "GET" : "PUT", url: "http://127.0.0.1:\(server.port)/", headerLines: lines,
                    body: body),
                events: Recorder())
            requests.append(server.received())
        }
        XCTAssertEqual(requests.map { $0.contains("\r\nX-One: 1\r\n") }, [true, true, true, false, false])
        XCTAssertEqual(requests.map { $0.contains("\r\nX-Two: 2\r\n") }, [false, false, false, true, false])
        XCTAssertEqual(requests.map { $0.contains("Expect:") }, [false, false, false, false, false])
        XCTAssertTrue(requests[2].hasSuffix("\r\n\r\nab"), requests[2])
    }

    func testAHeaderListIsReusedOnlyForTheSameBytes() throws {
        // "café" precomposed and decomposed are equal Strings, but not the same bytes on the wire.
        let handle = try EasyHandle()
        var received: [[UInt8]] = []
        for value in ["caf\u{E9}", "cafe\u{301}"] {
            let server = try OneShotServer(reply: "HTTP/1.1 204 No Content\r\n\r\n")
            _ = try handle.perform(
                TransferRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/", headerLines: ["X-V: \(value)"]),
                events: Recorder())
            received.append(Array(server.received().utf8))
        }
        func contains(_ bytes: [UInt8], _ part: String) -> Bool {
            let needle = Array(part.utf8)
            return bytes.indices.contains { bytes[$0...].starts(with: needle) }
        }
        XCTAssertTrue(contains(received[0], "X-V: caf\u{E9}\r\n"))
        XCTAssertTrue(contains(received[1], "X-V: cafe\u{301}\r\n"))
        XCTAssertFalse(contains(received[1], "X-V: caf\u{E9}\r\n"))
    }

    func testABodySourceIsPulledWhole() throws {
        let server = try OneShotServer(reply: "HTTP/1.1 204 No Content\r\n\r\n")
        let outcome = try EasyHandle().perform(
            TransferRequest(
                method: "PUT", url: "http://127.0.0.1:\(server.port)/", body: BytesSource("{\"a\":1234}")),
            events: Recorder())
        let request = server.received()
        XCTAssertTrue(request.hasPrefix("PUT / HTTP/1.1\r\n"), request)
        XCTAssertTrue(request.contains("\r\nContent-Length: 10\r\n"), request)
        XCTAssertTrue(request.hasSuffix("\r\n\r\n{\"a\":1234}"), request)
        XCTAssertEqual(outcome.bytesUploaded, 10)
    }

    func testABodyOverThePostedLimitStreamsThroughTheReadCallback() throws {
        let text = String(repeating: "b", count: EasyHandle.postedBodyLimit + 1)
        let server = try OneShotServer(reply: "HTTP/1.1 204 No Content\r\n\r\n")
        let outcome = try EasyHandle().perform(
            TransferRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/", body: BytesSource(text)),
            events: Recorder())
        let request = server.received()
        XCTAssertTrue(request.contains("\r\nContent-Length: \(text.utf8.count)\r\n"), request)
        XCTAssertFalse(request.contains("Content-Type"), request)
        XCTAssertTrue(request.hasSuffix("\r\n\r\n" + text))
        XCTAssertEqual(outcome.bytesUploaded, Int64(text.utf8.count))
    }

    func testASmallBodyThatBreaksItsLengthFailsBeforeAnythingIsSent() throws {
        /// Announces two bytes and delivers `count`.
        final class Lying: BodySource {
            let count: Int
            var given = 0
            init(_ count: Int) { self.count = count }
            var length: UInt64? { 2 }
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                let now = min(count - given, buffer.count)
                for index in 0..<now { buffer[index] = 0x61 }
                given += now
                return now
            }
            func rewind() throws {}
        }
        // Nothing listens on a closed port: a request that went out would fail to connect.
        let port = try OneShotServer.closedPort()
        for (count, words) in [(0, "ended after 0 of the 2 bytes"), (1, "ended after 1 of the 2 bytes"), (3, "is longer than the 2 bytes")] {
            XCTAssertThrowsError(
                try EasyHandle().perform(
                    TransferRequest(method: "POST", url: "http://127.0.0.1:\(port)/", body: Lying(count)), events: Recorder())
            ) { error in
                let curlError = error as? CurlError
                XCTAssertEqual(curlError?.kind, .bodyReadFailed)
                XCTAssertTrue(curlError?.description.contains(words) == true, "\(String(describing: curlError))")
            }
        }
    }

    func testAResponseHandlerErrorStopsTheTransfer() throws {
        struct Refused: Error {}
        final class Refusing: TransferEvents {
            func responseHead(_ head: ResponseHead) throws { throw Refused() }
            func responseBody(_ chunk: UnsafeRawBufferPointer) throws {}
        }
        let server = try OneShotServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        XCTAssertThrowsError(
            try EasyHandle().perform(TransferRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/"), events: Refusing())
        ) { error in
            let curlError = error as? CurlError
            XCTAssertEqual(curlError?.kind, .responseHandlerFailed)
            XCTAssertTrue(curlError?.underlyingError is Refused)
        }
        _ = server.received()
    }

    func testARefusedConnectionIsAConnectionFailure() throws {
        // A port that was just listening and is closed now refuses connections.
        let port = try OneShotServer.closedPort()
        XCTAssertThrowsError(
            try EasyHandle().perform(TransferRequest(method: "GET", url: "http://127.0.0.1:\(port)/"), events: Recorder())
        ) { error in
            XCTAssertEqual((error as? CurlError)?.kind, .couldNotConnect)
        }
    }
}
