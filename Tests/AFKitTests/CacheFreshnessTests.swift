import XCTest

@testable import AFKit

/// RFC 9111's rules for a private cache, case by case: storability, lifetime, age, and the
/// parsers they rest on. Expected values are worked out by hand from the RFC.
final class CacheFreshnessTests: XCTestCase {
    private func head(_ status: Int = 200, _ fields: [(String, String)]) -> ResponseHead {
        ResponseHead(statusCode: status, reasonPhrase: "", httpVersion: "HTTP/1.1", headers: fields)
    }

    // 2023-11-14 22:13:20 GMT is 1_700_000_000.
    private let date = ("Date", "Tue, 14 Nov 2023 22:13:20 GMT")

    func testLifetimeTable() {
        let cases: [(String, [(String, String)], Int, Double)] = [
            ("max-age", [("Cache-Control", "max-age=60")], 200, 60),
            ("max-age wins over Expires", [date, ("Cache-Control", "max-age=5"), ("Expires", "Tue, 14 Nov 2023 23:13:20 GMT")], 200, 5),
            ("s-maxage is ignored", [("Cache-Control", "s-maxage=60")], 200, 0),
            ("quoted max-age", [("Cache-Control", "max-age=\"30\"")], 200, 30),
            ("invalid max-age is stale", [("Cache-Control", "max-age=abc"), ("Expires", "Tue, 14 Nov 2023 23:13:20 GMT")], 200, 0),
            ("huge max-age is capped", [("Cache-Control", "max-age=99999999999999")], 200, 2_147_483_648),
            ("Expires minus Date", [date, ("Expires", "Tue, 14 Nov 2023 23:13:20 GMT")], 200, 3600),
            ("invalid Expires is expired", [date, ("Expires", "0")], 200, 0),
            ("Expires before Date", [date, ("Expires", "Tue, 14 Nov 2023 21:13:20 GMT")], 200, 0),
            ("heuristic 10%", [date, ("Last-Modified", "Tue, 14 Nov 2023 21:56:40 GMT")], 200, 100),
            ("heuristic capped at a day", [date, ("Last-Modified", "Mon, 01 Jan 2001 00:00:00 GMT")], 200, 86_400),
            ("no heuristic for 302", [date, ("Last-Modified", "Tue, 14 Nov 2023 21:56:40 GMT")], 302, 0),
            ("heuristic for 404", [date, ("Last-Modified", "Tue, 14 Nov 2023 21:56:40 GMT")], 404, 100),
            ("nothing", [date], 200, 0),
        ]
        for (name, fields, status, expected) in cases {
            XCTAssertEqual(CacheFreshness.lifetime(head(status, fields), responseTime: 1_700_000_000), expected, name)
        }
    }

    func testStorabilityTable() {
        let none = CacheControl()
        let cases: [(String, String, [(String, String)], Int, Bool)] = [
            ("plain max-age", "GET", [("Cache-Control", "max-age=60")], 200, true),
            ("no-store", "GET", [("Cache-Control", "max-age=60, no-store")], 200, false),
            ("NO-STORE upper case", "GET", [("Cache-Control", "NO-STORE")], 200, false),
            ("POST", "POST", [("Cache-Control", "max-age=60")], 200, false),
            ("Vary with a star among names", "GET", [("Cache-Control", "max-age=60"), ("Vary", "Accept, *")], 200, false),
            ("Vary star alone", "GET", [("Cache-Control", "max-age=60"), ("Vary", "*")], 200, false),
            ("206", "GET", [("Cache-Control", "max-age=60")], 206, false),
            ("302 without lifetime", "GET", [("ETag", "\"x\"")], 302, false),
            ("302 with max-age", "GET", [("Cache-Control", "max-age=60")], 302, true),
            ("validator only", "GET", [("ETag", "\"x\"")], 200, true),
            ("nothing useful", "GET", [("Content-Type", "text/plain")], 200, false),
            ("private", "GET", [("Cache-Control", "private, max-age=9")], 200, true),
        ]
        for (name, method, fields, status, expected) in cases {
            XCTAssertEqual(
                CacheFreshness.isStorable(method: method, head: head(status, fields), requestControl: none, responseTime: 0),
                expected, name)
        }
        var noStoreRequest = CacheControl()
        noStoreRequest.noStore = true
        XCTAssertFalse(
            CacheFreshness.isStorable(
                method: "GET", head: head(200, [("Cache-Control", "max-age=60")]), requestControl: noStoreRequest,
                responseTime: 0))
    }

