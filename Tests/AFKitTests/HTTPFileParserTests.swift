import Glibc
import XCTest

@testable import AFKit

/// The `.http` grammar: a table of files and the requests (unresolved) they hold.
final class HTTPFileParserTests: XCTestCase {
    private func parse(_ text: String) throws -> HTTPFile {
        try HTTPFileParser.parse(Array(text.utf8))
    }

    private func request(
        _ name: String?, line: Int, _ method: String, _ url: String, headers: [(String, String, Int)] = [],
        body: [HTTPFileBodyPart] = [], configure: (inout HTTPFileRequest) -> Void = { _ in }
    ) -> HTTPFileRequest {
        var request = HTTPFileRequest(name: name, line: line, method: method, url: url)
        request.headers = headers.map { HTTPFileHeader(name: $0.0, value: $0.1, line: $0.2) }
        request.body = body
        configure(&request)
        return request
    }

    func testATableOfFilesAndTheirRequests() throws {
        let table: [(file: String, requests: [HTTPFileRequest])] = [
            ("GET http://localhost/a", [request(nil, line: 1, "GET", "http://localhost/a")]),
            ("http://localhost/a", [request(nil, line: 1, "GET", "http://localhost/a")]),
            ("http://localhost/a HTTP/1.1\n", [request(nil, line: 1, "GET", "http://localhost/a")]),
            ("delete http://localhost/a HTTP/2", [request(nil, line: 1, "DELETE", "http://localhost/a")]),
            (
                "### first\nGET :8080/a\n\n###\n\nPOST :8080/b\n###   second one  \nPUT :8080/c\n",
                [
                    request("first", line: 2, "GET", ":8080/a"),
                    request(nil, line: 6, "POST", ":8080/b"),
                    request("second one", line: 8, "PUT", ":8080/c"),
                ]
            ),
            (
                "# a comment\n// another\n# @name login\nPOST :8080/login\nContent-Type: application/json\nX-A:  b c \n\n{\"user\": \"ann\"}\n\n\n###",
                [
                    request(
                        "login", line: 4, "POST", ":8080/login",
                        headers: [("Content-Type", "application/json", 5), ("X-A", "b c", 6)],
                        body: [.text("{\"user\": \"ann\"}", line: 8)])
                ]
            ),
            (
                "GET http://x/search\n    ?q=1\n    &page=2\nAccept: text/plain\n",
                [request(nil, line: 1, "GET", "http://x/search?q=1&page=2", headers: [("Accept", "text/plain", 4)])]
            ),
            (
                "POST http://x/up\r\nContent-Type: text/plain\r\n\r\nline one\r\n\r\nline three\r\n< ./data.bin\r\ntail\r\n",
                [
                    request(
                        nil, line: 1, "POST", "http://x/up", headers: [("Content-Type", "text/plain", 2)],
                        body: [
                            .text("line one\n\nline three", line: 4), .file("./data.bin", line: 7),
                            .text("tail", line: 8),
                        ])
                ]
            ),
            (
                "### by separator\n// @name = by-directive\n# @no-redirect\n# @timeout 2 m\n# @connection-timeout 500 ms\n# @first\n# @no-cookie-jar\nGET :1/x\n",
                [
                    request("by-directive", line: 8, "GET", ":1/x") {
                        $0.noRedirect = true
                        $0.noCookieJar = true
                        $0.timeout = 120
                        $0.connectionTimeout = 0.5
                        $0.isFirst = true
                    }
                ]
            ),
            // A comment in the body is body; a # line between headers is a comment.
            (
                "POST :1/x\n# not a header\nA: 1\n\n# body line\n",
                [request(nil, line: 1, "POST", ":1/x", headers: [("A", "1", 3)], body: [.text("# body line", line: 5)])]
            ),
            ("\u{FEFF}GET :1/bom", [request(nil, line: 1, "GET", ":1/bom")]),
            ("#### decorated\nGET :1/d", [request("decorated", line: 2, "GET", ":1/d")]),
            ("", []),
            ("###\n# only comments\n###\n", []),
        ]
        for (file, expected) in table {
            XCTAssertEqual(try parse(file).requests, expected, "for \(file.debugDescription)")
        }
    }

