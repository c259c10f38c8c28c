import AFCurl
import XCTest

@testable import AFKit

/// The codings of the requests the cache may answer: a constant, judged without loading libcurl,
/// and a response stored only when its replay would judge its codings as its transfer did.
final class CacheCodingTests: XCTestCase {
    private func head(coding: String, kept: Bool) -> ResponseHead {
        ResponseHead(
            statusCode: 200, reasonPhrase: "OK", httpVersion: "HTTP/1.1", headers: [("Content-Encoding", coding)],
            keptCoding: kept ? KeptCoding(field: "Content-Encoding", coding: coding) : nil)
    }

    func testTheCacheOffersTheCodingsLibcurlDecodesHere() {
        // Debian's libcurl (the one `make` installs) decodes every coding the cache offers.
        XCTAssertEqual(ResponseCache.acceptEncoding, HTTPClient.supportedAcceptEncoding)
        XCTAssertEqual(ResponseCache.acceptEncoding, "gzip, deflate, br, zstd")
    }

    func testAResponseIsStoredOnlyWhenItsReplayJudgesItsCodingsAlike() {
        XCTAssertTrue(ResponseCache.replaysAlike(head(coding: "gzip", kept: false)))
        // A coding no libcurl decodes: kept by the transfer and by the replay.
        XCTAssertTrue(ResponseCache.replaysAlike(head(coding: "foo", kept: true)))
        // Kept by a libcurl built without brotli, which a replay would take as decoded.
        XCTAssertFalse(ResponseCache.replaysAlike(head(coding: "br", kept: true)))
    }
}
