import XCTest

@testable import AFCurl

/// Status lines and fields as libcurl's header callback hands them over, one line at a time.
final class ResponseHeadParserTests: XCTestCase {
    private func parse(_ lines: [String]) -> ResponseHead? {
        var parser = ResponseHeadParser()
        var head: ResponseHead?
        for line in lines {
            let event = Array(line.utf8).withUnsafeBytes { parser.feed($0) }
            if case .completed(let completed) = event { head = completed }
        }
        return head
    }

    func testStatusLineWithAReasonOfSeveralWords() throws {
        let head = try XCTUnwrap(parse(["HTTP/1.1 404 Not  Found \r\n", "Server: x\r\n", "\r\n"]))
        XCTAssertEqual(head.httpVersion, "HTTP/1.1")
        XCTAssertEqual(head.statusCode, 404)
        XCTAssertEqual(head.reasonPhrase, "Not  Found")
        XCTAssertEqual(head.headers.map(\.name), ["Server"])
    }

    func testHTTP2HasNoReason() throws {
        let head = try XCTUnwrap(parse(["HTTP/2 200\r\n", "\r\n"]))
        XCTAssertEqual(head.httpVersion, "HTTP/2")
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertEqual(head.reasonPhrase, "")
    }

    func testHTTP2HeadAsLibcurlHandsItOver() throws {
        // libcurl turns the :status pseudo-header into `HTTP/2 200 ` (a trailing space) and passes
        // the other fields with the lower-case names they have in h2; no pseudo-header remains.
        let head = try XCTUnwrap(
            parse(["HTTP/2 200 \r\n", "server: nginx\r\n", "content-type: text/plain\r\n", "\r\n"]))
        XCTAssertEqual(head.httpVersion, "HTTP/2")
        XCTAssertEqual(head.statusCode, 200)
        XCTAssertEqual(head.reasonPhrase, "")
        XCTAssertEqual(head.headers.map(\.name), ["server", "content-type"])
        XCTAssertEqual(head.value(for: "Content-Type"), "text/plain")
    }

    func testAnEmptyReasonAfterTheCode() throws {
        let head = try XCTUnwrap(parse(["HTTP/1.1 204 \r\n", "\r\n"]))
        XCTAssertEqual(head.statusCode, 204)
        XCTAssertEqual(head.reasonPhrase, "")
    }

    func testACodeThatIsNotANumberIsZero() throws {
        XCTAssertEqual(try XCTUnwrap(parse(["HTTP/1.1 2x0 OK\r\n", "\r\n"])).statusCode, 0)
        XCTAssertEqual(try XCTUnwrap(parse(["HTTP/1.1  200 OK\r\n", "\r\n"])).statusCode, 0)
        XCTAssertEqual(try XCTUnwrap(parse(["HTTP/1.1\r\n", "\r\n"])).statusCode, 0)
    }

    func testOnlyTheLastHeadOfSeveralIsKept() throws {
        let head = try XCTUnwrap(
            parse(["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 201 Created\r\n", "A: 1\r\n", "\r\n"]))
        XCTAssertEqual(head.statusCode, 201)
        XCTAssertEqual(head.reasonPhrase, "Created")
    }

    func testFieldsAreDecodedWhenReadAsTheyWereReceived() throws {
        var parser = ResponseHeadParser()
        var head: ResponseHead?
        let lines: [[UInt8]] = [
            Array("HTTP/1.1 200 OK\r\n".utf8), Array("X-Utf8: caf\u{e9}\r\n".utf8),
            [0x58, 0x2D, 0x4C, 0x31, 0x3A, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x0D, 0x0A],
            Array("set-cookie:  a=1 \t\r\n".utf8), Array("Set-Cookie: b=2\r\n".utf8), Array("Empty:\r\n".utf8),
            Array("\r\n".utf8),
        ]
        for line in lines {
            if case .completed(let completed) = line.withUnsafeBytes({ parser.feed($0) }) { head = completed }
        }
        let parsed = try XCTUnwrap(head)
        XCTAssertEqual(parsed.headers.map(\.name), ["X-Utf8", "X-L1", "set-cookie", "Set-Cookie", "Empty"])
        XCTAssertEqual(parsed.headers.map(\.value), ["caf\u{e9}", "caf\u{e9}", "a=1", "b=2", ""])
        XCTAssertEqual(parsed.value(for: "x-l1"), "caf\u{e9}")
        XCTAssertEqual(parsed.values(for: "SET-COOKIE"), ["a=1", "b=2"])
        XCTAssertEqual(parsed.value(for: "empty"), "")
        XCTAssertNil(parsed.value(for: "X-Utf"))
        XCTAssertEqual(parsed.fields.count, 5)
    }

    func testFieldNamesOutsideASCIIAreFoundAsDecoded() throws {
        // A Latin-1 name (caf\xE9) decodes to "café", whose UTF-8 is a byte longer; an ASCII name
        // of the same length as its raw bytes never matches it.
        var parser = ResponseHeadParser()
        var head: ResponseHead?
        let lines: [[UInt8]] = [
            Array("HTTP/1.1 200 OK\r\n".utf8), [0x63, 0x61, 0x66, 0xE9, 0x3A, 0x20, 0x31, 0x0D, 0x0A],
            Array("Caf\u{c9}: 2\r\n".utf8), Array("cafe: 3\r\n".utf8), Array("\r\n".utf8),
        ]
        for line in lines {
            if case .completed(let completed) = line.withUnsafeBytes({ parser.feed($0) }) { head = completed }
        }
        let parsed = try XCTUnwrap(head)
        XCTAssertEqual(parsed.values(for: "caf\u{e9}"), ["1"])
        XCTAssertEqual(parsed.values(for: "CAF\u{c9}"), ["2"], "only ASCII letters compare ignoring case")
        XCTAssertEqual(parsed.values(for: "CAFE"), ["3"])
        XCTAssertNil(parsed.value(for: "caf"))
    }
}