    func testAssertionLinesAndScriptBlocksAreNoPartOfTheRequest() throws {
        let file = try parse(
            "{{\n  exports.a = 1;\n}}\nGET http://h/a\n?? status == 200\n\n###\nPOST http://h/b\n\nbody\n\n"
                + "?? body includes b\n?? js response.ok\n\n###\nGET http://h/c\n?? header x exists\n")
        XCTAssertEqual(file.requests.count, 3)
        let (a, b, c) = (file.requests[0], file.requests[1], file.requests[2])
        XCTAssertEqual(a.refusal?.line, 1)
        XCTAssertEqual(a.assertions.map(\.text), ["status == 200"])
        XCTAssertEqual(b.body, [.text("body", line: 10)])
        XCTAssertEqual(b.assertions.map(\.line), [12])
        XCTAssertEqual(b.refusal?.line, 13)
        XCTAssertNil(c.refusal)
        XCTAssertEqual(c.assertions.first?.field, .header("x"))
        XCTAssertThrowsError(try parse("GET http://h/\n?? colour == red\n")) { error in
            XCTAssertEqual((error as? HTTPFileError)?.line, 2)
        }
        XCTAssertThrowsError(try parse("GET http://h/\n\n{{\nx\n")) { error in
            XCTAssertEqual((error as? HTTPFileError)?.reason, "the script block {{ is never closed with }}")
        }
    }

    func testRepeatedAssertionLinesKeepTheirOwnLines() throws {
        let file = try parse("GET http://h/a\n?? status == 200\n\n###\nGET http://h/b\n\n?? status  ==  200\n?? status == 200\n")
        XCTAssertEqual(file.requests.map { $0.assertions.map(\.line) }, [[2], [7, 8]])
        XCTAssertEqual(file.requests[1].assertions.map(\.text), ["status  ==  200", "status == 200"])
        XCTAssertEqual(Set(file.requests.flatMap(\.assertions).map(\.expected)), ["200"])
    }

    func testRequestLineWordsKeepSpacesInsideVariables() throws {
        let file = try parse("GET\t{{ host }}/users/{{$randomInt 1 5}}?q=é  HTTP/1.1\n\n###\n  {{base}}/x\n")
        XCTAssertEqual(file.requests.map(\.method), ["GET", "GET"])
        XCTAssertEqual(file.requests.map(\.url), ["{{ host }}/users/{{$randomInt 1 5}}?q=é", "{{base}}/x"])
        XCTAssertEqual(try parse("GET http://h/\nX-Name : \t valé \t\n").requests[0].headers.map(\.value), ["valé"])
    }

    func testFileVariables() throws {
        let file = try parse(
            "@host = localhost:8080\n@token=abc = d\n\nGET http://{{host}}/a\n###\n@host = other\nGET :1\n")
        XCTAssertEqual(
            file.variables,
            [
                HTTPFileVariable(name: "host", value: "localhost:8080", line: 1),
                HTTPFileVariable(name: "token", value: "abc = d", line: 2),
                HTTPFileVariable(name: "host", value: "other", line: 6),
            ])
        XCTAssertEqual(file.requests.map(\.url), ["http://{{host}}/a", ":1"])
    }

    func testResponseHandlersAreSkippedWithWarnings() throws {
        let file = try parse(
            """
            GET :1/a

            > {%
                client.global.set("token", response.body.token);
            %}

            ###
            POST :1/b

            body
            > ./check.js
            >> ./saved.json
            ###
            GET :1/c
            > {% client.test("ok", () => {}); %}
            """)
        XCTAssertEqual(file.requests.map(\.url), [":1/a", ":1/b", ":1/c"])
        XCTAssertEqual(file.requests[1].body, [.text("body", line: 10)])
        XCTAssertEqual(file.requests[0].body, [])
        XCTAssertEqual(
            file.warnings,
            [
                HTTPFileWarning(line: 3, message: "response handler skipped: afcli runs no JavaScript"),
                HTTPFileWarning(line: 11, message: "response handler skipped: afcli runs no JavaScript"),
                HTTPFileWarning(
                    line: 12, message: "response redirect (>> FILE) skipped: use afcli run --output-dir to save bodies"),
                HTTPFileWarning(line: 15, message: "response handler skipped: afcli runs no JavaScript"),
            ])
    }

    func testRequestLinesAsTheJetBrainsSpecWritesThem() throws {
        let file = try parse(
            """
            GET {{ host }}/users/{{ id }}?n={{$randomInt 1 5}} HTTP/1.1
            ###
            {{ host }}/plain
            ###
            OPTIONS * HTTP/1.1
            Host: example.com
            """)
        XCTAssertEqual(file.requests.map(\.method), ["GET", "GET", "OPTIONS"])
        XCTAssertEqual(
            file.requests.map(\.url), ["{{ host }}/users/{{ id }}?n={{$randomInt 1 5}}", "{{ host }}/plain", "*"])
    }

