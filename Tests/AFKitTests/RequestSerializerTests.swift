import AFKit
import Foundation
import XCTest

/// `RequestSerializer.prepare`: URL assembly, default header order, overrides, removals, bodies.
final class RequestSerializerTests: XCTestCase {
    private let environment = ["LANG": "en_US.UTF-8"]

    private func prepare(
        _ spec: RequestSpec, acceptEncoding: String? = nil, standardInput: StandardInputBodySource? = nil,
        boundary: String? = nil
    ) throws -> PreparedRequest {
        try RequestSerializer.prepare(
            spec, environment: environment, acceptEncoding: acceptEncoding, standardInput: standardInput,
            boundary: boundary)
    }

    private func header(_ request: PreparedRequest, _ name: String) -> String? {
        request.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    func testDefaultHeadersForGet() throws {
        let request = try prepare(RequestSpec(method: "GET", url: "http://example.com/"))
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.url, "http://example.com/")
        XCTAssertEqual(
            request.headers,
            [
                HTTPField(name: "User-Agent", value: "afcli/0.1.0"), HTTPField(name: "Accept", value: "*/*"),
                HTTPField(name: "Accept-Language", value: "en-US;q=1"),
            ])
        XCTAssertNil(request.body)
        XCTAssertNil(request.bodyBytes)
        XCTAssertEqual(request.removedHeaders, [])
    }

    func testJSONBodyHeadersInOrder() throws {
        let spec = RequestSpec(
            method: "POST", url: "http://example.com/login",
            parameters: object(["user": str("ann"), "remember": .bool(true), "n": num("1e400"), "p": str("a/b")]),
            credentials: .basic(user: "user", password: "password"))
        let request = try prepare(spec, acceptEncoding: "gzip, deflate")
        XCTAssertEqual(
            request.headers,
            [
                HTTPField(name: "User-Agent", value: "afcli/0.1.0"),
                HTTPField(name: "Accept-Encoding", value: "gzip, deflate"),
                HTTPField(name: "Accept", value: "application/json, */*;q=0.5"),
                HTTPField(name: "Accept-Language", value: "en-US;q=1"),
                HTTPField(name: "Authorization", value: "Basic dXNlcjpwYXNzd29yZA=="),
                HTTPField(name: "Content-Type", value: "application/json"),
            ])
        XCTAssertEqual(request.bodyBytes, bytes("{\"user\":\"ann\",\"remember\":true,\"n\":1e400,\"p\":\"a/b\"}"))
        XCTAssertEqual(request.body?.length, 50)
    }

    func testJSONWithoutParametersSendsAnEmptyBodyForPostPutPatch() throws {
        // libcurl sends `Content-Length: 0` for these methods, so the prepared request says so too.
        for method in ["POST", "PUT", "PATCH"] {
            let request = try prepare(RequestSpec(method: method, url: "http://example.com/"))
            XCTAssertEqual(request.body?.length, 0, method)
            XCTAssertEqual(request.bodyBytes, [], method)
            XCTAssertNil(header(request, "Content-Type"), method)
            XCTAssertEqual(header(request, "Accept"), "*/*", method)
        }
        for method in ["GET", "DELETE", "OPTIONS", "PURGE"] {
            XCTAssertNil(try prepare(RequestSpec(method: method, url: "http://example.com/")).body, method)
        }
    }

