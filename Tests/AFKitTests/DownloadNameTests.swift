import AFKit
import XCTest

/// Download file names: Content-Disposition (RFC 6266, RFC 8187 `filename*`), sanitising of
/// hostile names, the URL's last segment, `index`, extensions from the media type, numbering.
final class DownloadNameTests: XCTestCase {
    // MARK: - afcli's working names

    func testNamesLikeWorkingFilesGetAnUnderscore() {
        let choose = { (name: String) in
            DownloadName.choose(
                contentDisposition: "attachment; filename=\"\(name)\"", url: "http://h/x", contentType: nil)
        }
        XCTAssertEqual(choose("big.iso.part"), "big.iso.part_")
        XCTAssertEqual(choose("big.iso.part.state"), "big.iso.part.state_")
        XCTAssertEqual(choose("big.iso.part.state.tmp"), "big.iso.part.state.tmp_")
        XCTAssertEqual(choose("big.iso.part.state.tmp-4242"), "big.iso.part.state.tmp-4242_")
        XCTAssertEqual(
            DownloadName.choose(contentDisposition: nil, url: "http://h/a/x.part", contentType: nil), "x.part_")
        // Names that only look similar are kept.
        XCTAssertEqual(choose("video.part1.rar"), "video.part1.rar")
        XCTAssertEqual(choose("x.part.statement.pdf"), "x.part.statement.pdf")
        XCTAssertEqual(choose("x.part.state.tmp-"), "x.part.state.tmp-")
        XCTAssertEqual(choose("apart"), "apart")
    }

    // MARK: - Content-Disposition