    func testSubstitutedFilesAreBodyPartsWithTheirEncoding() throws {
        let file = try parse("POST :1\n\n<@ ./a.xml\ntext\n<@latin1 b.txt\n<@UCS2\t/c\n<@ascii d\n<@binary e\n")
        XCTAssertEqual(
            file.requests[0].body,
            [
                .substitutedFile("./a.xml", encoding: .utf8, line: 3), .text("text", line: 4),
                .substitutedFile("b.txt", encoding: .latin1, line: 5),
                .substitutedFile("/c", encoding: .utf16LittleEndian, line: 6),
                .substitutedFile("d", encoding: .ascii, line: 7), .substitutedFile("e", encoding: .latin1, line: 8),
            ])
        // The methods of HTTP extensions (WebDAV's) are still methods.
        XCTAssertEqual(try parse("PROPFIND http://localhost/dav\n").requests.map(\.method), ["PROPFIND"])
    }

    func testTextEncodingsDecodeAsNodeDoes() {
        let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
        XCTAssertEqual(HTTPFileTextEncoding.latin1.decode(bytes), "caf\u{E9}")
        XCTAssertEqual(HTTPFileTextEncoding.ascii.decode(bytes), "cafi")
        XCTAssertEqual(HTTPFileTextEncoding.utf8.decode(bytes), "caf\u{FFFD}")
        XCTAssertEqual(HTTPFileTextEncoding.utf8.decode([0xEF, 0xBB, 0xBF, 0x61]), "a")
        XCTAssertEqual(
            HTTPFileTextEncoding.utf16LittleEndian.decode([0x61, 0x00, 0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE, 0x62]),
            "a\u{E9}\u{1F600}")
        XCTAssertNil(HTTPFileTextEncoding(name: "hex"))
    }

    func testAnInPlaceBodyIsTrimmedAndResponseReferencesAreNotBody() throws {
        let file = try parse(
            """
            POST :1/a


            message-body

            <> 2024-01-01T000000.200.json
            ###
            POST :1/b

            second
            > {% client.log(1) %}
            <> previous-response.200.json
            <> older.200.json
            ###
            GET :1/c
            <> reference-right-after-the-headers.json
            """)
        XCTAssertEqual(file.requests[0].body, [.text("message-body", line: 4)])
        XCTAssertEqual(file.requests[1].body, [.text("second", line: 10)])
        XCTAssertEqual(file.requests[2].body, [])
        // A reference changes nothing that is sent: skipped without a word.
        XCTAssertEqual(
            file.warnings, [HTTPFileWarning(line: 11, message: "response handler skipped: afcli runs no JavaScript")])
    }

    func testPromptDirectivesNameTheirVariablesWithTheirDescriptions() throws {
        let file = try parse("# @prompt username\n// @prompt otp  Your one-time password \n# @prompt\nGET :1/{{otp}}\n")
        XCTAssertEqual(
            file.requests[0].prompts,
            [
                HTTPFileField(name: "username", value: "", line: 1),
                HTTPFileField(name: "otp", value: "Your one-time password", line: 2),
            ])
        XCTAssertEqual(
            file.warnings,
            [
                HTTPFileWarning(
                    line: 3,
                    message: "# @prompt needs a variable name (letters, digits, _ . -): # @prompt NAME [DESCRIPTION]; ignored")
            ])
    }

    func testUnknownDirectivesAndLoneDirectivesAreWarnings() throws {
        let file = try parse("# @no-log\n# @timeout soon\n# @connection-timeout 0\nGET :1\n###\n# @first\n")
        XCTAssertEqual(
            file.warnings,
            [
                HTTPFileWarning(line: 1, message: "# @no-log is not supported by afcli; ignored"),
                HTTPFileWarning(
                    line: 2, message: "# @timeout soon is not a duration (N, N ms, N s or N m, more than 0); ignored"),
                HTTPFileWarning(
                    line: 3,
                    message: "# @connection-timeout 0 is not a duration (N, N ms, N s or N m, more than 0); ignored"),
                HTTPFileWarning(line: 6, message: "directives with no request after them are ignored"),
            ])
        XCTAssertEqual(file.requests.count, 1)
        XCTAssertNil(file.requests[0].connectionTimeout)
    }

