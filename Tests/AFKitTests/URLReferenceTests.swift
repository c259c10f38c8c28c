import AFKit
import XCTest

/// URL parsing, validation, percent-encoding, HTTPie shorthands and base-URL resolution (spec §3).
final class URLReferenceTests: XCTestCase {
    func testParsesAllComponents() {
        let reference = URLReference(parsing: "https://us%40er:pw@[::1]:8443/a/b?x=1&y#frag")
        XCTAssertEqual(reference.scheme, "https")
        XCTAssertEqual(reference.userInfo, "us%40er:pw")
        XCTAssertEqual(reference.host, "[::1]")
        XCTAssertEqual(reference.port, "8443")
        XCTAssertEqual(reference.path, "/a/b")
        XCTAssertEqual(reference.query, "x=1&y")
        XCTAssertEqual(reference.fragment, "frag")
        XCTAssertEqual(reference.string, "https://us%40er:pw@[::1]:8443/a/b?x=1&y#frag")
    }

    func testParsesRelativeReferences() {
        let reference = URLReference(parsing: "foo/bar?q")
        XCTAssertNil(reference.scheme)
        XCTAssertFalse(reference.hasAuthority)
        XCTAssertEqual(reference.path, "foo/bar")
        XCTAssertEqual(reference.query, "q")
        XCTAssertEqual(URLReference(parsing: "//h").host, "h")
    }

    func testShorthands() {
        XCTAssertEqual(RequestURL.expandShorthand(":3000/x"), "http://localhost:3000/x")
        XCTAssertEqual(RequestURL.expandShorthand(":/x"), "http://localhost/x")
        XCTAssertEqual(RequestURL.expandShorthand(":"), "http://localhost")
        XCTAssertEqual(RequestURL.expandShorthand(":3000"), "http://localhost:3000")
        XCTAssertEqual(RequestURL.expandShorthand(":?a=1"), "http://localhost?a=1")
        XCTAssertEqual(RequestURL.expandShorthand("example.org/x"), "http://example.org/x")
        XCTAssertEqual(RequestURL.expandShorthand("localhost:8080/a"), "http://localhost:8080/a")
        XCTAssertEqual(RequestURL.expandShorthand("://example.org"), "http://example.org")
        XCTAssertEqual(RequestURL.expandShorthand("https://example.org"), "https://example.org")
        XCTAssertEqual(RequestURL.expandShorthand("HTTP://Example.org"), "HTTP://Example.org")
    }

    func testMakeAppliesShorthandAndNormalizes() throws {
        XCTAssertEqual(try RequestURL.make(from: ":3000/x"), "http://localhost:3000/x")
        XCTAssertEqual(try RequestURL.make(from: "HTTPS://Example.com"), "https://Example.com")
        XCTAssertEqual(try RequestURL.make(from: "example.com"), "http://example.com")
        XCTAssertEqual(try RequestURL.make(from: "http://x:/p"), "http://x/p")
        XCTAssertEqual(try RequestURL.make(from: "http://[::1]:8080/"), "http://[::1]:8080/")
        XCTAssertEqual(try RequestURL.make(from: "http://[fe80::1%25eth0]/"), "http://[fe80::1%25eth0]/")
        XCTAssertEqual(try RequestURL.make(from: "http://[fe80::1%25en-0.a_b~]/"), "http://[fe80::1%25en-0.a_b~]/")
    }

    func testAnIPv6ZoneIsOnlyUnreservedCharactersAfterPercent25() {
        for host in ["[fe80::1%25eth0{]", "[fe80::1%25e\"x]", "[fe80::1%25e%0a]", "[fe80::1%25]", "[fe80::1%eth0]",
                     "[fe80::1%25e th]", "[fe80::1%25é]"] {
            XCTAssertFalse(URLReference.isValidHost(host), host)
            XCTAssertThrowsError(try RequestURL.make(from: "http://\(host)/"), host)
        }
    }