    func testFramingHeadersMustAgreeWithTheBody() throws {
        func spec(_ headers: [HeaderItem], method: String = "POST") -> RequestSpec {
            RequestSpec(
                method: method, url: "http://x/", headers: headers, parameters: object(["a": .string("b")]))
        }
        // {"a":"b"} is 9 bytes: a typed length that agrees is sent once, by libcurl.
        let agreeing = try prepare(spec([HeaderItem(name: "content-length", value: " 9")]))
        XCTAssertNil(header(agreeing, "Content-Length"))
        XCTAssertEqual(agreeing.body?.length, 9)
        for value in ["5", "", "x"] as [String?] + [nil] {
            XCTAssertThrowsError(try prepare(spec([HeaderItem(name: "Content-Length", value: value)]))) { error in
                guard case .framingHeader(let name, let reason)? = error as? SerializationError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(name, "Content-Length")
                XCTAssertTrue(reason.contains("the body is 9 bytes"), reason)
            }
        }
        XCTAssertThrowsError(try prepare(spec([HeaderItem(name: "Content-Length", value: "3")], method: "GET")))
        XCTAssertNil(try prepare(spec([HeaderItem(name: "Content-Length", value: "0")], method: "GET")).body)
        // Transfer-Encoding: chunked sends the body chunked; anything else is refused.
        let chunked = try prepare(spec([HeaderItem(name: "Transfer-Encoding", value: "Chunked")]))
        XCTAssertNil(header(chunked, "Transfer-Encoding"))
        XCTAssertNil(chunked.body?.length)
        XCTAssertEqual(chunked.bodyBytes, bytes(#"{"a":"b"}"#))
        for value in ["gzip", "", nil] as [String?] {
            XCTAssertThrowsError(try prepare(spec([HeaderItem(name: "Transfer-Encoding", value: value)])))
        }
        XCTAssertThrowsError(
            try prepare(
                RequestSpec(
                    method: "GET", url: "http://x/", headers: [HeaderItem(name: "Transfer-Encoding", value: "chunked")])
            ))
    }

    func testManyHeaderItemsMergeInLinearTime() throws {
        // Each item used to scan every header so far: 20,000 names took about 50 s.
        let items =
            (0..<20_000).map { HeaderItem(name: "X-A\($0)", value: "1") }
            + (0..<20_000).map { HeaderItem(name: "X-Same", value: "\($0)") }
            + [HeaderItem(name: "x-a5", value: nil), HeaderItem(name: "User-Agent", value: "mine")]
        let start = ContinuousClock.now
        let merged = try RequestSerializer.mergeHeaders(
            defaults: [HTTPField(name: "User-Agent", value: "afcli"), HTTPField(name: "Accept", value: "*/*")],
            items: items)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10))
        XCTAssertEqual(merged.headers.count, 2 + 19_999 + 20_000)
        XCTAssertEqual(merged.headers[0], HTTPField(name: "User-Agent", value: "mine"))
        XCTAssertEqual(merged.headers[2], HTTPField(name: "X-A0", value: "1"))
        XCTAssertEqual(merged.headers.last, HTTPField(name: "X-Same", value: "19999"))
        XCTAssertEqual(merged.removed, ["x-a5"])
    }

    func testHostIsReplacedOnceButNeverRemoved() throws {
        let replaced = try prepare(
            RequestSpec(
                method: "GET", url: "http://x/",
                headers: [HeaderItem(name: "Host", value: "a.test"), HeaderItem(name: "host", value: "b.test")]))
        XCTAssertEqual(
            replaced.headers.filter { $0.name.lowercased() == "host" }, [HTTPField(name: "host", value: "b.test")])
        let empty = try prepare(
            RequestSpec(method: "GET", url: "http://x/", headers: [HeaderItem(name: "Host", value: "")]))
        XCTAssertEqual(header(empty, "Host"), "")
        XCTAssertThrowsError(
            try prepare(RequestSpec(method: "GET", url: "http://x/", headers: [HeaderItem(name: "Host", value: nil)]))
        ) { error in
            XCTAssertEqual(
                (error as? SerializationError)?.description,
                #"cannot send the header "Host" as typed: an HTTP/1.1 request needs one (Host:NAME sends another value)"#
            )
        }
    }

    func testParametersGoToQueryForGetHeadDelete() throws {
        for method in ["GET", "HEAD", "DELETE"] {
            let spec = RequestSpec(
                method: method, url: "http://x/p", parameters: object(["a": num("1")]), encoding: .form)
            let request = try prepare(spec)
            XCTAssertEqual(request.url, "http://x/p?a=1", method)
            XCTAssertNil(request.body, method)
            XCTAssertNil(header(request, "Content-Type"), method)
        }
    }

    func testQueryItemsThenParametersBeforeFragment() throws {
        let spec = RequestSpec(
            method: "GET", url: "http://x/p#frag",
            queryItems: [QueryItem(name: "q", value: "a b"), QueryItem(name: "a", value: "&")],
            parameters: object(["z": num("1")]))
        XCTAssertEqual(try prepare(spec).url, "http://x/p?q=a%20b&a=%26&z=1#frag")
    }

    func testQueryItemsOnPostStayInURLWhileParametersGoToBody() throws {
        let spec = RequestSpec(
            method: "POST", url: "http://x/p", queryItems: [QueryItem(name: "page", value: "2")],
            parameters: object(["a": str("b c")]), encoding: .form)
        let request = try prepare(spec)
        XCTAssertEqual(request.url, "http://x/p?page=2")
        XCTAssertEqual(request.bodyBytes, bytes("a=b%20c"))
    }

