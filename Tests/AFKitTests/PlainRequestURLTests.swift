@testable import AFKit
import XCTest

/// The one-pass recognition of URLs sent as typed agrees with the general path of parsing,
/// validating and printing.
final class PlainRequestURLTests: XCTestCase {
    private let samples = [
        "http://127.0.0.1:8080/small.json?i=7", "https://example.com", "http://h", "http://h/",
        "http://h:1/a/b?c=d&e=f#g", "http://h:65535/", "http://h:65536/", "http://h:0/", "http://h:00080/x",
        "http://h:/x", "http://h::1/x", "http://:80/x", "http://", "https://", "http:/h/x", "HTTP://h/x",
        "http://H.Example/x", "ftp://h/x", "http://u@h/x", "http://u:p@h/x", "http://[::1]:8080/x",
        "http://h/a b", "http://h/%20", "http://h/a%zz", "http://h/ü", "http://bücher.example/x",
        "http://h/a/../b", "http://h/./a", "http://h/a/.", "http://h/a/..", "http://h/.a/b..", "http://h?x=1",
        "http://h#f", "http://h/x#a#b", "http://h/x#a?b", "http://h/x?a?b#c", "http://h/x?a/../b",
        "http://h/x#../y", "http://h/a[]=1", "http://h/{x}", "http://h/x|y", "http://h^/", "http://h{/",
        "http://h\\x/", "http://h/\u{7F}", "http://h/\t", "http://h\u{1}/", "http://h/x/", "http://h//x",
        "http://h/a//..//b", "https://h:443", "http://h:99999999999999999999/",
    ]

    func testAgreesWithTheGeneralPath() {
        var plain = 0
        for text in samples {
            let general = try? RequestURL.makeReference(from: text)
            // Not plain leaves the URL to the general path, which is always right.
            guard let path = PlainRequestURL.pathRange(text) else { continue }
            XCTAssertEqual(general?.string, text, text)
            XCTAssertNil(general?.userInfo, text)
            let utf8 = Array(text.utf8)
            XCTAssertEqual(String(decoding: utf8[path], as: UTF8.self), general?.path, text)
            plain += 1
        }
        XCTAssertGreaterThan(plain, 15)
    }

    func testTypicalURLsArePlain() {
        XCTAssertNotNil(PlainRequestURL.pathRange("http://127.0.0.1:8080/small.json?i=7"))
        XCTAssertNotNil(PlainRequestURL.pathRange("https://api.example.com/v1/users?page=2#top"))
        XCTAssertNil(PlainRequestURL.pathRange("http://h/a%20b"))
        XCTAssertNil(PlainRequestURL.pathRange("example.com/x"))
    }
}

/// The bit sets of the bytes a URL may hold unencoded name exactly the documented characters.
final class URLPercentEncodingAllowedTests: XCTestCase {
    func testAllowedBytesAreTheDocumentedSet() {
        let documented = Set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?[]".utf8)
        for byte in UInt8.min...UInt8.max {
            XCTAssertEqual(URLPercentEncoding.isAllowed(byte), documented.contains(byte), "byte \(byte)")
        }
    }
}

/// A plain URL is what its shorthand expansion and validation make of it: the environment join
/// takes a plain base as parsed.
final class PlainBaseURLTests: XCTestCase {
    func testAPlainURLIsItsOwnValidatedForm() throws {
        for text in ["http://h", "http://h/", "https://h:8443/api/v1/?key=k", "http://h/a#f", "http://127.0.0.1:1/x"] {
            XCTAssertNotNil(PlainRequestURL.pathRange(text), text)
            XCTAssertEqual(
                URLReference(parsing: text),
                try URLReference(parsing: RequestURL.expandShorthand(text)).validatedForRequest(original: text), text)
        }
    }
}