    func testPercentEncodesWhatAURLCannotHold() throws {
        XCTAssertEqual(try RequestURL.make(from: "example.com/a b"), "http://example.com/a%20b")
        XCTAssertEqual(
            try RequestURL.make(from: "example.com/é?q=ü x#frag ment"),
            "http://example.com/%C3%A9?q=%C3%BC%20x#frag%20ment")
        XCTAssertEqual(try RequestURL.make(from: "example.com/%20%7e?a=%C3%A4"), "http://example.com/%20%7e?a=%C3%A4")
        XCTAssertEqual(try RequestURL.make(from: "example.com/100%?p=5%"), "http://example.com/100%25?p=5%25")
        XCTAssertEqual(try RequestURL.make(from: "example.com/a#b#c"), "http://example.com/a#b%23c")
        XCTAssertEqual(
            try RequestURL.make(from: "example.com/?a[]=1&b={\"x\"}|^"),
            "http://example.com/?a[]=1&b=%7B%22x%22%7D%7C%5E")
        XCTAssertEqual(URLPercentEncoding.encodeInvalidCharacters("<\\>`\t"), "%3C%5C%3E%60%09")
        // A combining mark right after `#` must not hide the delimiter inside one Character.
        XCTAssertEqual(try RequestURL.make(from: "example.com/a#\u{301}x"), "http://example.com/a#%CC%81x")
    }

    func testValidationErrors() {
        assertSerializationError(
            try RequestURL.make(from: "ftp://x/"),
            .invalidURL("ftp://x/", reason: "the scheme must be http or https, not ftp"),
            description: "invalid URL \"ftp://x/\": the scheme must be http or https, not ftp")
        assertSerializationError(
            try RequestURL.make(from: "http://"), .invalidURL("http://", reason: "the host is empty"),
            description: "invalid URL \"http://\": the host is empty")
        assertSerializationError(
            try RequestURL.make(from: "http://x:99999/"),
            .invalidURL("http://x:99999/", reason: "the port must be a number from 1 to 65535, not 99999"),
            description: "invalid URL \"http://x:99999/\": the port must be a number from 1 to 65535, not 99999")
        XCTAssertThrowsError(try RequestURL.make(from: "http://x:8a/"))
        XCTAssertThrowsError(try RequestURL.make(from: "http://x:0/"))
        assertSerializationError(
            try RequestURL.make(from: ":99999"),
            .invalidURL(":99999", reason: "the port must be a number from 1 to 65535, not 99999"),
            description: "invalid URL \":99999\": the port must be a number from 1 to 65535, not 99999")
        assertSerializationError(
            try RequestURL.make(from: "http://[::1/"),
            .invalidURL("http://[::1/", reason: "the host [::1 is not valid"),
            description: "invalid URL \"http://[::1/\": the host [::1 is not valid")
        XCTAssertThrowsError(try RequestURL.make(from: "x", baseURL: "ftp://base/")) { error in
            XCTAssertEqual("\(error)", "invalid URL \"ftp://base/\": the scheme must be http or https, not ftp")
        }
        XCTAssertThrowsError(try RequestURL.make(from: "http://[::1]x/"))
        XCTAssertThrowsError(try RequestURL.make(from: "http://a b/"))
        assertSerializationError(
            try URLReference.parseRequestURL("example.com"), .invalidURL("example.com", reason: "it has no scheme"),
            description: "invalid URL \"example.com\": it has no scheme")
        XCTAssertTrue(URLReference.isValidPort("65535"))
        XCTAssertTrue(URLReference.isValidPort("0080"))
        XCTAssertFalse(URLReference.isValidPort("65536"))
        XCTAssertFalse(URLReference.isValidPort("123456789012345678901234567890"))
    }

    func testBaseURLSpecTable() throws {
        let base = "http://example.com/v1/"
        XCTAssertEqual(try RequestURL.make(from: "foo", baseURL: base), "http://example.com/v1/foo")
        XCTAssertEqual(try RequestURL.make(from: "foo?bar=baz", baseURL: base), "http://example.com/v1/foo?bar=baz")
        XCTAssertEqual(try RequestURL.make(from: "/foo", baseURL: base), "http://example.com/foo")
        XCTAssertEqual(try RequestURL.make(from: "foo/", baseURL: base), "http://example.com/v1/foo/")
        XCTAssertEqual(try RequestURL.make(from: "/foo/", baseURL: base), "http://example.com/foo/")
        XCTAssertEqual(try RequestURL.make(from: "http://example2.com/", baseURL: base), "http://example2.com/")
    }

