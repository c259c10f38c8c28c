import Foundation
import XCTest

@testable import AFKit

/// The session file: both HTTPie layouts in, the 3.2 layout out, errors with line:column.
final class SessionFileTests: XCTestCase {
    /// A file as HTTPie 3.2.4 writes it (copied from one it wrote).
    static let httpie32 = """
        {
            "__meta__": {
                "about": "HTTPie session file",
                "help": "https://httpie.io/docs#sessions",
                "httpie": "3.2.4"
            },
            "auth": {
                "raw_auth": "u:p",
                "type": "basic"
            },
            "cookies": [
                {
                    "domain": "127.0.0.1",
                    "expires": null,
                    "name": "sid",
                    "path": "/",
                    "secure": false,
                    "value": "abc"
                },
                {
                    "domain": ".127.0.0.1",
                    "expires": 1795479129,
                    "name": "dom",
                    "path": "/x",
                    "secure": true,
                    "value": "1"
                }
            ],
            "headers": [
                {
                    "name": "X-Foo",
                    "value": "bar"
                }
            ]
        }

        """

    func testReadsHTTPie32Layout() throws {
        let session = try SessionFile.decode(Self.httpie32, path: "s.json")
        XCTAssertEqual(session.auth, SessionAuth(type: "basic", rawAuth: "u:p"))
        XCTAssertEqual(session.headers, [HTTPField(name: "X-Foo", value: "bar")])
        XCTAssertEqual(
            session.cookies,
            [
                SessionCookie(name: "sid", value: "abc", domain: "127.0.0.1", path: "/", expires: nil, secure: false),
                SessionCookie(
                    name: "dom", value: "1", domain: ".127.0.0.1", path: "/x", expires: 1_795_479_129, secure: true),
            ])
    }

    func testWritesHTTPie32LayoutByteForByte() throws {
        let session = try SessionFile.decode(Self.httpie32, path: "s.json")
        XCTAssertEqual(String(decoding: session.encoded(), as: UTF8.self), Self.httpie32)
    }

    func testReadsPre31Layout() throws {
        let text = """
            {"__meta__": {"about": "HTTPie session file", "help": "https://httpie.org/doc#sessions", "httpie": "2.3.0"},
             "auth": {"password": "pw", "type": "digest", "username": "olduser"},
             "cookies": {"legacy": {"expires": null, "path": "/", "secure": false, "value": "L1"}},
             "headers": {"X-Old": "1", "X-Null": null}}
            """
        let session = try SessionFile.decode(text, path: "old.json")
        XCTAssertEqual(session.auth, SessionAuth(type: "digest", rawAuth: "olduser:pw"))
        XCTAssertEqual(session.headers, [HTTPField(name: "X-Old", value: "1")])
        XCTAssertEqual(session.cookies, [SessionCookie(name: "legacy", value: "L1", domain: "", path: "/")])
        // Written back in the 3.2 layout: a list of cookie objects, raw_auth.
        let written = String(decoding: session.encoded(), as: UTF8.self)
        XCTAssertTrue(written.contains("\"raw_auth\": \"olduser:pw\""), written)
        XCTAssertTrue(written.contains("\"cookies\": [\n        {\n            \"domain\": \"\","), written)
    }

    func testNullAuthIsNoAuth() throws {
        let text = #"{"auth": {"password": null, "type": null, "username": null}, "cookies": [], "headers": []}"#
        XCTAssertNil(try SessionFile.decode(text, path: "s").auth)
    }

    func testSyntaxErrorNamesLineAndColumn() {
        XCTAssertThrowsError(try SessionFile.decode("{\"a\": 1,\n  \"b\": }", path: "/x/s.json")) { error in
            XCTAssertEqual(
                (error as? SessionError)?.description, "/x/s.json:2:8: session file is not valid JSON: expected a value"
            )
        }
    }

    func testWrongShapesAreErrors() {
        for text in [
            #"[]"#, #"{"cookies": 3}"#, #"{"headers": "x"}"#, #"{"auth": {"type": "jwt", "raw_auth": "t"}}"#,
            #"{"cookies": [{"value": "v"}]}"#, #"{"cookies": [{"name": "a", "expires": "soon"}]}"#,
        ] {
            XCTAssertThrowsError(try SessionFile.decode(text, path: "s.json"), text) { error in
                guard case .invalid(let path, _)? = error as? SessionError else { return XCTFail("\(error)") }
                XCTAssertEqual(path, "s.json")
            }
        }
    }

