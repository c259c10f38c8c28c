import AFKit
import XCTest

/// The resume rules (RFC 9110 §14, AFNETWORKING.md §8, CJNETWORK.md §8) without a server:
/// Content-Range parsing, the decision for each status, the state file format.
final class DownloadResumeTests: XCTestCase {
    // MARK: - Content-Range

    func testParsesByteRanges() {
        XCTAssertEqual(ContentRange("bytes 0-499/1234"), .range(first: 0, last: 499, complete: 1234))
        XCTAssertEqual(ContentRange("bytes 500-1233/*"), .range(first: 500, last: 1233, complete: nil))
        XCTAssertEqual(ContentRange("bytes */1234"), .unsatisfied(complete: 1234))
        XCTAssertEqual(ContentRange("Bytes  7-7/8 "), .range(first: 7, last: 7, complete: 8))
        XCTAssertEqual(ContentRange("bytes 500-1233/1234")?.length, 734)
    }

    func testRejectsMalformedRanges() {
        for value in [
            "", "bytes", "items 0-1/2", "bytes 5-4/10", "bytes 0-10/10", "bytes -1-3/4", "bytes 0-3", "bytes */*",
            "bytes a-b/c", "bytes 0-99999999999999999999/1",
        ] {
            XCTAssertNil(ContentRange(value), value)
        }
    }

    // MARK: - Decisions

    private func decide(_ status: Int, _ range: String?, offset: Int64?, total: Int64? = nil) -> ResponseDecision {
        ResponseDecision.decide(
            status: status, reason: "", contentRange: range, offset: offset, knownTotal: total, path: "f.part")
    }

    func testFreshRequests() {
        XCTAssertEqual(decide(200, nil, offset: nil), .writeFromStart(warning: nil))
        XCTAssertEqual(decide(204, nil, offset: nil), .writeFromStart(warning: nil))
        XCTAssertEqual(decide(404, nil, offset: nil), .fail(.httpStatus(code: 404, reason: "")))
        XCTAssertEqual(decide(206, "bytes 0-1/2", offset: nil), .fail(.unsolicitedPartialContent))
    }

    func testMatching206Appends() {
        XCTAssertEqual(decide(206, "bytes 100-199/200", offset: 100, total: 200), .append(length: 100, complete: 200))
        XCTAssertEqual(decide(206, "bytes 100-199/*", offset: 100, total: 200), .append(length: 100, complete: 200))
        XCTAssertEqual(decide(206, "bytes 100-149/200", offset: 100), .append(length: 50, complete: 200))
    }

    func testOther206IsAnErrorAndTouchesNothing() {
        let wrongStart = decide(206, "bytes 0-199/200", offset: 100, total: 200)
        XCTAssertEqual(
            wrongStart, .fail(.unexpectedContentRange(value: "bytes 0-199/200", offset: 100, path: "f.part")))
        // The right start with another total: the file changed, and the message says so and how out.
        let wrongTotal = decide(206, "bytes 100-299/300", offset: 100, total: 200)
        XCTAssertEqual(wrongTotal, .fail(.totalChanged(expected: 200, now: 300, path: "f.part")))
        XCTAssertEqual(
            "\(DownloadError.totalChanged(expected: 200, now: 300, path: "f.part"))",
            "the server now reports 300 bytes for the file, the partial download expected 200 "
                + "(it changed on the server); remove f.part to start again")
        XCTAssertEqual(
            decide(206, nil, offset: 100), .fail(.unexpectedContentRange(value: nil, offset: 100, path: "f.part")))
        XCTAssertEqual(
            "\(DownloadError.unexpectedContentRange(value: "bytes 0-199/200", offset: 100, path: "f.part"))",
            "asked for bytes 100- but the server answered with Content-Range \"bytes 0-199/200\"; "
                + "f.part was left untouched")
    }

    func testWholeBodyToARangeRequestRestartsWithAWarning() {
        // CJNetwork appends the whole body to the partial file here; afcli starts again.
        XCTAssertEqual(
            decide(200, nil, offset: 100, total: 200), .writeFromStart(warning: ResponseDecision.restartWarning))
    }

    func testWholeBodyAsLongAsTheFileIsComplete() {
        func whole(length: Int64?, offset: Int64, total: Int64?) -> ResponseDecision {
            ResponseDecision.decide(
                status: 200, reason: "", contentRange: nil, contentLength: length, offset: offset, knownTotal: total,
                path: "f.part")
        }
        // A server without ranges answers with the whole file, exactly as long as ours (wget -c).
        XCTAssertEqual(whole(length: 200, offset: 200, total: nil), .alreadyComplete)
        XCTAssertEqual(whole(length: 200, offset: 200, total: 200), .alreadyComplete)
        let restart = ResponseDecision.writeFromStart(warning: ResponseDecision.restartWarning)
        XCTAssertEqual(whole(length: 300, offset: 200, total: nil), restart)
        XCTAssertEqual(whole(length: nil, offset: 200, total: 200), restart)
        XCTAssertEqual(whole(length: 200, offset: 200, total: 300), restart)
        XCTAssertEqual(whole(length: 0, offset: 0, total: nil), restart)
    }

