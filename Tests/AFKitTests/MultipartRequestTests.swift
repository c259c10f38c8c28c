import AFCurl
import AFKit
import Foundation
import XCTest

/// `RequestSerializer.prepare` for multipart requests: which requests get a multipart body, part
/// order and names, headers, and every refusal before sending.
final class MultipartRequestTests: TemporaryDirectoryTestCase {
    private let boundary = "Boundary+0123456789ABCDEF"

    private func makeFile(_ name: String, _ contents: String) throws -> String {
        try makeFile(name, Array(contents.utf8))
    }

    private func prepare(_ spec: RequestSpec, boundary: String? = "Boundary+0123456789ABCDEF") throws -> PreparedRequest
    {
        try RequestSerializer.prepare(spec, environment: ["LANG": "en_US.UTF-8"], boundary: boundary)
    }

    private func header(_ request: PreparedRequest, _ name: String) -> String? {
        request.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    private func body(_ request: PreparedRequest) throws -> [UInt8] {
        let source = try XCTUnwrap(request.body)
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1000)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return result }
            result += buffer[0..<count]
        }
    }

    /// The expected body for parts given as (headers, content) text, with the test boundary.
    private func expectedBody(_ parts: [(String, String)]) -> [UInt8] {
        var text = ""
        for (index, part) in parts.enumerated() {
            text += (index == 0 ? "" : "\r\n") + "--\(boundary)\r\n" + part.0 + "\r\n" + part.1
        }
        return bytes(text + "\r\n--\(boundary)--\r\n")
    }

    private func field(_ name: String) -> String {
        "Content-Disposition: form-data; name=\"\(name)\"\r\n"
    }

    // MARK: - Which requests are multipart

    func testFieldsComeBeforeFilesFlattenedAFStyle() throws {
        let photo = try makeFile("img.png", "PNG")
        let parameters = object([
            "title": str("Beach"),
            "meta": object(["b": num("1"), "a": .array([num("1"), str("x")])]),
            "flag": .bool(true), "none": .null,
        ])
        let request = try prepare(
            RequestSpec(
                method: "POST", url: "http://x/post", parameters: parameters,
                files: [FileItem(field: "photo", path: photo)], encoding: .form))
        XCTAssertEqual(header(request, "Content-Type"), "multipart/form-data; boundary=\(boundary)")
        XCTAssertEqual(header(request, "Accept"), "*/*")
        let expected = expectedBody([
            (field("flag"), "1"), (field("meta[a][]"), "1"), (field("meta[a][]"), "x"), (field("meta[b]"), "1"),
            (field("none"), ""), (field("title"), "Beach"),
            (
                "Content-Disposition: form-data; name=\"photo\"; filename=\"img.png\"\r\nContent-Type: image/png\r\n",
                "PNG"
            ),
        ])
        XCTAssertEqual(try body(request), expected)
        XCTAssertEqual(request.body?.length, UInt64(expected.count))
        XCTAssertNil(request.bodyBytes)
        XCTAssertEqual(request.url, "http://x/post")
    }

    func testMultipartWithoutFilesKeepsTheBodyInMemory() throws {
        let request = try prepare(
            RequestSpec(method: "POST", url: "http://x/", parameters: object(["foo": str("bar")]), encoding: .multipart)
        )
        let expected = expectedBody([(field("foo"), "bar")])
        XCTAssertEqual(expected.count, 111)
        XCTAssertEqual(request.bodyBytes, expected)
        XCTAssertEqual(try body(request), expected)
    }

    func testDeleteSendsAMultipartBodyButGetUsesTheQuery() throws {
        let parameters = object(["a": str("b c")])
        let delete = try prepare(
            RequestSpec(method: "DELETE", url: "http://x/", parameters: parameters, encoding: .multipart))
        XCTAssertEqual(delete.url, "http://x/")
        XCTAssertEqual(try body(delete), expectedBody([(field("a"), "b c")]))
        let get = try prepare(
            RequestSpec(method: "GET", url: "http://x/", parameters: parameters, encoding: .multipart))
        XCTAssertEqual(get.url, "http://x/?a=b%20c")
        XCTAssertNil(get.body)
        XCTAssertNil(header(get, "Content-Type"))
    }

    func testRandomBoundaryWhenNoneIsGiven() throws {
        let request = try prepare(
            RequestSpec(method: "POST", url: "http://x/", parameters: object(["a": str("1")]), encoding: .multipart),
            boundary: nil)
        let type = try XCTUnwrap(header(request, "Content-Type"))
        XCTAssertTrue(type.hasPrefix("multipart/form-data; boundary=Boundary+"), type)
        XCTAssertEqual(type.count, "multipart/form-data; boundary=".count + 25)
    }

    func testUserContentTypeGetsTheBoundaryOrGivesIt() throws {
        let spec = RequestSpec(
            method: "POST", url: "http://x/", headers: [HeaderItem(name: "Content-Type", value: "multipart/mixed")],
            parameters: object(["a": str("1")]), encoding: .multipart)
        XCTAssertEqual(header(try prepare(spec), "Content-Type"), "multipart/mixed; boundary=\(boundary)")

        var given = spec
        given.headers = [HeaderItem(name: "Content-Type", value: "multipart/form-data; boundary=from-header")]
        let request = try prepare(given, boundary: nil)
        XCTAssertEqual(header(request, "Content-Type"), "multipart/form-data; boundary=from-header")
        XCTAssertEqual(Array(try body(request).prefix(15)), bytes("--from-header\r\n"))
    }

    // MARK: - Refusals

    func testFilesWithGetOrHeadAreRefused() throws {
        let path = try makeFile("a.txt", "a")
        for method in ["GET", "HEAD"] {
            assertSerializationError(
                try prepare(
                    RequestSpec(
                        method: method, url: "http://x/", files: [FileItem(field: "f", path: path)],
                        encoding: .multipart)),
                .filesNeedBodyMethod(method: method),
                description: "file uploads need a method with a body, not \(method)")
        }
    }

    func testFilesWithJSONOrPlistAreRefused() throws {
        let path = try makeFile("a.txt", "a")
        assertSerializationError(
            try prepare(
                RequestSpec(
                    method: "POST", url: "http://x/", files: [FileItem(field: "f", path: path)], encoding: .json)),
            .filesNeedMultipart(encoding: "--json"),
            description: "file items need a multipart body, not --json: use --form or --multipart")
        XCTAssertThrowsError(
            try prepare(
                RequestSpec(
                    method: "POST", url: "http://x/", files: [FileItem(field: "f", path: path)], encoding: .plist)))
    }

    func testBadPartsAreRefused() throws {
        let path = try makeFile("a.txt", "a")
        XCTAssertThrowsError(
            try prepare(
                RequestSpec(
                    method: "POST", url: "http://x/", files: [FileItem(field: "a\"b", path: path)], encoding: .multipart
                )))
        XCTAssertThrowsError(
            try prepare(
                RequestSpec(
                    method: "POST", url: "http://x/", files: [FileItem(field: "f", path: path, filename: "a\nb")],
                    encoding: .multipart)))
        XCTAssertThrowsError(
            try prepare(
                RequestSpec(
                    method: "POST", url: "http://x/", parameters: object(["a\rb": str("1")]), encoding: .multipart)))
        assertSerializationError(
            try prepare(
                RequestSpec(
                    method: "POST", url: "http://x/",
                    files: [FileItem(field: "a", path: "-"), FileItem(field: "b", path: "-")], encoding: .multipart)),
            .standardInputUsedTwice, description: "only one file item can read standard input (NAME@-)")
        XCTAssertThrowsError(
            try prepare(
                RequestSpec(
                    method: "POST", url: "http://x/", parameters: object(["a": str("1")]), encoding: .multipart),
                boundary: "bad\"boundary"))
    }
}
