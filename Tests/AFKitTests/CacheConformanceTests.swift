import XCTest

@testable import AFKit

/// The cases of the public HTTP caching test suite (cache-tests.fyi) that a private cache must
/// pass, rewritten as checks of the pure rules they exercise: parsing of Expires, Age and Vary,
/// the fields a cache stores, and what a 304 may update.
final class CacheConformanceTests: XCTestCase {
    private func head(_ fields: [(String, String)], status: Int = 200) -> ResponseHead {
        ResponseHead(statusCode: status, reasonPhrase: "", httpVersion: "HTTP/1.1", headers: fields)
    }

    // 2050-08-18 02:01:18 GMT.
    private let august2050: Double = 2_544_400_878

    func testExpiresInTheThreeHTTPDateFormsIsAFutureDate() {
        XCTAssertEqual(HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT"), august2050)
        XCTAssertEqual(HTTPDate.parse("Thursday, 18-Aug-50 02:01:18 GMT"), august2050)
        XCTAssertEqual(HTTPDate.parse("Thu Aug 18 02:01:18 2050"), august2050)
        XCTAssertEqual(HTTPDate.parse("Thu Aug  8 02:01:18 2050"), august2050 - 10 * 86_400)
        // The case of names changes no meaning.
        for text in ["THU, 18 Aug 2050 02:01:18 GMT", "Thu, 18 AUG 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 gMT"] {
            XCTAssertEqual(HTTPDate.parse(text), august2050, text)
        }
        XCTAssertEqual(HTTPDate.parse("Tue, 19 Jan 2038 03:14:08 GMT"), 2_147_483_648)
    }

    func testAnInvalidExpiresIsNoDateAndMeansExpired() {
        let invalid = [
            "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
            "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
            "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 8 Aug 2050 02:01:18 GMT",
            "Thu,  18 Aug 2050 02:01:18 GMT", "Friday, 18-Aug-2050 02:01:18 GMT",
            "Thu Aug 18 02:01:18 50", "0", "", "-1",
        ]
        for text in invalid {
            XCTAssertNil(HTTPDate.parse(text), text)
            let response = head([("Date", "Thu, 18 Aug 2050 01:01:18 GMT"), ("Expires", text)])
            XCTAssertEqual(CacheFreshness.lifetime(response, responseTime: august2050 - 3600), 0, text)
        }
    }

    func testSeveralExpiresLinesMeanExpired() {
        let date = ("Date", "Thu, 18 Aug 2050 01:01:18 GMT")
        let one = head([date, ("Expires", "Thu, 18 Aug 2050 02:01:18 GMT")])
        XCTAssertEqual(CacheFreshness.lifetime(one, responseTime: 0), 3600)
        let two = head([date, ("Expires", "Thu, 18 Aug 2050 02:01:18 GMT"), ("Expires", "Thu, 18 Aug 2050 02:01:19 GMT")])
        XCTAssertEqual(CacheFreshness.lifetime(two, responseTime: 0), 0)
    }

    func testAnyStarInVaryMeansNeverReused() {
        let lists: [[String]] = [["*"], ["*, *"], ["*", "*"], [", *"], ["", "*"], ["*, Foo"], ["Foo, *"], ["Foo", "*"]]
        for lines in lists {
            let response = head([("Cache-Control", "max-age=3600")] + lines.map { ("Vary", $0) })
            XCTAssertTrue(CacheFreshness.varyHasStar(response), "\(lines)")
            XCTAssertFalse(
                CacheFreshness.isStorable(method: "GET", head: response, requestControl: CacheControl(), responseTime: 0),
                "\(lines)")
        }
        XCTAssertFalse(CacheFreshness.varyHasStar(head([("Vary", "Foo, Accept*")])))
    }

    func testAgeTakesTheFirstMemberOfTheFirstLine() {
        let cases: [([String], Double?)] = [
            (["7200, 0"], 7200), (["0, 7200"], 0), (["7200", "0"], 7200), (["0", "7200"], 0), (["0, 0"], 0),
            (["7200;foo"], 7200), (["7200;foo=111"], 7200), (["old, 0"], nil), ([";7200"], nil), (["1.5"], nil), (["-5"], nil), ([], nil),
        ]
        for (lines, expected) in cases {
            XCTAssertEqual(CacheFreshness.ageField(head(lines.map { ("Age", $0) })), expected, "\(lines)")
        }
        // A response already 7200 s old is stale under max-age=3600.
        let stale = head([("Cache-Control", "max-age=3600"), ("Age", "7200, 0")])
        XCTAssertEqual(CacheFreshness.age(stale, requestTime: 10, responseTime: 10, now: 10), 7200)
    }

    func testHopByHopAndConnectionNominatedFieldsAreNotStoredAndSetCookieIs() {
        let received: [(name: String, value: String)] = [
            ("Connection", "a, B"), ("a", "1"), ("b", "2"), ("c", "3"), ("Keep-Alive", "timeout=5"), ("TE", "x"),
            ("Transfer-Encoding", "chunked"), ("Upgrade", "h2c"), ("Proxy-Connection", "x"),
            ("Proxy-Authenticate", "Basic"), ("Proxy-Authentication-Info", "x"), ("Proxy-Authorization", "x"),
            ("Set-Cookie", "a=b"), ("Set-Cookie2", "a=c"), ("Content-Type", "text/plain"),
        ]
        XCTAssertEqual(
            CacheEntry.storable(received).map(\.name), ["c", "Set-Cookie", "Set-Cookie2", "Content-Type"])
    }

    func testA304UpdatesNoConnectionNominatedField() {
        let merged = CacheFreshness.merge(
            stored: [("ETag", "\"a\""), ("X", "old")],
            notModified: head([("Connection", "X"), ("X", "new"), ("Y", "1")], status: 304))
        XCTAssertEqual(merged.map { "\($0.name): \($0.value)" }, ["ETag: \"a\"", "X: old", "Y: 1"])
    }

    func testA304NamesAnotherRepresentationOnlyByAnotherStrongETag() {
        let stored = head([("ETag", "\"v1\"")])
        XCTAssertTrue(CacheFreshness.namesOtherRepresentation(notModified: head([("ETag", "\"v2\"")]), stored: stored))
        XCTAssertFalse(CacheFreshness.namesOtherRepresentation(notModified: head([("ETag", "\"v1\"")]), stored: stored))
        XCTAssertFalse(CacheFreshness.namesOtherRepresentation(notModified: head([("ETag", "W/\"v2\"")]), stored: stored))
        XCTAssertFalse(CacheFreshness.namesOtherRepresentation(notModified: head([]), stored: stored))
        XCTAssertTrue(CacheFreshness.namesOtherRepresentation(notModified: head([("ETag", "\"v1\"")]), stored: head([])))
    }

    func testTheTargetURIUsesTheHostSent() {
        func target(_ url: String, _ host: String?) -> String? {
            CacheKey.targetURI(
                PreparedRequest(method: "GET", url: url, headers: host.map { [HTTPField(name: "Host", value: $0)] } ?? []))
        }
        XCTAssertEqual(target("http://127.0.0.1:8080/a?b", nil), "http://127.0.0.1:8080/a?b")
        XCTAssertEqual(target("http://127.0.0.1:8080/a?b", "Alice.Example"), "http://alice.example/a?b")
        XCTAssertEqual(target("https://127.0.0.1/", "bob.example:443"), "https://bob.example/")
        XCTAssertEqual(target("http://127.0.0.1:8080/a", ""), "http://127.0.0.1:8080/a")
        XCTAssertNil(target("http://127.0.0.1/a", "evil/x"))
        XCTAssertNil(target("http://127.0.0.1/a", "user@host"))
    }

    func testTheKeyHasTheCookiesSentToTheURLNotTheWholeJar() {
        var settings = TransferSettings()
        settings.cookies = CookieSettings(lines: [])
        let empty = CacheCredentials(settings).material(for: "http://h.example/a", now: 1000)
        settings.cookies = CookieSettings(lines: [
            "other.example\tFALSE\t/\tFALSE\t0\telsewhere\t1", "h.example\tFALSE\t/b\tFALSE\t0\tdeeper\t1",
            "h.example\tFALSE\t/\tFALSE\t500\texpired\t1",
        ])
        XCTAssertEqual(CacheCredentials(settings).material(for: "http://h.example/a", now: 1000), empty)
        XCTAssertNotEqual(CacheCredentials(settings).material(for: "http://h.example/b/c", now: 1000), empty)
        XCTAssertNotEqual(CacheCredentials(settings).material(for: "http://h.example/a", now: 100), empty)
    }

    func testRequestDirectivesDecideWhetherAStoredResponseAnswers() {
        func entry(_ control: String, age: String = "0") -> CacheEntry {
            CacheEntry(
                namespace: "", method: "GET", url: "http://h/", varyNames: [], statusCode: 200, reasonPhrase: "OK",
                httpVersion: "HTTP/1.1", headers: [("Cache-Control", control), ("Age", age)], body: .inline([]),
                bodySize: 0, requestTime: 0, responseTime: 0, expires: nil, lastUsed: 0)
        }
        func answers(_ stored: CacheEntry, _ request: String, now: Double) -> Bool {
            CacheFreshness.answers(stored, request: CacheControl([request]), now: now)
        }
        let hour = entry("max-age=3600")
        XCTAssertTrue(answers(hour, "", now: 3))
        XCTAssertFalse(answers(hour, "max-age=0", now: 3))
        XCTAssertFalse(answers(hour, "max-age=1", now: 3))
        XCTAssertTrue(answers(hour, "max-age=3", now: 3))
        XCTAssertFalse(answers(entry("max-age=3600", age: "1800"), "max-age=600", now: 0))
        XCTAssertFalse(answers(entry("max-age=1500"), "min-fresh=2000", now: 0))
        XCTAssertFalse(answers(entry("max-age=1500", age: "1000"), "min-fresh=1000", now: 0))
        XCTAssertTrue(answers(entry("max-age=1500", age: "1000"), "min-fresh=400", now: 0))
        XCTAssertFalse(answers(hour, "no-cache", now: 0))
        XCTAssertFalse(answers(hour, "no-store", now: 0))
        // max-stale: stale by at most the value, any staleness without one, never past must-revalidate.
        XCTAssertTrue(answers(entry("max-age=1"), "max-stale=1000", now: 3))
        XCTAssertTrue(answers(entry("max-age=1500", age: "2000"), "max-stale=1000", now: 0))
        XCTAssertFalse(answers(entry("max-age=1500", age: "3000"), "max-stale=1000", now: 0))
        XCTAssertTrue(answers(entry("max-age=1", age: "99999"), "max-stale", now: 0))
        XCTAssertFalse(answers(entry("max-age=1, must-revalidate"), "max-stale", now: 3))
        XCTAssertFalse(answers(entry("max-age=1"), "", now: 3))
    }

    func testCacheControlSyntaxCases() {
        // The first max-age wins, on one line or on two.
        XCTAssertEqual(CacheControl(["max-age=1800, max-age=1"]).maxAge, 1800)
        XCTAssertEqual(CacheControl(["max-age=1800", "max-age=1"]).maxAge, 1800)
        // A decimal fraction is read as whole seconds, as Firefox and Safari do.
        XCTAssertEqual(CacheControl(["max-age=3600.0"]).maxAge, 3600)
        XCTAssertEqual(CacheControl(["max-age=3600.5"]).maxAge, 3600)
        for invalid in ["max-age= 3600", "max-age=a3600", "max-age=3600a", "max-age=-1", "max-age=36.", "max-age"] {
            let control = CacheControl([invalid])
            XCTAssertTrue(control.maxAge == nil && control.invalidMaxAge, invalid)
        }
        // A space before the `=` makes another directive, which is ignored.
        let spaced = CacheControl(["max-age =3600"])
        XCTAssertTrue(spaced.maxAge == nil && !spaced.invalidMaxAge)
        // Commas inside a quoted string do not end the directive.
        XCTAssertEqual(CacheControl(["no-cache=\"a, B\", max-age=5"]).noCacheFields, ["a", "b"])
        XCTAssertEqual(CacheControl(["no-cache=\"a, B\", max-age=5"]).maxAge, 5)
        XCTAssertFalse(CacheControl(["no-cache=\"a\""]).noCache)
        XCTAssertEqual(CacheControl(["foo=\"max-age=8\", max-age=1"]).maxAge, 1)
    }

    func testAQualifiedNoCacheStoresTheResponseWithoutTheNamedFields() {
        let fields: [(name: String, value: String)] = [
            ("Cache-Control", "no-cache=\"a\""), ("a", "1"), ("b", "2"), ("Cache-Control", "max-age=3600"),
        ]
        XCTAssertEqual(CacheEntry.storable(fields).map(\.name), ["Cache-Control", "b", "Cache-Control"])
        let response = head(fields.map { ($0.name, $0.value) })
        XCTAssertTrue(
            CacheFreshness.isStorable(method: "GET", head: response, requestControl: CacheControl(), responseTime: 0))
        XCTAssertEqual(CacheFreshness.lifetime(response, responseTime: 0), 3600)
    }

    func testMustUnderstandStoresAnUnderstoodStatusDespiteNoStore() {
        func stored(_ status: Int) -> Bool {
            CacheFreshness.isStorable(
                method: "GET", head: head([("Cache-Control", "max-age=3600, no-store, must-understand")], status: status),
                requestControl: CacheControl(), responseTime: 0)
        }
        XCTAssertTrue(stored(200))
        XCTAssertTrue(stored(404))
        XCTAssertFalse(stored(599))
        XCTAssertFalse(stored(299))
    }

    func testPublicAllowsHeuristicFreshnessForAnyStatus() {
        let date = ("Date", "Tue, 14 Nov 2023 22:13:20 GMT")
        let modified = ("Last-Modified", "Tue, 14 Nov 2023 21:56:40 GMT")
        XCTAssertEqual(CacheFreshness.lifetime(head([date, modified], status: 599), responseTime: 0), 0)
        XCTAssertEqual(
            CacheFreshness.lifetime(head([date, modified, ("Cache-Control", "public")], status: 599), responseTime: 0),
            100)
    }

    func testVaryComparesNormalisedValues() {
        let one = CacheKey.variant(names: ["foo"], headers: [HTTPField(name: "Foo", value: "1, 2")])
        XCTAssertEqual(one, CacheKey.variant(names: ["foo"], headers: [HTTPField(name: "Foo", value: "1"), HTTPField(name: "foo", value: "2")]))
        XCTAssertEqual(one, CacheKey.variant(names: ["foo"], headers: [HTTPField(name: "Foo", value: " 1,2 ")]))
        XCTAssertNotEqual(one, CacheKey.variant(names: ["foo"], headers: [HTTPField(name: "Foo", value: "2, 1")]))
        XCTAssertNotEqual(one, CacheKey.variant(names: ["foo"], headers: [HTTPField(name: "Foo", value: "1")]))
    }

    func testA304UpdatesContentRangeButNotTheBodysLengthOrCoding() {
        let merged = CacheFreshness.merge(
            stored: [("Content-Range", "bytes 0-1/2"), ("Content-Length", "2"), ("Content-Encoding", "gzip")],
            notModified: head(
                [("Content-Range", "bytes 0-1/3"), ("Content-Length", "0"), ("Content-Encoding", "br")], status: 304))
        XCTAssertEqual(
            merged.map { "\($0.name): \($0.value)" },
            ["Content-Length: 2", "Content-Encoding: gzip", "Content-Range: bytes 0-1/3"])
    }
}