    func testRangeNotSatisfiable() {
        XCTAssertEqual(decide(416, "bytes */200", offset: 200, total: 200), .alreadyComplete)
        XCTAssertEqual(decide(416, "bytes */200", offset: 200), .alreadyComplete)
        XCTAssertEqual(decide(416, nil, offset: 200, total: 200), .alreadyComplete)
        XCTAssertEqual(decide(416, "bytes */150", offset: 200, total: 200), .restartWithoutRange)
        XCTAssertEqual(decide(416, "bytes */200", offset: 200, total: 300), .restartWithoutRange)
        XCTAssertEqual(decide(416, nil, offset: 200), .restartWithoutRange)
    }

    func testErrorStatusesOnResume() {
        XCTAssertEqual(decide(503, nil, offset: 10), .fail(.httpStatus(code: 503, reason: "")))
        XCTAssertTrue(DownloadError.httpStatus(code: 503, reason: "").isTransient)
        XCTAssertFalse(DownloadError.httpStatus(code: 404, reason: "").isTransient)
    }

    // MARK: - State

    func testStateRoundTrip() {
        let state = DownloadState(
            url: "http://h/a b?x=1", bytes: 12345, total: 99999, etag: "\"abc\"",
            lastModified: "Tue, 15 Nov 1994 08:12:31 GMT")
        XCTAssertEqual(
            state.encoded,
            "afcli download state 1\nurl: http://h/a b?x=1\nbytes: 12345\ntotal: 99999\netag: \"abc\"\n"
                + "last-modified: Tue, 15 Nov 1994 08:12:31 GMT\n")
        XCTAssertEqual(DownloadState(decoding: state.encoded), state)
        XCTAssertEqual(DownloadState(decoding: "afcli download state 1\nurl: u\nbytes: 0\n"), DownloadState(url: "u"))
    }

    func testStateRecordsItsPartialFilesInode() {
        let state = DownloadState(url: "u", bytes: 5, inode: 123_456)
        XCTAssertEqual(state.encoded, "afcli download state 1\nurl: u\nbytes: 5\ninode: 123456\n")
        XCTAssertEqual(DownloadState(decoding: state.encoded), state)
        XCTAssertEqual(
            DownloadState.decode("afcli download state 1\nurl: u\nbytes: 5\ninode: x\n"),
            .failure(.damaged("its inode is invalid")))
    }

    func testStateProblemsAreNamed() {
        XCTAssertEqual(DownloadState.decode("GIF89a"), .failure(.notAState))
        XCTAssertEqual(
            DownloadState.decode("afcli download state 1\nbytes: 1\n"), .failure(.damaged("it names no URL")))
        XCTAssertEqual(
            "\(DownloadStateProblem.damaged("it names no URL"))", "it is damaged (it names no URL)")
        XCTAssertEqual("\(DownloadStateProblem.unsafe(.symbolicLink))", "it is a symbolic link")
    }

    func testStateRejectsForeignOrBrokenFiles() {
        XCTAssertNil(DownloadState(decoding: ""))
        XCTAssertNil(DownloadState(decoding: "something else\nurl: u\nbytes: 1\n"))
        XCTAssertNil(DownloadState(decoding: "afcli download state 1\nbytes: 1\n"))
        XCTAssertNil(DownloadState(decoding: "afcli download state 1\nurl: u\nbytes: -1\n"))
        XCTAssertNil(DownloadState(decoding: "afcli download state 1\nurl: u\nbytes: 1x\n"))
    }

    func testIfRangeUsesAStrongETagElseLastModified() {
        XCTAssertEqual(DownloadState(url: "u", etag: "\"v1\"", lastModified: "L").ifRangeValidator, "\"v1\"")
        XCTAssertEqual(DownloadState(url: "u", etag: "W/\"v1\"", lastModified: "L").ifRangeValidator, "L")
        XCTAssertNil(DownloadState(url: "u", etag: "W/\"v1\"").ifRangeValidator)
    }

    func testByteCounts() {
        XCTAssertEqual(ByteCount.format(512), "512 B")
        XCTAssertEqual(ByteCount.format(1536), "1.5 KiB")
        XCTAssertEqual(ByteCount.format(1 << 30), "1.0 GiB")
    }
}
