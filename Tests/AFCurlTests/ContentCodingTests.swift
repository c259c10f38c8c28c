import XCTest

@testable import AFCurl

/// Which codings of a response the transport leaves as received instead of failing on them.
final class ContentCodingTests: XCTestCase {
    private func head(_ headers: [(String, String)]) -> ResponseHead {
        ResponseHead(statusCode: 200, reasonPhrase: "OK", httpVersion: "HTTP/1.1", headers: headers)
    }

    func testCodingsLibcurlDecodesAreNotKept() {
        for value in ["gzip", "x-gzip, deflate", "Identity", " gzip ,", ""] {
            XCTAssertNil(ContentCoding.undecodable(in: head([("Content-Encoding", value)]), decodesContent: true), value)
        }
        XCTAssertNil(ContentCoding.undecodable(in: head([("Transfer-Encoding", "gzip, chunked")]), decodesContent: true))
    }

    func testTheFirstUnknownCodingIsNamedAsWritten() {
        XCTAssertEqual(
            ContentCoding.undecodable(in: head([("Content-Encoding", "gzip, Foo")]), decodesContent: true),
            KeptCoding(field: "Content-Encoding", coding: "Foo"))
        XCTAssertEqual(
            ContentCoding.undecodable(
                in: head([("Content-Encoding", "gzip"), ("Content-Encoding", "compress")]), decodesContent: true),
            KeptCoding(field: "Content-Encoding", coding: "compress"))
        XCTAssertEqual(
            ContentCoding.undecodable(in: head([("Transfer-Encoding", "foo, chunked")]), decodesContent: false),
            KeptCoding(field: "Transfer-Encoding", coding: "foo"))
    }

    func testContentCodingsMatterOnlyWhenLibcurlDecodesContent() {
        XCTAssertNil(ContentCoding.undecodable(in: head([("Content-Encoding", "foo")]), decodesContent: false))
    }
}
