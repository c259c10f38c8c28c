import AFKit
import XCTest

@testable import AFCLI

/// The outcome recorder: what the judge and the request log read is what the events carried to
/// the reporter, recorded on the way, not asked of the reporter afterwards.
final class OutcomeRecorderTests: XCTestCase {
    /// A reporter that takes no more of the final body than it is told to.
    final class Reporter: HTTPClientDelegate {
        var chunks: [[UInt8]] = []
        var wantsBody = true
        func willSend(hop: Int, request: SentRequest) throws {}
        func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {}
        func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
            chunks.append(Array(chunk))
        }
        func needsMoreFinalBody() -> Bool { wantsBody }
    }

    struct Broken: Error {}

    private func head(_ code: Int, _ reason: String, type: String) -> ResponseHead {
        ResponseHead(statusCode: code, reasonPhrase: reason, httpVersion: "HTTP/1.1", headers: [("Content-Type", type)])
    }

    /// Sends a redirect with a body, then a final response with two chunks.
    private func exchange(through recorder: OutcomeRecorder) throws {
        try recorder.didReceive(hop: 0, head: head(302, "Found", type: "text/html"), isFinal: false)
        try Array("moved".utf8).withUnsafeBytes { try recorder.didReceiveBody(hop: 0, chunk: $0, isFinal: false) }
        try recorder.didReceive(hop: 1, head: head(404, "Not Found", type: "application/json"), isFinal: true)
        for part in ["{\"a\":", "1}"] {
            try Array(part.utf8).withUnsafeBytes { try recorder.didReceiveBody(hop: 1, chunk: $0, isFinal: true) }
        }
    }

    func testRecordsTheFinalResponseAndPassesEveryEventOn() throws {
        // Given
        let reporter = Reporter()
        let recorder = OutcomeRecorder(next: reporter)

        // When
        try exchange(through: recorder)

        // Then: the final head and its body's bytes, not the redirect's; everything reached the reporter.
        let outcome = recorder.recorded
        XCTAssertEqual(outcome.statusCode, 404)
        XCTAssertEqual(outcome.reasonPhrase, "Not Found")
        XCTAssertEqual(outcome.contentType, "application/json")
        XCTAssertEqual(outcome.bodyBytes, 7)
        XCTAssertNil(outcome.transferError)
        XCTAssertEqual(reporter.chunks.map { String(decoding: $0, as: UTF8.self) }, ["moved", "{\"a\":", "1}"])
        XCTAssertEqual(recorder.loggedBody.bytes, [])
        XCTAssertEqual(OutcomeJudge(validator: nil, checkStatus: true).verdict(outcome).status, .clientError)
    }

    func testKeepsTheBodyForTheLogAndReadsItWholeThoughTheReporterStopped() throws {
        // Given: a reporter that wants no body (`-h`), and a request log.
        let reporter = Reporter()
        reporter.wantsBody = false
        let recorder = OutcomeRecorder(next: reporter)
        XCTAssertFalse(recorder.needsMoreFinalBody())
        recorder.keepsBodyForLog = true

        // When
        try exchange(through: recorder)

        // Then
        XCTAssertTrue(recorder.needsMoreFinalBody())
        XCTAssertEqual(String(decoding: recorder.loggedBody.bytes, as: UTF8.self), "{\"a\":1}")
    }

    func testAFailedTransferKeepsTheHeadThatArrivedAndItsError() throws {
        let recorder = OutcomeRecorder(next: Reporter())
        try exchange(through: recorder)

        let outcome = recorder.outcome(.failure(Broken()))

        XCTAssertEqual(outcome.statusCode, 404)
        XCTAssertTrue(outcome.transferError is Broken)
        XCTAssertFalse(OutcomeJudge(validator: nil, checkStatus: true).accepts(outcome))
    }
}