    func testPlainAndQuotedFilename() {
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename=report.pdf"), "report.pdf")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename=\"my report.pdf\""), "my report.pdf")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment;filename=\"a\\\"b.txt\""), "a\"b.txt")
        XCTAssertEqual(ContentDisposition.filename(from: "inline; FILENAME = \"x.txt\" ; size=3"), "x.txt")
        XCTAssertNil(ContentDisposition.filename(from: "attachment"))
        XCTAssertNil(ContentDisposition.filename(from: "inline; name=\"field\""))
    }

    func testExtendedFilenameWins() {
        XCTAssertEqual(
            ContentDisposition.filename(
                from: "attachment; filename=\"EURO rates.txt\"; filename*=utf-8''%e2%82%ac%20rates.txt"),
            "€ rates.txt")
        // RFC 8187 §3.2.2's ISO-8859-1 example, the extended value before the plain one.
        XCTAssertEqual(
            ContentDisposition.filename(from: "attachment; filename*=iso-8859-1'en'%A3%20rates; filename=x"),
            "£ rates")
        XCTAssertEqual(
            ContentDisposition.filename(from: "attachment; filename*=UTF-8''na%C3%AFve.txt"), "naïve.txt")
    }

    func testBadExtendedValueFallsBackToFilename() {
        XCTAssertEqual(
            ContentDisposition.filename(from: "attachment; filename*=koi8-r''%C1; filename=\"plain.txt\""),
            "plain.txt")
        XCTAssertEqual(
            ContentDisposition.filename(from: "attachment; filename*=UTF-8''%FF%FE; filename=ok.bin"), "ok.bin")
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename*=UTF-8''%4; filename=b"), "b")
    }

    func testSemicolonInsideQuotes() {
        XCTAssertEqual(ContentDisposition.filename(from: "attachment; filename=\"a;b.txt\"; x=1"), "a;b.txt")
    }

    // MARK: - Sanitising

    func testTraversalAndHiddenNamesAreReducedToABaseName() {
        XCTAssertEqual(DownloadName.sanitize("../../etc/passwd"), "passwd")
        XCTAssertEqual(DownloadName.sanitize("/etc/cron.d/evil"), "evil")
        XCTAssertEqual(DownloadName.sanitize("..\\..\\windows\\system.ini"), "system.ini")
        XCTAssertEqual(DownloadName.sanitize(".bashrc"), "bashrc")
        XCTAssertEqual(DownloadName.sanitize("...hidden.txt"), "hidden.txt")
        XCTAssertNil(DownloadName.sanitize(".."))
        XCTAssertNil(DownloadName.sanitize("dir/"))
        XCTAssertNil(DownloadName.sanitize("  "))
    }

    func testControlCharactersAndBidiOverridesAreRemoved() {
        XCTAssertEqual(DownloadName.sanitize("a\u{0}b\nc\u{1b}[31m.txt"), "abc[31m.txt")
        XCTAssertEqual(DownloadName.sanitize("invoice\u{202E}fdp.exe"), "invoicefdp.exe")
        XCTAssertEqual(DownloadName.sanitize("x\u{7F}\u{85}y"), "xy")
    }

    func testLongNamesKeepTheirExtension() {
        let long = String(repeating: "é", count: 300) + ".tar.gz"
        let name = DownloadName.sanitize(long)
        XCTAssertNotNil(name)
        XCTAssertLessThanOrEqual(name?.utf8.count ?? 0, DownloadName.maximumLength)
        XCTAssertTrue(name?.hasSuffix("é.tar.gz") ?? false)
    }

    func testLongNamesStayWithinTheLimitAfterTheirMarkOrExtension() {
        // A working-file name at the limit keeps its `_` mark; a long name without an extension
        // keeps the one the media type adds (both once went past the limit).
        let part = String(repeating: "a", count: DownloadName.maximumLength - 5) + ".part"
        let marked = DownloadName.choose(contentDisposition: "attachment; filename=\"\(part)\"", url: "http://h/", contentType: nil)
        XCTAssertEqual(marked.utf8.count, DownloadName.maximumLength)
        XCTAssertTrue(marked.hasSuffix(".part_"))
        let bare = String(repeating: "b", count: DownloadName.maximumLength)
        let typed = DownloadName.choose(contentDisposition: nil, url: "http://h/" + bare, contentType: "application/json")
        XCTAssertLessThanOrEqual(typed.utf8.count, DownloadName.maximumLength)
        XCTAssertTrue(typed.hasSuffix("b.json"))
    }

    // MARK: - Choosing

    func testOrderIsDispositionThenURLThenIndex() {
        XCTAssertEqual(
            DownloadName.choose(
                contentDisposition: "attachment; filename=\"from-header.zip\"", url: "http://h/from-url.bin",
                contentType: "application/zip"), "from-header.zip")
        XCTAssertEqual(
            DownloadName.choose(contentDisposition: nil, url: "http://h/dir/file.iso?x=1#f", contentType: nil),
            "file.iso")
        XCTAssertEqual(DownloadName.choose(contentDisposition: nil, url: "http://h/", contentType: nil), "index")
        XCTAssertEqual(DownloadName.choose(contentDisposition: nil, url: "http://h", contentType: nil), "index")
        XCTAssertEqual(
            DownloadName.choose(
                contentDisposition: "attachment; filename=\"../\"", url: "http://h/u.txt", contentType: nil),
            "u.txt")
    }

    func testURLSegmentIsPercentDecoded() {
        XCTAssertEqual(
            DownloadName.choose(contentDisposition: nil, url: "http://h/a%20b%C3%A9.txt", contentType: nil),
            "a bé.txt")
        XCTAssertEqual(
            DownloadName.choose(contentDisposition: nil, url: "http://h/x/..%2F..%2Fevil.sh", contentType: nil),
            "evil.sh")
    }

    func testExtensionFromMediaTypeOnlyWhenMissing() {
        XCTAssertEqual(
            DownloadName.choose(contentDisposition: nil, url: "http://h/", contentType: "text/html; charset=utf-8"),
            "index.html")
        XCTAssertEqual(
            DownloadName.choose(contentDisposition: nil, url: "http://h/api/users", contentType: "application/json"),
            "users.json")
        XCTAssertEqual(
            DownloadName.choose(contentDisposition: nil, url: "http://h/data.csv", contentType: "application/json"),
            "data.csv")
        XCTAssertEqual(
            DownloadName.choose(
                contentDisposition: "attachment; filename=report", url: "http://h/x", contentType: "application/pdf"),
            "report.pdf")
        XCTAssertEqual(
            DownloadName.choose(contentDisposition: nil, url: "http://h/blob", contentType: "application/octet-stream"),
            "blob")
        XCTAssertEqual(MediaTypeExtensions.fileExtension(forContentType: "IMAGE/PNG"), "png")
    }

    func testNumberedNamesKeepTheExtension() {
        XCTAssertEqual(DownloadName.numbered("big.iso", 1), "big-1.iso")
        XCTAssertEqual(DownloadName.numbered("data.tar.gz", 2), "data-2.tar.gz")
        XCTAssertEqual(DownloadName.numbered("index", 3), "index-3")
        XCTAssertEqual(DownloadName.numbered("v1.2.zip", 1), "v1.2-1.zip")
        XCTAssertFalse(DownloadName.hasExtension("README"))
        XCTAssertFalse(DownloadName.hasExtension("name."))
        XCTAssertTrue(DownloadName.hasExtension("a.b"))
    }
}
