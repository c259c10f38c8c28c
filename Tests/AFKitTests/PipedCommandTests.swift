import AFKit
import XCTest

/// The piped command behind the encryption hooks, and the encryption stage over body sources.
final class PipedCommandTests: XCTestCase {
    /// Runs `bytes` through `command` in pieces of `piece` bytes; the output and how many times
    /// output was delivered.
    private func pipe(_ bytes: [UInt8], through command: String, piece: Int = 65536) throws -> [UInt8] {
        let command = try PipedCommand(command: command, role: "encrypt")
        var output: [UInt8] = []
        let collect: PipedCommand.Output = { output.append(contentsOf: $0) }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + piece, bytes.count)
            try bytes[offset..<end].withUnsafeBytes { try command.feed($0, to: collect) }
            offset = end
        }
        try command.finish(to: collect)
        return output
    }

    func testOutputIsReadWhileInputIsWritten() throws {
        // 8 MiB is far more than a pipe holds: feeding without reading would block for ever.
        let bytes = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        XCTAssertEqual(try pipe(bytes, through: "cat"), bytes)
        XCTAssertEqual(try pipe(Array("abc".utf8), through: "tr a-z A-Z", piece: 1), Array("ABC".utf8))
        XCTAssertEqual(try pipe([], through: "printf x"), Array("x".utf8))
    }

    func testFailureCarriesTheStatusAndBoundedStandardError() {
        XCTAssertThrowsError(try pipe(Array("x".utf8), through: "cat >/dev/null; echo bad key >&2; exit 4")) {
            XCTAssertEqual(
                $0 as? PipedCommandError,
                PipedCommandError(role: "encrypt", reason: "failed with exit status 4", standardError: "bad key\n"))
            XCTAssertEqual("\($0)", "the encrypt command failed with exit status 4")
        }
        XCTAssertThrowsError(try pipe([], through: "kill -9 $$")) {
            XCTAssertEqual(($0 as? PipedCommandError)?.reason, "was killed by signal 9")
        }
        XCTAssertThrowsError(try pipe([], through: "head -c 50000 /dev/zero >&2; exit 1")) {
            let text = ($0 as? PipedCommandError)?.standardError ?? ""
            XCTAssertEqual(text.utf8.count, PipedCommand.maxErrorBytes + "…".utf8.count)
        }
    }

    func testACommandThatStopsReadingEndsTheInputQuietly() throws {
        let bytes = [UInt8](repeating: 65, count: 4 << 20)
        XCTAssertEqual(try pipe(bytes, through: "head -c 3"), Array("AAA".utf8))
    }

    func testEncryptionReplacesTheBodyAndItsType() throws {
        var request = PreparedRequest(
            method: "POST", url: "http://h.test/", headers: [HTTPField(name: "Content-Type", value: "application/json")],
            body: BytesBodySource(Array(#"{"a":"b"}"#.utf8)), bodyBytes: Array(#"{"a":"b"}"#.utf8))
        try BodyEncryption.apply(to: &request, command: "tr a-z A-Z", contentType: "text/plain")
        XCTAssertEqual(request.bodyBytes, Array(#"{"A":"B"}"#.utf8))
        XCTAssertEqual(request.headers, [HTTPField(name: "Content-Type", value: "text/plain")])
        XCTAssertEqual(request.body?.length, 9)
    }

    func testLargeEncryptedBodiesStayInTheTemporaryFile() throws {
        let size = BodyEncryption.inMemoryLimit + 5
        var request = PreparedRequest(
            method: "POST", url: "http://h.test/", headers: [],
            body: BytesBodySource([UInt8](repeating: 7, count: size)))
        try BodyEncryption.apply(to: &request, command: "cat", contentType: "application/octet-stream")
        XCTAssertNil(request.bodyBytes)
        let body = try XCTUnwrap(request.body as? TemporaryFileBodySource)
        XCTAssertEqual(body.length, UInt64(size))
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 100_000)
        for _ in 0..<2 {
            total = 0
            while true {
                let count = try buffer.withUnsafeMutableBytes { try body.read(into: $0) }
                if count == 0 { break }
                XCTAssertTrue(buffer[0..<count].allSatisfy { $0 == 7 })
                total += count
            }
            try body.rewind()
        }
        XCTAssertEqual(total, size)
    }

    func testAFailingCommandLeavesTheRequestAlone() {
        var request = PreparedRequest(method: "POST", url: "http://h.test/", headers: [], body: BytesBodySource([1]))
        XCTAssertThrowsError(try BodyEncryption.apply(to: &request, command: "exit 2", contentType: "text/plain")) {
            // Nothing was sent: exit status 2, as for any input the request could not be made from.
            XCTAssertEqual(
                $0 as? PipedCommandError, PipedCommandError(role: "encrypt", reason: "failed with exit status 2"))
            XCTAssertEqual(FailureClass.of(wrapped: $0), .badInput)
        }
        XCTAssertTrue(request.body is BytesBodySource)
        XCTAssertTrue(request.headers.isEmpty)
    }
}
