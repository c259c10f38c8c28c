import AFKit
import XCTest

@testable import AFCLI

/// The event stages every exchange passes through, in order: the decryption stage hands on only
/// a final 2xx body that its command turned into plain text, and only once the command succeeded;
/// the recorder sees the body as decrypted; the envelope reads it before the reporter.
final class EventStagesTests: XCTestCase {
    /// The reporter at the end of the stages: records what reached it.
    final class Reporter: HTTPClientDelegate {
        var heads: [Int] = []
        var body: [UInt8] = []
        var ended = 0
        func willSend(hop: Int, request: SentRequest) throws {}
        func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws { heads.append(head.statusCode) }
        func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
            body.append(contentsOf: chunk)
        }
        func didFinishResponse(hop: Int, isFinal: Bool) throws { ended += 1 }
    }

    private func head(_ code: Int) -> ResponseHead {
        ResponseHead(statusCode: code, reasonPhrase: "", httpVersion: "HTTP/1.1", headers: [("Content-Type", "text/x")])
    }

    /// Delivers a final response of `code` with `chunks` to `first`.
    private func deliver(_ code: Int, _ chunks: [String], to first: HTTPClientDelegate) throws {
        try first.didReceive(hop: 0, head: head(code), isFinal: true)
        for chunk in chunks {
            try Array(chunk.utf8).withUnsafeBytes { try first.didReceiveBody(hop: 0, chunk: $0, isFinal: true) }
        }
        try first.didFinishResponse(hop: 0, isFinal: true)
    }

    func testADecryptedBodyReachesTheRecorderAndTheReporterOnlyOnceTheCommandSucceeded() throws {
        // Given: a "decryption" that upper-cases the body.
        let reporter = Reporter()
        let stages = EventStages(
            receiver: ReportedExchange(delegate: reporter, printer: nil), decryptCommand: "tr a-z A-Z", envelope: nil)

        // When
        try deliver(200, ["secret ", "body"], to: stages.first)

        // Then
        XCTAssertEqual(String(decoding: reporter.body, as: UTF8.self), "SECRET BODY")
        XCTAssertEqual(stages.recorder.bodyBytes, 11)
        XCTAssertEqual(reporter.ended, 1)
    }

    func testAFailingCommandHandsOnNothingAndFailsTheExchange() throws {
        // Given
        let reporter = Reporter()
        let stages = EventStages(
            receiver: ReportedExchange(delegate: reporter, printer: nil), decryptCommand: "cat >/dev/null; exit 3",
            envelope: nil)

        // When / Then
        XCTAssertThrowsError(try deliver(200, ["ciphertext"], to: stages.first)) {
            // A failed --decrypt-cmd: exit status 1, as the manual's table says.
            XCTAssertEqual(ExitStatus(FailureClass.of(wrapped: $0)), .failure, "\($0)")
        }
        XCTAssertEqual(reporter.body, [])
        XCTAssertEqual(stages.recorder.bodyBytes, 0)
    }

    func testOnlyAFinal2xxBodyIsDecrypted() throws {
        // Given: a command that would change the body.
        let reporter = Reporter()
        let stages = EventStages(
            receiver: ReportedExchange(delegate: reporter, printer: nil), decryptCommand: "tr a-z A-Z", envelope: nil)

        // When: an error answer.
        try deliver(404, ["not found"], to: stages.first)

        // Then: passed on as received.
        XCTAssertEqual(String(decoding: reporter.body, as: UTF8.self), "not found")
        XCTAssertEqual(stages.recorder.recorded.statusCode, 404)
    }

    func testTheEnvelopeReadsTheDecryptedBodyAndPassesOnItsResult() throws {
        // Given: CJNetwork's envelope over a decrypted body.
        let reporter = Reporter()
        let spec = EnvelopeSpec()
        let stages = EventStages(
            receiver: ReportedExchange(delegate: reporter, printer: nil), decryptCommand: "cat", envelope: spec)

        // When
        try deliver(200, [#"{"status":0,"result":{"a":1}}"#], to: stages.first)
        let reading = try XCTUnwrap(stages.envelope).conclude()

        // Then: the result alone reached the reporter, and the reading says success.
        guard case .success? = reading else { return XCTFail("\(String(describing: reading))") }
        XCTAssertEqual(String(decoding: reporter.body, as: UTF8.self), #"{"a":1}"#)
    }
}