    func testUserHeadersOverrideRemoveAndRepeat() throws {
        let spec = RequestSpec(
            method: "GET", url: "http://x/",
            headers: [
                HeaderItem(name: "X-A", value: "1"), HeaderItem(name: "accept", value: "text/html"),
                HeaderItem(name: "Accept-Language", value: nil), HeaderItem(name: "X-Empty", value: ""),
                HeaderItem(name: "user-agent", value: "custom"), HeaderItem(name: "X-B", value: "b"),
                HeaderItem(name: "x-a", value: "2"), HeaderItem(name: "Accept", value: "text/plain"),
            ])
        let request = try prepare(spec)
        XCTAssertEqual(
            request.headers,
            [
                HTTPField(name: "user-agent", value: "custom"), HTTPField(name: "accept", value: "text/html"),
                HTTPField(name: "Accept", value: "text/plain"), HTTPField(name: "X-A", value: "1"),
                HTTPField(name: "x-a", value: "2"), HTTPField(name: "X-Empty", value: ""),
                HTTPField(name: "X-B", value: "b"),
            ])
        XCTAssertEqual(request.removedHeaders, ["Accept-Language"])
    }

    func testRemovalThenSetAgain() throws {
        let spec = RequestSpec(
            method: "GET", url: "http://x/",
            headers: [
                HeaderItem(name: "User-Agent", value: nil), HeaderItem(name: "X-Trace", value: nil),
                HeaderItem(name: "user-agent", value: "again"), HeaderItem(name: "x-trace", value: nil),
            ])
        let request = try prepare(spec)
        XCTAssertEqual(header(request, "User-Agent"), "again")
        XCTAssertEqual(request.headers.last, HTTPField(name: "user-agent", value: "again"))
        XCTAssertEqual(request.removedHeaders, ["X-Trace"])
    }

    func testUserContentTypeAndAuthorizationWin() throws {
        let spec = RequestSpec(
            method: "POST", url: "http://x/",
            headers: [
                HeaderItem(name: "Content-Type", value: "application/vnd.api+json"),
                HeaderItem(name: "Authorization", value: "Token t"),
            ], parameters: object(["a": num("1")]), credentials: .bearer(token: "ignored"))
        let request = try prepare(spec)
        XCTAssertEqual(
            request.headers.map(\.name), ["User-Agent", "Accept", "Accept-Language", "Authorization", "Content-Type"])
        XCTAssertEqual(header(request, "Authorization"), "Token t")
        XCTAssertEqual(header(request, "Content-Type"), "application/vnd.api+json")
    }

    func testInvalidHeaderIsRefused() {
        assertSerializationError(
            try prepare(
                RequestSpec(method: "GET", url: "http://x/", headers: [HeaderItem(name: "X-A", value: "a\r\nB: c")])),
            .invalidHeader(name: "X-A", reason: "the value contains a line break"),
            description: "invalid header \"X-A\": the value contains a line break")
        // A NUL is named as what it is.
        assertSerializationError(
            try prepare(
                RequestSpec(method: "GET", url: "http://x/", headers: [HeaderItem(name: "X-A", value: "a\u{0}b")])),
            .invalidHeader(name: "X-A", reason: "the value contains a NUL byte"),
            description: "invalid header \"X-A\": the value contains a NUL byte")
        XCTAssertThrowsError(
            try prepare(RequestSpec(method: "GET", url: "http://x/", headers: [HeaderItem(name: "A B", value: "1")])))
    }

    func testCredentialsFromURLUserInfo() throws {
        let request = try prepare(RequestSpec(method: "GET", url: "http://user:password@x/p"))
        XCTAssertEqual(request.url, "http://x/p")
        XCTAssertEqual(header(request, "Authorization"), "Basic dXNlcjpwYXNzd29yZA==")
        let userOnly = try prepare(RequestSpec(method: "GET", url: "http://ann@x/"))
        XCTAssertEqual(header(userOnly, "Authorization"), "Basic " + Data("ann:".utf8).base64EncodedString())
    }

    func testExplicitCredentialsBeatUserInfo() throws {
        let bearer = try prepare(RequestSpec(method: "GET", url: "http://u:p@x/", credentials: .bearer(token: "tok")))
        XCTAssertEqual(bearer.url, "http://x/")
        XCTAssertEqual(header(bearer, "Authorization"), "Bearer tok")
        let digest = try prepare(
            RequestSpec(method: "GET", url: "http://u:p@x/", credentials: .digest(user: "d", password: "e")))
        XCTAssertNil(header(digest, "Authorization"))
        XCTAssertEqual(digest.digestCredentials?.user, "d")
        XCTAssertEqual(digest.digestCredentials?.password, "e")
    }

