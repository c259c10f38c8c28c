import AFKit
import Foundation
import XCTest

/// `--local` answers: file names from the API path, the stand-in message, types, refusals.
final class LocalAnswerTransportTests: TemporaryDirectoryTestCase {
    /// Collects what a transport delivers.
    private final class Recorder: HTTPClientDelegate {
        var head: ResponseHead?
        var body: [UInt8] = []
        var finished = false
        var rawHead: String?
        func willSend(hop: Int, request: SentRequest) throws { rawHead = request.rawHead }
        func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws { self.head = head }
        func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws { body += chunk }
        func didFinishResponse(hop: Int, isFinal: Bool) throws { finished = true }
    }

    private func answer(_ apiPath: String, missing: inout [String]) throws -> (Recorder, HTTPClientResult) {
        var reported: [String] = []
        let transport = LocalAnswerTransport(directory: directory.path, apiPath: apiPath) { reported.append($0) }
        let recorder = Recorder()
        let result = try transport.send(
            PreparedRequest(method: "GET", url: "http://h/\(apiPath)", headers: []), delegate: recorder)
        missing = reported
        return (recorder, result)
    }

    func testNamesReplaceSlashesWithColons() throws {
        XCTAssertEqual(
            try LocalAnswerTransport.candidateNames(for: "/api/card/list"), ["api:card:list", "api:card:list.json"])
        XCTAssertEqual(
            try LocalAnswerTransport.candidateNames(for: "api/card/list"), ["api:card:list", "api:card:list.json"])
    }

    func testDotSegmentsAreRefused() {
        for path in ["..", "/..", "a/../b", "./a", "a/.", ""] {
            XCTAssertThrowsError(try LocalAnswerTransport.candidateNames(for: path), path)
        }
    }

    func testExactNameIsTriedBeforeJSON() throws {
        _ = try makeFile("api:card:list", Array("plain".utf8))
        _ = try makeFile("api:card:list.json", Array("{}".utf8))
        var missing: [String] = []
        let (recorder, result) = try answer("api/card/list", missing: &missing)
        XCTAssertEqual(String(decoding: recorder.body, as: UTF8.self), "plain")
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(recorder.head?.value(for: "Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(recorder.head?.value(for: "Content-Length"), "5")
        XCTAssertTrue(recorder.finished)
        XCTAssertEqual(missing, [])
    }

    func testJSONFileAndSniffedJSON() throws {
        _ = try makeFile("a:b.json", Array(#"{"x":1}"#.utf8))
        _ = try makeFile("c", Array(" [1]".utf8))
        _ = try makeFile("d", [0xFF, 0x00, 0xFE])
        var missing: [String] = []
        XCTAssertEqual(try answer("/a/b", missing: &missing).0.head?.value(for: "Content-Type"), "application/json")
        XCTAssertEqual(try answer("/c", missing: &missing).0.head?.value(for: "Content-Type"), "application/json")
        XCTAssertEqual(
            try answer("/d", missing: &missing).0.head?.value(for: "Content-Type"), "application/octet-stream")
    }

    func testLargeFilesStreamInChunks() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        _ = try makeFile("big.bin", bytes)
        var missing: [String] = []
        let (recorder, result) = try answer("big.bin", missing: &missing)
        XCTAssertEqual(recorder.body, bytes)
        XCTAssertEqual(result.outcome.bytesDownloaded, 300_000)
    }

    func testMissingFileAnswersCJNetworksMessage() throws {
        var missing: [String] = []
        let (recorder, result) = try answer("/api/none", missing: &missing)
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(
            String(decoding: recorder.body, as: UTF8.self),
            #"{"status":"0","message":"本地请求模拟：却未实现模拟的请求文件api/none","result":""}"#)
        XCTAssertEqual(recorder.head?.value(for: "Content-Type"), "application/json")
        XCTAssertEqual(missing, ["/api/none"])
    }

    func testSymbolicLinksAndDirectoriesAreRefused() throws {
        let outside = try makeFile("outside.txt", Array("secret".utf8))
        let answers = directory.appendingPathComponent("answers")
        try FileManager.default.createDirectory(at: answers, withIntermediateDirectories: true)
        XCTAssertEqual(symlink(outside, answers.path + "/leak"), 0)
        try FileManager.default.createDirectory(
            at: answers.appendingPathComponent("dir"), withIntermediateDirectories: true)
        let transport = LocalAnswerTransport(directory: answers.path, apiPath: "leak") { _ in }
        XCTAssertThrowsError(
            try transport.send(PreparedRequest(method: "GET", url: "http://h/", headers: []), delegate: Recorder())
        ) {
            XCTAssertEqual($0 as? LocalAnswerError, .link(answers.path + "/leak"))
        }
        let directoryAnswer = LocalAnswerTransport(directory: answers.path, apiPath: "dir") { _ in }
        XCTAssertThrowsError(
            try directoryAnswer.send(
                PreparedRequest(method: "GET", url: "http://h/", headers: []), delegate: Recorder())
        ) {
            XCTAssertEqual($0 as? LocalAnswerError, .notRegular(answers.path + "/dir"))
        }
    }

    func testTheRequestHeadIsReportedForVerboseOutput() throws {
        let transport = LocalAnswerTransport(directory: directory.path, apiPath: "x") { _ in }
        let recorder = Recorder()
        let request = PreparedRequest(
            method: "GET", url: "http://h:8080/api/x?a=1", headers: [HTTPField(name: "X-Client", value: "afcli")])
        _ = try transport.send(request, delegate: recorder)
        XCTAssertEqual(recorder.rawHead, "GET /api/x?a=1 HTTP/1.1\r\nHost: h:8080\r\nX-Client: afcli\r\n\r\n")
    }
}
