import AFCurl
import XCTest

@testable import AFKit

/// Request compression, the HSTS file's location and reason phrases shown for HTTP/2.
final class NetworkStagesTests: XCTestCase {
    /// `zlib.compress(b'{"a":"' + b'abc' * 20 + b'"}')` from Python's zlib, level 6.
    private let compressedVector: [UInt8] = [
        120, 156, 171, 86, 74, 84, 178, 82, 74, 76, 74, 38, 27, 41, 213, 2, 0, 77, 154, 25, 20,
    ]
    private let plainVector = Array(("{\"a\":\"" + String(repeating: "abc", count: 20) + "\"}").utf8)

    func testDeflateMatchesZlibsOwnOutput() throws {
        XCTAssertEqual(try RequestCompression.deflate(plainVector), compressedVector)
    }

    func testInMemoryBodyIsReplacedOnlyWhenSmaller() throws {
        var request = PreparedRequest(
            method: "POST", url: "http://h/", headers: [HTTPField(name: "Content-Type", value: "application/json")],
            body: BytesBodySource(plainVector), bodyBytes: plainVector)
        try RequestCompression.apply(to: &request)
        XCTAssertEqual(request.bodyBytes, compressedVector)
        XCTAssertEqual(request.body?.length, UInt64(compressedVector.count))
        XCTAssertEqual(request.headers.last, HTTPField(name: "Content-Encoding", value: "deflate"))

        let tiny = Array("{\"a\":\"1\"}".utf8)
        var small = PreparedRequest(
            method: "POST", url: "http://h/", headers: [], body: BytesBodySource(tiny), bodyBytes: tiny)
        try RequestCompression.apply(to: &small)
        XCTAssertEqual(small.bodyBytes, tiny)
        XCTAssertTrue(small.headers.isEmpty)
    }

    func testAContentEncodingGivenByTheUserIsLeftAlone() throws {
        var request = PreparedRequest(
            method: "POST", url: "http://h/", headers: [HTTPField(name: "content-encoding", value: "gzip")],
            body: BytesBodySource(plainVector), bodyBytes: plainVector)
        try RequestCompression.apply(to: &request)
        XCTAssertEqual(request.bodyBytes, plainVector)
        XCTAssertEqual(request.headers.count, 1)
    }

    func testStreamedBodyIsDeflatedOnTheFlyAndRewinds() throws {
        // bodyBytes nil: a streamed body, compressed as it is read, length unknown.
        var request = PreparedRequest(method: "PUT", url: "http://h/", headers: [], body: BytesBodySource(plainVector))
        try RequestCompression.apply(to: &request)
        let body = try XCTUnwrap(request.body)
        XCTAssertNil(body.length)
        func readAll() throws -> [UInt8] {
            var out: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 3)  // tiny reads exercise the output loop
            while true {
                let count = try chunk.withUnsafeMutableBytes { try body.read(into: $0) }
                if count == 0 { return out }
                out += chunk[0..<count]
            }
        }
        XCTAssertEqual(try readAll(), compressedVector)
        try body.rewind()
        XCTAssertEqual(try readAll(), compressedVector)
    }

    func testHSTSFileLocation() {
        XCTAssertEqual(
            HSTSLocation.defaultFile(environment: ["XDG_STATE_HOME": "/s/", "HOME": "/h"]), "/s/afcli/hsts.txt")
        XCTAssertEqual(HSTSLocation.defaultFile(environment: ["HOME": "/h"]), "/h/.local/state/afcli/hsts.txt")
        // A relative XDG_STATE_HOME is ignored, as the XDG specification says.
        XCTAssertEqual(
            HSTSLocation.defaultFile(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]),
            "/h/.local/state/afcli/hsts.txt")
        // Without HOME, the password database's home; never a relative path.
        XCTAssertEqual(
            HSTSLocation.defaultFile(environment: ["HOME": "rel"]),
            UserDirectories.home([:]).map { $0 + "/.local/state/afcli/hsts.txt" })
    }

    func testHSTSUpgradeIsAnHTTPRequestThatEndedOnHTTPS() {
        XCTAssertTrue(HSTSUpgrade.happened(requested: "http://h/x", effective: "https://h/x"))
        XCTAssertTrue(HSTSUpgrade.happened(requested: "HTTP://h/", effective: "HTTPS://h/"))
        XCTAssertFalse(HSTSUpgrade.happened(requested: "http://h/x", effective: "http://h/x"))
        XCTAssertFalse(HSTSUpgrade.happened(requested: "https://h/x", effective: "https://h/x"))
        XCTAssertFalse(HSTSUpgrade.happened(requested: "http://h/x", effective: nil))
        XCTAssertFalse(HSTSUpgrade.happened(requested: "http://h/x", effective: ""))
        XCTAssertFalse(HSTSUpgrade.happened(requested: "httpx://h/", effective: "https://h/"))
    }

    func testHTTP2HeadsShowTheStandardReasonPhrase() {
        let h2 = ResponseHead(statusCode: 404, reasonPhrase: "", httpVersion: "HTTP/2", headers: [])
        XCTAssertEqual(h2.shownReasonPhrase, "Not Found")
        let h3 = ResponseHead(statusCode: 200, reasonPhrase: "", httpVersion: "HTTP/3", headers: [])
        XCTAssertEqual(h3.shownReasonPhrase, "OK")
        // An HTTP/1.1 server that sent no phrase is shown as it was.
        let h1 = ResponseHead(statusCode: 200, reasonPhrase: "", httpVersion: "HTTP/1.1", headers: [])
        XCTAssertEqual(h1.shownReasonPhrase, "")
        let custom = ResponseHead(statusCode: 200, reasonPhrase: "Fine", httpVersion: "HTTP/1.1", headers: [])
        XCTAssertEqual(custom.shownReasonPhrase, "Fine")
        let unknown = ResponseHead(statusCode: 299, reasonPhrase: "", httpVersion: "HTTP/2", headers: [])
        XCTAssertEqual(unknown.shownReasonPhrase, "")
    }
}
