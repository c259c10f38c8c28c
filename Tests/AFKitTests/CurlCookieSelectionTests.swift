import XCTest

@testable import AFKit

/// Which Netscape cookie lines `--curl` passes as `--cookie 'name=value'` for a URL.
final class CurlCookieSelectionTests: XCTestCase {
    private func line(
        _ domain: String, tail: Bool = false, path: String = "/", secure: Bool = false,
        expires: Int64 = 0, _ name: String, _ value: String
    ) -> String {
        [domain, tail ? "TRUE" : "FALSE", path, secure ? "TRUE" : "FALSE", String(expires), name, value]
            .joined(separator: "\t")
    }

    func testDomainPathSecureAndExpiry() {
        let lines = [
            line("h.test", "a", "1"),
            line(".h.test", tail: true, "b", "2"),
            line("other.test", "c", "3"),
            line("h.test", path: "/api", "d", "4"),
            line("h.test", path: "/apix", "e", "5"),
            line("h.test", secure: true, "f", "6"),
            line("h.test", expires: 100, "g", "7"),
            line("#HttpOnly_h.test", expires: 300, "h", "8"),
            "# a comment",
        ]
        XCTAssertEqual(
            CurlCookieSelection.cookieHeader(lines: lines, url: "http://h.test/api/x?q=1", now: 200),
            "d=4; a=1; b=2; h=8")
        XCTAssertEqual(
            CurlCookieSelection.cookieHeader(lines: lines, url: "http://sub.h.test/", now: 200), "b=2")
        XCTAssertEqual(
            CurlCookieSelection.cookieHeader(lines: lines, url: "https://h.test/", now: 0), "a=1; b=2; f=6; g=7; h=8")
        XCTAssertNil(CurlCookieSelection.cookieHeader(lines: lines, url: "http://x.test/", now: 0))
    }

    func testLocalHostsAreASecureContextAsInLibcurl() {
        XCTAssertEqual(
            CurlCookieSelection.cookieHeader(
                lines: [line("127.0.0.1", secure: true, "s", "1")], url: "http://127.0.0.1:8080/", now: 0),
            "s=1")
    }
}
