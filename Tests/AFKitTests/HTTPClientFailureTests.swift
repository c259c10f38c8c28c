import AFCurl
import CCurlShim
import Foundation
import Glibc
import XCTest

@testable import AFKit

/// Transport failures through `HTTPClient`: each surfaces as a typed error of the right kind.
final class HTTPClientFailureTests: LoopbackServerTestCase {
    /// A loopback port that was just free: bound, read back, closed.
    private func closedPort() throws -> UInt16 {
        let server = try HTTPClientTestServer { _ in .response(200, "OK") }
        let port = server.port
        server.stop()
        // The accept thread closes the socket asynchronously.
        usleep(100_000)
        return port
    }

    /// Sends and returns the `CurlError` that must come out.
    private func curlError(
        _ request: PreparedRequest, options: TransferSettings, delegate: RecordingDelegate = RecordingDelegate(),
        file: StaticString = #filePath, line: UInt = #line
    ) -> CurlError? {
        do {
            _ = try HTTPClient(options: options).send(request, delegate: delegate)
            XCTFail("the request succeeded", file: file, line: line)
        } catch let error as CurlError {
            return error
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
        }
        return nil
    }

    func testConnectionRefusedIsCouldNotConnect() throws {
        let port = try closedPort()
        let request = PreparedRequest(method: "GET", url: "http://127.0.0.1:\(port)/", headers: [])

        let error = try XCTUnwrap(curlError(request, options: TransferSettings(noProxy: "127.0.0.1")))

        XCTAssertEqual(error.kind, .couldNotConnect)
        XCTAssertEqual(error.code, 7)
        XCTAssertTrue(error.description.hasPrefix("failed to connect to 127.0.0.1 port \(port)"), error.description)
    }

    func testStalledServerTimesOut() throws {
        let server = try startServer { _ in HTTPClientTestServer.Reply(pieces: [], stall: 5) }
        let request = PreparedRequest(method: "GET", url: server.baseURL + "/slow", headers: [])
        let started = Date()

        let error = try XCTUnwrap(curlError(request, options: TransferSettings(totalTimeout: 0.3, noProxy: "127.0.0.1")))

        XCTAssertEqual(error.kind, .timeout)
        XCTAssertTrue(error.description.hasPrefix("operation timed out"), error.description)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testDelegateAbortStopsTheTransferAsInterrupted() throws {
        let chunks = (0..<50).map { _ in [UInt8](repeating: 0x61, count: 100) }
        let server = try startServer { _ in .chunked(chunks, delay: 0.02) }
        let delegate = RecordingDelegate()
        delegate.abortsAfterFirstChunk = true
        let request = PreparedRequest(method: "GET", url: server.baseURL + "/stream", headers: [])

        let error = try XCTUnwrap(curlError(request, options: TransferSettings(noProxy: "127.0.0.1"), delegate: delegate))

        XCTAssertEqual(error.kind, .interrupted)
        XCTAssertLessThan(delegate.body(hop: 0).count, 5000)
    }

    func testInterruptSignalStopsTheNextTransfer() throws {
        let server = try startServer { _ in .response(200, "OK") }
        Interruption.install()
        raise(SIGINT)
        defer { Interruption.clear() }
        XCTAssertTrue(Interruption.isInterrupted)
        XCTAssertEqual(Interruption.signal, SIGINT)

        let error = try XCTUnwrap(
            curlError(
                PreparedRequest(method: "GET", url: server.baseURL, headers: []),
                options: TransferSettings(noProxy: "127.0.0.1")))

        XCTAssertEqual(error.kind, .interrupted)
        XCTAssertEqual(error.description, "interrupted by SIGINT")
    }

    func testDelegateErrorComesOutUnchanged() throws {
        struct OutputClosed: Error {}
        let server = try startServer { _ in .response(200, "OK", body: Array("x".utf8)) }
        let delegate = RecordingDelegate()
        delegate.errorOnHead = OutputClosed()

        XCTAssertThrowsError(
            try HTTPClient(options: TransferSettings(noProxy: "127.0.0.1")).send(
                PreparedRequest(method: "GET", url: server.baseURL, headers: []), delegate: delegate)
        ) { error in
            XCTAssertTrue(error is OutputClosed, "\(error)")
        }
    }

    func testBodyReadFailureIsWrapped() throws {
        struct DiskGone: Error, CustomStringConvertible {
            var description: String { "input/output error" }
        }
        final class FailingBody: BodySource {
            var length: UInt64? { 10 }
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { throw DiskGone() }
            func rewind() throws {}
        }
        let server = try startServer { _ in .response(200, "OK") }
        let request = PreparedRequest(method: "POST", url: server.baseURL, headers: [], body: FailingBody())

        let error = try XCTUnwrap(curlError(request, options: TransferSettings(noProxy: "127.0.0.1")))

        XCTAssertEqual(error.kind, .bodyReadFailed)
        XCTAssertTrue(error.underlyingError is DiskGone)
        XCTAssertEqual(error.description, "reading the request body failed: input/output error")
    }

    func testCurlErrorKindsCoverTheCodesAfcliMaps() {
        XCTAssertEqual(CurlError.kind(for: CURLE_COULDNT_RESOLVE_HOST), .couldNotResolve)
        XCTAssertEqual(CurlError.kind(for: CURLE_PEER_FAILED_VERIFICATION), .tls)
        XCTAssertEqual(CurlError.kind(for: CURLE_SSL_PINNEDPUBKEYNOTMATCH), .tls)
        XCTAssertEqual(CurlError.kind(for: CURLE_OPERATION_TIMEDOUT), .timeout)
        XCTAssertEqual(CurlError.kind(for: CURLE_GOT_NOTHING), .receiveFailed)
        XCTAssertEqual(CurlError.kind(for: CURLE_URL_MALFORMAT), .badURL)
    }

    func testDescriptionsLowerCaseTheFirstLetterButNotAcronyms() {
        let refused = CurlError(code: CURLE_COULDNT_CONNECT, errorBuffer: "Failed to connect to 127.0.0.1 port 9")
        let tls = CurlError(code: CURLE_PEER_FAILED_VERIFICATION, errorBuffer: "SSL certificate problem: expired")
        let generic = CurlError(code: CURLE_COULDNT_RESOLVE_HOST, errorBuffer: "")

        XCTAssertEqual(refused.description, "failed to connect to 127.0.0.1 port 9")
        XCTAssertEqual(tls.description, "SSL certificate problem: expired")
        XCTAssertEqual(tls.kind, .tls)
        XCTAssertEqual(generic.description, "couldn't resolve host name")
    }
}