    func testErrorsNameTheirLine() {
        let cases: [(String, HTTPFileError)] = [
            (
                "GET :1\nnot a header\n",
                HTTPFileError(line: 2, reason: "expected a header (Name: value) or a blank line before the body")
            ),
            ("###\nPOST\n", HTTPFileError(line: 2, reason: "POST needs a URL: [METHOD] URL [HTTP/VERSION]")),
            (
                "GET :1 extra words",
                HTTPFileError(line: 1, reason: "expected a request line: [METHOD] URL [HTTP/VERSION]")
            ),
            (
                "# c\n< {% request.variables.set('a', 1) %}\nGET :1",
                HTTPFileError(
                    line: 2, reason: "pre-request scripts (< {% %}) are not supported: afcli runs no JavaScript")
            ),
            (
                "POST :1\n\n<@base64 ./body.json\n",
                HTTPFileError(
                    line: 3, reason: "<@base64: afcli reads files in utf8, latin1 (binary), ascii or utf16le (ucs2)")
            ),
            (
                "POST :1\n\n<@\n",
                HTTPFileError(line: 3, reason: "<@ needs a file path: <@ PATH or <@ENCODING PATH")
            ),
            (
                "GET :1\n###\nSSE http://localhost/events\n",
                HTTPFileError(
                    line: 3,
                    reason: "SSE requests (server-sent events) are not supported: afcli sends HTTP requests only")
            ),
            (
                "grpc grpcb.in:9000/hello.HelloService/SayHello\n",
                HTTPFileError(line: 1, reason: "GRPC requests (gRPC) are not supported: afcli sends HTTP requests only")
            ),
            (
                "GET :1\n\n> {%\nclient.log(1)\n",
                HTTPFileError(line: 3, reason: "the response handler {% is never closed with %}")
            ),
            (
                "GET :1\n\n> ./a.js\nmore body\n",
                HTTPFileError(
                    line: 4,
                    reason: "only response handlers and references may follow a response handler "
                        + "(start a new request with ###)")
            ),
            (
                "@ bad name = 1\n",
                HTTPFileError(line: 1, reason: "\"bad name\" is not a variable name (letters, digits, _ . -)")
            ),
            ("GET :1\nA: 1\n\n\u{FF}", HTTPFileError(line: 4, reason: "the line is not UTF-8")),
            (
                "GET :1/" + String(repeating: "a", count: 70_000),
                HTTPFileError(line: 1, reason: "the request line is longer than 64 KiB")
            ),
        ]
        for (text, expected) in cases {
            var bytes = Array(text.utf8)
            if text.hasSuffix("\u{FF}") { bytes = Array(bytes.dropLast(2)) + [0xFF] }
            XCTAssertThrowsError(try HTTPFileParser.parse(bytes), "for \(text.prefix(60).debugDescription)") { error in
                XCTAssertEqual(error as? HTTPFileError, expected)
            }
        }
    }

    func testTheNumberOfRequestsIsBounded() {
        let text = String(repeating: "GET :1\n###\n", count: HTTPFileParser.maximumRequests + 1)
        XCTAssertThrowsError(try parse(text)) { error in
            XCTAssertEqual(
                error as? HTTPFileError,
                HTTPFileError(
                    line: HTTPFileParser.maximumRequests * 2 + 1, reason: "more than 100000 requests in one file"))
        }
    }

    func testTheNumberOfHeadersIsBounded() throws {
        let headers = String(repeating: "X-A: b\n", count: HTTPFileParser.maximumHeaders)
        XCTAssertEqual(try parse("GET :1\n" + headers).requests[0].headers.count, 1000)
        XCTAssertThrowsError(try parse("GET :1\n" + headers + "X-Last: c\n")) { error in
            XCTAssertEqual(
                error as? HTTPFileError, HTTPFileError(line: 1002, reason: "more than 1000 headers in one request"))
        }
    }

    func testManyURLContinuationLinesParseInLinearTime() throws {
        // 4 MiB of continuation lines: copying the URL for each line would move 130 GB.
        let piece = "&" + String(repeating: "a", count: 61)
        let text = "GET http://localhost/?x\n" + String(repeating: "  " + piece + "\n", count: 65_536)
        let url = try parse(text).requests[0].url
        XCTAssertEqual(url.utf8.count, "http://localhost/?x".utf8.count + 62 * 65_536)
    }

    func testCtrlCStopsReadingALongFile() {
        Interruption.install()
        raise(SIGINT)
        defer { Interruption.clear() }
        XCTAssertThrowsError(try parse(String(repeating: "# comment\n", count: 10_000))) { error in
            XCTAssertEqual(error as? HTTPFileError, .interrupted(line: 4096))
        }
    }
}