    func testBaseURLWithoutTrailingSlashGetsOne() throws {
        XCTAssertEqual(try RequestURL.make(from: "foo", baseURL: "http://example.com/v1"), "http://example.com/v1/foo")
        XCTAssertEqual(try RequestURL.make(from: "foo", baseURL: "http://example.com"), "http://example.com/foo")
        XCTAssertEqual(try RequestURL.make(from: "../x", baseURL: ":8080/api/v2"), "http://localhost:8080/api/x")
        XCTAssertEqual(try RequestURL.make(from: "a b", baseURL: "example.com/v1?k=1"), "http://example.com/v1/a%20b")
        XCTAssertEqual(try RequestURL.make(from: "", baseURL: "example.com/v1?k=1"), "http://example.com/v1/?k=1")
        XCTAssertThrowsError(try RequestURL.make(from: "ftp://x/", baseURL: "http://example.com/"))
    }

    func testRFC3986NormalAndAbnormalExamples() {
        let base = URLReference(parsing: "http://a/b/c/d;p?q")
        let examples: KeyValuePairs<String, String> = [
            "g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
            "/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
            "#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s", "g?y#s": "http://a/b/c/g?y#s",
            ";x": "http://a/b/c/;x", "g;x": "http://a/b/c/g;x", "g;x?y#s": "http://a/b/c/g;x?y#s",
            "": "http://a/b/c/d;p?q", ".": "http://a/b/c/", "./": "http://a/b/c/", "..": "http://a/b/",
            "../": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/", "../../": "http://a/",
            "../../g": "http://a/g", "../../../g": "http://a/g", "../../../../g": "http://a/g",
            "/./g": "http://a/g", "/../g": "http://a/g", "g.": "http://a/b/c/g.", ".g": "http://a/b/c/.g",
            "g..": "http://a/b/c/g..", "..g": "http://a/b/c/..g", "./../g": "http://a/b/g",
            "./g/.": "http://a/b/c/g/", "g/./h": "http://a/b/c/g/h", "g/../h": "http://a/b/c/h",
            "g;x=1/./y": "http://a/b/c/g;x=1/y", "g;x=1/../y": "http://a/b/c/y", "g?y/./x": "http://a/b/c/g?y/./x",
            "g?y/../x": "http://a/b/c/g?y/../x", "g#s/./x": "http://a/b/c/g#s/./x", "http:g": "http:g",
        ]
        for (reference, expected) in examples {
            XCTAssertEqual(base.resolving(URLReference(parsing: reference)).string, expected, "reference \(reference)")
        }
    }

    func testRemoveDotSegments() {
        XCTAssertEqual(URLReference.removeDotSegments("/a/b/c/./../../g"), "/a/g")
        XCTAssertEqual(URLReference.removeDotSegments("mid/content=5/../6"), "mid/6")
    }

    func testRemovingUserInfo() {
        let split = URLReference.removingUserInfo(from: "http://user:p%40ss%3A@host:8080/x?y#z")
        XCTAssertEqual(split.url, "http://host:8080/x?y#z")
        XCTAssertEqual(split.user, "user")
        XCTAssertEqual(split.password, "p@ss:")
        let noPassword = URLReference.removingUserInfo(from: "http://us%20er@host")
        XCTAssertEqual(noPassword.url, "http://host")
        XCTAssertEqual(noPassword.user, "us er")
        XCTAssertNil(noPassword.password)
        let none = URLReference.removingUserInfo(from: "http://host/")
        XCTAssertEqual(none.url, "http://host/")
        XCTAssertNil(none.user)
        let lastAt = URLReference.removingUserInfo(from: "http://a:b@c@host/")
        XCTAssertEqual(lastAt.url, "http://host/")
        XCTAssertEqual(lastAt.password, "b@c")
    }
}