    func testRawBytesBodyTakesTheEncodingsType() throws {
        let json = try prepare(RequestSpec(method: "POST", url: "http://x/", rawBody: .bytes(bytes("{\"a\":1}"))))
        XCTAssertEqual(json.bodyBytes, bytes("{\"a\":1}"))
        XCTAssertEqual(json.body?.length, 7)
        XCTAssertEqual(header(json, "Content-Type"), "application/json")
        XCTAssertEqual(header(json, "Accept"), "application/json, */*;q=0.5")
        let form = try prepare(
            RequestSpec(method: "POST", url: "http://x/", rawBody: .bytes(bytes("a=1")), encoding: .form))
        XCTAssertEqual(header(form, "Content-Type"), "application/x-www-form-urlencoded")
        XCTAssertEqual(header(form, "Accept"), "*/*")
    }

    func testRawFileBodyWithAndWithoutType() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("afkit-raw-\(UUID().uuidString).png")
            .path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let typed = try prepare(
            RequestSpec(method: "PUT", url: "http://x/", rawBody: .file(path: path, contentType: "image/png")))
        XCTAssertEqual(header(typed, "Content-Type"), "image/png")
        XCTAssertEqual(header(typed, "Accept"), "*/*")
        XCTAssertEqual(typed.body?.length, 3)
        XCTAssertNil(typed.bodyBytes)
        let untyped = try prepare(
            RequestSpec(method: "PUT", url: "http://x/", rawBody: .file(path: path, contentType: nil)))
        XCTAssertEqual(header(untyped, "Content-Type"), "image/png")
        XCTAssertEqual(header(untyped, "Accept"), "*/*")
        let unknownPath = path + ".afcli-unknown"
        try Data([1]).write(to: URL(fileURLWithPath: unknownPath))
        defer { try? FileManager.default.removeItem(atPath: unknownPath) }
        let unknown = try prepare(
            RequestSpec(method: "PUT", url: "http://x/", rawBody: .file(path: unknownPath, contentType: nil)))
        XCTAssertEqual(header(unknown, "Content-Type"), "application/octet-stream")
        let overridden = try prepare(
            RequestSpec(
                method: "PUT", url: "http://x/", headers: [HeaderItem(name: "Content-Type", value: "text/x-mine")],
                rawBody: .file(path: path, contentType: nil)))
        XCTAssertEqual(header(overridden, "Content-Type"), "text/x-mine")
        XCTAssertThrowsError(
            try prepare(
                RequestSpec(method: "PUT", url: "http://x/", rawBody: .file(path: path + ".missing", contentType: nil)))
        )
    }

    func testStandardInputBodyUsesTheGivenSource() throws {
        let given = StandardInputBodySource(fileDescriptor: -1)
        let request = try prepare(
            RequestSpec(method: "POST", url: "http://x/", rawBody: .standardInput), standardInput: given)
        XCTAssertTrue(request.body === given)
        XCTAssertNil(request.body?.length)
        XCTAssertNil(request.bodyBytes)
        XCTAssertEqual(header(request, "Content-Type"), "application/json")
    }

    func testRawBodyWithBodyParametersIsRefused() {
        assertSerializationError(
            try prepare(
                RequestSpec(method: "POST", url: "http://x/", parameters: object(["a": num("1")]), rawBody: .bytes([1]))
            ),
            .conflictingBody, description: "a raw body cannot be combined with data fields")
    }

    func testMultipartWithoutPartsSendsTheCloseDelimiter() throws {
        // HTTPie sends `--B--\r\n` for --multipart without items; MultipartRequestTests cover the rest.
        let request = try prepare(RequestSpec(method: "POST", url: "http://x/", encoding: .multipart), boundary: "B0")
        XCTAssertEqual(request.bodyBytes, bytes("--B0--\r\n"))
        XCTAssertEqual(request.body?.length, 8)
        XCTAssertEqual(header(request, "Content-Type"), "multipart/form-data; boundary=B0")
        XCTAssertThrowsError(
            try prepare(
                RequestSpec(method: "POST", url: "http://x/", files: [FileItem(field: "f", path: "/nonexistent/a")])))
    }

    func testInvalidURLIsRefused() {
        assertSerializationError(
            try prepare(RequestSpec(method: "GET", url: "ftp://x/")),
            .invalidURL("ftp://x/", reason: "the scheme must be http or https, not ftp"),
            description: "invalid URL \"ftp://x/\": the scheme must be http or https, not ftp")
    }

    func testInvalidNumberIsRefusedBeforeSending() {
        XCTAssertThrowsError(
            try prepare(RequestSpec(method: "POST", url: "http://x/", parameters: object(["a": num("01")]))))
    }

    func testOtherMethodsKeepTheirSpelling() throws {
        let request = try prepare(
            RequestSpec(method: "PROPFIND", url: "http://x/", parameters: object(["a": num("1")]), encoding: .form))
        XCTAssertEqual(request.method, "PROPFIND")
        XCTAssertEqual(request.bodyBytes, bytes("a=1"))
        XCTAssertEqual(request.url, "http://x/")
    }
}