    func testAge() {
        // Received 2 s after the request, with Age: 10 and a Date 5 s before reception.
        let received = head(200, [date, ("Age", "10")])
        XCTAssertEqual(
            CacheFreshness.age(received, requestTime: 1_700_000_003, responseTime: 1_700_000_005, now: 1_700_000_105),
            112)
        // No Age: the apparent age (clock skew) counts.
        XCTAssertEqual(
            CacheFreshness.age(head(200, [date]), requestTime: 1_700_000_005, responseTime: 1_700_000_005, now: 1_700_000_005),
            5)
    }

    func testAgeIsDeltaSecondsAndFitsAnInteger() {
        // Age is sent back as whole seconds (Int(age)): a value Double reads as infinite or in
        // exponent form must not reach it; more than 2^31 counts as 2^31 (RFC 9111 §1.2.2).
        for (value, expected) in [
            ("1e400", 0.0), ("inf", 0), ("-5", 0), ("1e3", 0), (" 7 ", 7), ("99999999999999999999", 2_147_483_648),
        ] {
            let age = CacheFreshness.age(
                head(200, [("Cache-Control", "max-age=60"), ("Age", value)]), requestTime: 1_700_000_000,
                responseTime: 1_700_000_000, now: 1_700_000_000)
            XCTAssertEqual(age, expected, value)
        }
        let expiry = CacheFreshness.expiry(
            head(200, [("Age", "1e400"), ("Cache-Control", "max-age=60")]), requestTime: 1_700_000_000,
            responseTime: 1_700_000_000)
        XCTAssertEqual(expiry, 1_700_000_060)
    }

    func testNoCacheAndMustRevalidate() {
        func entry(_ control: String) -> CacheEntry {
            CacheEntry(
                namespace: "", method: "GET", url: "http://h/", varyNames: [], statusCode: 200, reasonPhrase: "OK",
                httpVersion: "HTTP/1.1", headers: [("Cache-Control", control)], body: .inline([]), bodySize: 0,
                requestTime: 0, responseTime: 0, expires: nil, lastUsed: 0)
        }
        XCTAssertTrue(CacheFreshness.answers(entry("max-age=10"), request: CacheControl(), now: 9))
        XCTAssertFalse(CacheFreshness.answers(entry("max-age=10"), request: CacheControl(), now: 10))
        XCTAssertFalse(CacheFreshness.answers(entry("max-age=10, no-cache"), request: CacheControl(), now: 1))
        XCTAssertTrue(CacheFreshness.mayServeStale(entry("max-age=10")))
        XCTAssertFalse(CacheFreshness.mayServeStale(entry("max-age=10, must-revalidate")))
        XCTAssertFalse(CacheFreshness.mayServeStale(entry("no-cache")))
    }

    func testMergeAfterNotModified() {
        let stored: [(name: String, value: String)] = [
            ("Content-Length", "7"), ("ETag", "\"a\""), ("Cache-Control", "max-age=1"),
        ]
        let merged = CacheFreshness.merge(
            stored: stored,
            notModified: head(304, [("Cache-Control", "max-age=60"), ("Content-Length", "0"), ("X-New", "1")]))
        XCTAssertEqual(merged.map { "\($0.name): \($0.value)" }, [
            "Content-Length: 7", "ETag: \"a\"", "Cache-Control: max-age=60", "X-New: 1",
        ])
    }