    func testUnknownTopLevelMembersAreKept() throws {
        let session = try SessionFile.decode(#"{"zzz": {"k": 1}, "cookies": []}"#, path: "s")
        XCTAssertTrue(
            String(decoding: session.encoded(), as: UTF8.self).contains("\"zzz\": {\n        \"k\": 1\n    }"))
    }

    // MARK: - Netscape lines

    func testNetscapeLinesBothWays() {
        let hostOnly = SessionCookie(name: "a", value: "1", domain: "127.0.0.1", path: "/", expires: nil, secure: false)
        XCTAssertEqual(hostOnly.netscapeLine(defaultHost: "x"), "127.0.0.1\tFALSE\t/\tFALSE\t0\ta\t1")
        let domain = SessionCookie(name: "b", value: "2", domain: ".example.com", path: "/p", expires: 99, secure: true)
        XCTAssertEqual(domain.netscapeLine(defaultHost: "x"), ".example.com\tTRUE\t/p\tTRUE\t99\tb\t2")
        // Unbound cookies take the request's host; Python's `localhost.local` is libcurl's `localhost`.
        XCTAssertEqual(
            SessionCookie(name: "c", value: "3").netscapeLine(defaultHost: "h.test"), "h.test\tFALSE\t/\tFALSE\t0\tc\t3"
        )
        XCTAssertEqual(
            SessionCookie(name: "d", value: "4", domain: "localhost.local").netscapeLine(defaultHost: "x"),
            "localhost\tFALSE\t/\tFALSE\t0\td\t4")
        XCTAssertNil(SessionCookie(name: "e", value: "a\tb", domain: "h").netscapeLine(defaultHost: "x"))

        XCTAssertEqual(SessionCookie(netscapeLine: "127.0.0.1\tFALSE\t/\tFALSE\t0\ta\t1"), hostOnly)
        XCTAssertEqual(SessionCookie(netscapeLine: "#HttpOnly_.example.com\tTRUE\t/p\tTRUE\t99\tb\t2"), domain)
        XCTAssertEqual(
            SessionCookie(netscapeLine: "localhost\tFALSE\t/\tFALSE\t0\td\t")?.domain, "localhost.local")
        XCTAssertNil(SessionCookie(netscapeLine: "not a cookie"))
    }

    // MARK: - Applying a session to a request

    func testApplyMergesHeadersAuthAndCookies() {
        var session = Session(
            path: "s.json",
            file: SessionFile(
                headers: [HTTPField(name: "X-Kept", value: "1"), HTTPField(name: "X-Over", value: "old")],
                auth: SessionAuth(type: "bearer", rawAuth: "tok"),
                cookies: [SessionCookie(name: "old", value: "o")]))
        var spec = RequestSpec(
            method: "GET", url: "http://Example.COM:8080/x",
            headers: [
                HeaderItem(name: "X-Over", value: "new"), HeaderItem(name: "Content-Type", value: "text/plain"),
                HeaderItem(name: "If-None-Match", value: "e"), HeaderItem(name: "Cookie", value: "k=v; j = w"),
                HeaderItem(name: "User-Agent", value: "afcli/0.1.0"),
            ])
        let lines = session.apply(to: &spec, storesAuth: true)
        XCTAssertEqual(spec.credentials, .bearer(token: "tok"))
        XCTAssertEqual(spec.headers.map(\.name), ["X-Kept", "X-Over", "Content-Type", "If-None-Match", "User-Agent"])
        XCTAssertEqual(spec.headers[1].value, "new")
        XCTAssertEqual(
            session.file.headers, [HTTPField(name: "X-Kept", value: "1"), HTTPField(name: "X-Over", value: "new")])
        XCTAssertEqual(
            lines,
            [
                "example.com\tFALSE\t/\tFALSE\t0\told\to", "example.com\tFALSE\t/\tFALSE\t0\tk\tv",
                "example.com\tFALSE\t/\tFALSE\t0\tj\tw",
            ])
        XCTAssertEqual(session.file.cookies.map(\.domain), ["", "example.com", "example.com"])
    }

    func testTypedAuthIsStoredUnlessTurnedOff() {
        var spec = RequestSpec(method: "GET", url: "http://h/", credentials: .digest(user: "u", password: "p:q"))
        var session = Session(path: "s", file: SessionFile())
        _ = session.apply(to: &spec, storesAuth: true)
        XCTAssertEqual(session.file.auth, SessionAuth(type: "digest", rawAuth: "u:p:q"))
        XCTAssertEqual(session.file.auth?.credentials, .digest(user: "u", password: "p:q"))

        var other = Session(path: "s", file: SessionFile())
        _ = other.apply(to: &spec, storesAuth: false)
        XCTAssertNil(other.file.auth)
    }

    func testUpdateDropsExpiredCookies() {
        var session = Session(path: "s", file: SessionFile())
        session.update(
            cookieLines: [
                "h\tFALSE\t/\tFALSE\t100\tgone\t1", "h\tFALSE\t/\tFALSE\t300\tkept\t2", "h\tFALSE\t/\tFALSE\t0\ts\t3",
            ],
            now: 200)
        XCTAssertEqual(session.file.cookies.map(\.name), ["kept", "s"])
    }

    func testUpdateKeepsFileOrderAndReportsChanges() {
        let a = SessionCookie(name: "a", value: "1", domain: "h.test")
        let b = SessionCookie(name: "b", value: "2", domain: "h.test")
        var session = Session(path: "s", file: SessionFile(cookies: [a, b]))
        session.update(cookieLines: ["h.test\tFALSE\t/\tFALSE\t0\tb\t2", "h.test\tFALSE\t/\tFALSE\t0\ta\t1"], now: 0)
        XCTAssertEqual(session.file.cookies, [a, b])
        XCTAssertFalse(session.isModified)
        session.update(
            cookieLines: [
                "h.test\tFALSE\t/\tFALSE\t0\tc\t3", "h.test\tFALSE\t/\tFALSE\t0\tb\t9",
                "h.test\tFALSE\t/\tFALSE\t0\ta\t1",
            ],
            now: 0)
        XCTAssertEqual(session.file.cookies.map(\.name), ["a", "b", "c"])
        XCTAssertEqual(session.file.cookies[1].value, "9")
        XCTAssertTrue(session.isModified)
    }
}