    func testHTTPDateForms() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), 784_111_777)
        XCTAssertNil(HTTPDate.parse("0"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse(String(repeating: "Sun, ", count: 100)))
    }

    func testCacheControlParsingIsBounded() {
        let many = Array(repeating: "x", count: 100).joined(separator: ",") + ",no-store"
        XCTAssertFalse(CacheControl([many]).noStore)
        let control = CacheControl(["Max-Age=5 , PRIVATE", "must-revalidate"])
        XCTAssertEqual(control.maxAge, 5)
        XCTAssertTrue(control.isPrivate && control.mustRevalidate)
    }

    func testLifetimeParsing() {
        XCTAssertEqual(CacheLifetime("90"), .seconds(90))
        XCTAssertEqual(CacheLifetime("10m"), .seconds(600))
        XCTAssertEqual(CacheLifetime("1h"), .seconds(3600))
        XCTAssertEqual(CacheLifetime("7d"), .seconds(604_800))
        XCTAssertEqual(CacheLifetime("forever"), .forever)
        for bad in ["", "m", "-1", "1.5h", "10x", "9999999999999"] { XCTAssertNil(CacheLifetime(bad), bad) }
    }

    func testKeyNormalizationAndParts() {
        XCTAssertEqual(CacheKey.normalize("HTTP://Example.COM:80"), "http://example.com/")
        XCTAssertEqual(CacheKey.normalize("https://h:443/a?b=C#frag"), "https://h/a?b=C")
        XCTAssertEqual(CacheKey.normalize("http://h:8080?q"), "http://h:8080/?q")
        let get = PreparedRequest(method: "GET", url: "http://h/x", headers: [])
        let key = CacheKey(request: get, namespace: "")
        XCTAssertEqual(key, CacheKey(request: PreparedRequest(method: "GET", url: "HTTP://H:80/x", headers: []), namespace: ""))
        XCTAssertNotEqual(key?.digest, CacheKey(request: get, namespace: "v2")?.digest)
        XCTAssertNotEqual(key?.digest, CacheKey(request: PreparedRequest(method: "HEAD", url: "http://h/x", headers: []), namespace: "")?.digest)
        let withAuth = PreparedRequest(method: "GET", url: "http://h/x", headers: [HTTPField(name: "Authorization", value: "Basic YQ==")])
        XCTAssertNotEqual(key?.digest, CacheKey(request: withAuth, namespace: "")?.digest)
        XCTAssertNotEqual(key?.digest, CacheKey(request: get, namespace: "", credentials: Array("netrc".utf8))?.digest)
        let posted = PreparedRequest(method: "POST", url: "http://h/x", headers: [], bodyBytes: [1])
        XCTAssertNotEqual(
            CacheKey(request: posted, namespace: "")?.digest,
            CacheKey(request: PreparedRequest(method: "POST", url: "http://h/x", headers: [], bodyBytes: [2]), namespace: "")?.digest)
        let streamed = PreparedRequest(method: "POST", url: "http://h/x", headers: [], body: BytesBodySource([1]))
        XCTAssertNil(CacheKey(request: streamed, namespace: ""))
    }

    func testVariants() {
        let head = self.head(200, [("Vary", "accept, Accept-Language"), ("Vary", "Accept")])
        XCTAssertEqual(CacheKey.varyNames(head), ["accept", "accept-language"])
        let json = CacheKey.variant(names: ["accept"], headers: [HTTPField(name: "Accept", value: "application/json")])
        XCTAssertEqual(json, CacheKey.variant(names: ["accept"], headers: [HTTPField(name: "ACCEPT", value: " application/json ")]))
        XCTAssertNotEqual(json, CacheKey.variant(names: ["accept"], headers: []))
        XCTAssertEqual(CacheKey.variant(names: [], headers: []), "")
    }
}
