import AFKit
import XCTest

@testable import AFCLI

/// The one judge of an exchange's outcome, for single requests and runs alike: a table of
/// outcomes and settings with the verdict each must get, in the order the judge decides (a
/// transfer error, then a failed validation, then the envelope, then the status check).
final class OutcomeJudgeTests: XCTestCase {
    /// No `--accept-*`, `--check-status` on (the default).
    static let plain = OutcomeJudge(validator: nil, checkStatus: true)
    /// `--check-status=false`.
    static let unchecked = OutcomeJudge(validator: nil, checkStatus: false)

    /// `--accept-status LIST`.
    static func acceptStatus(_ list: String) -> OutcomeJudge {
        OutcomeJudge(
            validator: ResponseValidator(acceptableStatusCodes: StatusCodeSet(parsing: list)!), checkStatus: true)
    }

    /// `--accept-type json`.
    static let acceptJSON = OutcomeJudge(
        validator: ResponseValidator(acceptableContentTypes: AcceptableContentTypes.parse("json")), checkStatus: true)

    /// A completed exchange's outcome.
    static func answered(
        _ code: Int, _ reason: String, type: String? = "application/json", bytes: Int = 10,
        envelope: EnvelopeReading? = nil
    ) -> ExchangeOutcome {
        ExchangeOutcome(
            statusCode: code, reasonPhrase: reason, contentType: type, bodyBytes: bytes, envelope: envelope)
    }

    static func failed(_ status: ExitStatus, _ message: String, detail: String? = nil) -> OutcomeJudge.Verdict {
        OutcomeJudge.Verdict(status: status, message: message, detail: detail)
    }

    static func statusCheck(_ status: ExitStatus, _ message: String) -> OutcomeJudge.Verdict {
        OutcomeJudge.Verdict(status: status, message: message, isStatusCheck: true)
    }

    /// An error no afcli type declares, which counts as a plain failure.
    struct Unexpected: Error, CustomStringConvertible {
        var description: String { "something unexpected" }
    }

    func testEachOutcomeUnderEachSettingGetsTheVerdictASingleRequestGives() {
        let notEnvelope = EnvelopeError.notAnObject
        let table: [(String, ExchangeOutcome, OutcomeJudge, OutcomeJudge.Verdict)] = [
            // The status check, on by default.
            ("200", Self.answered(200, "OK"), Self.plain, .success),
            (
                "304", Self.answered(304, "Not Modified"), Self.plain,
                Self.statusCheck(.redirection, "HTTP 304 Not Modified")
            ),
            ("404", Self.answered(404, "Not Found"), Self.plain, Self.statusCheck(.clientError, "HTTP 404 Not Found")),
            (
                "500", Self.answered(500, "Internal Server Error"), Self.plain,
                Self.statusCheck(.serverError, "HTTP 500 Internal Server Error")
            ),
            ("101", Self.answered(101, "Switching Protocols"), Self.plain, .success),
            ("200 unchecked", Self.answered(200, "OK"), Self.unchecked, .success),
            ("304 unchecked", Self.answered(304, "Not Modified"), Self.unchecked, .success),
            ("404 unchecked", Self.answered(404, "Not Found"), Self.unchecked, .success),
            ("500 unchecked", Self.answered(500, "Internal Server Error"), Self.unchecked, .success),
            // --accept-status replaces the status check.
            ("304 accepted", Self.answered(304, "Not Modified"), Self.acceptStatus("200-299,304"), .success),
            ("404 accepted", Self.answered(404, "Not Found"), Self.acceptStatus("404"), .success),
            (
                "500 refused", Self.answered(500, "Internal Server Error"), Self.acceptStatus("200-299"),
                Self.failed(.serverError, "Request failed: internal server error (500)")
            ),
            (
                "200 refused", Self.answered(200, "OK"), Self.acceptStatus("201"),
                Self.failed(.responseRejected, "Request failed: status 200 is not one of --accept-status 201")
            ),
            // --accept-type, for a body that has bytes.
            ("json accepted", Self.answered(200, "OK"), Self.acceptJSON, .success),
            (
                "html refused", Self.answered(200, "OK", type: "text/html; charset=utf-8"), Self.acceptJSON,
                Self.failed(.responseRejected, "Request failed: unacceptable content-type: text/html")
            ),
            ("empty html", Self.answered(200, "OK", type: "text/html", bytes: 0), Self.acceptJSON, .success),
            (
                "no type", Self.answered(200, "OK", type: nil), Self.acceptJSON,
                Self.failed(.responseRejected, "Request failed: unacceptable content-type: (null)")
            ),
            (
                "404 html", Self.answered(404, "Not Found", type: "text/html"), Self.acceptJSON,
                Self.failed(
                    .clientError, "Request failed: not found (404)",
                    detail: "  Request failed: unacceptable content-type: text/html")
            ),
            // The envelope's verdict (read only in a 2xx body).
            ("envelope success", Self.answered(200, "OK", envelope: .success), Self.plain, .success),
            (
                "envelope failure", Self.answered(200, "OK", envelope: .failure(message: "bad token")), Self.plain,
                Self.failed(.envelopeFailure, "bad token")
            ),
            (
                "envelope common failure",
                Self.answered(200, "OK", envelope: .commonFailure(message: "logged in elsewhere")), Self.plain,
                Self.failed(.envelopeCommonFailure, "logged in elsewhere")
            ),
            (
                "not an envelope", Self.answered(200, "OK", envelope: .unreadable(notEnvelope)), Self.plain,
                Self.failed(.responseRejected, "the response body is not an envelope: not a JSON object")
            ),
            (
                "envelope failure unchecked", Self.answered(200, "OK", envelope: .failure(message: "no")),
                Self.unchecked, Self.failed(.envelopeFailure, "no")
            ),
            // A validation that passes leaves the verdict to the envelope; one that fails decides.
            (
                "validated envelope failure", Self.answered(200, "OK", envelope: .failure(message: "bad token")),
                Self.acceptStatus("200"), Self.failed(.envelopeFailure, "bad token")
            ),
            (
                "validated envelope success", Self.answered(200, "OK", envelope: .success), Self.acceptJSON, .success
            ),
            (
                "refused envelope failure",
                Self.answered(200, "OK", type: "text/html", envelope: .failure(message: "bad token")), Self.acceptJSON,
                Self.failed(.responseRejected, "Request failed: unacceptable content-type: text/html")
            ),
            (
                "refused not an envelope",
                Self.answered(200, "OK", envelope: .unreadable(notEnvelope)), Self.acceptStatus("201"),
                Self.failed(.responseRejected, "Request failed: status 200 is not one of --accept-status 201")
            ),
        ]
        for (name, outcome, judge, expected) in table {
            XCTAssertEqual(judge.verdict(outcome), expected, name)
        }
    }

    func testATransferErrorIsTheVerdictWhateverTheResponseWas() {
        // Given: a 404 head arrived, then the body went over a limit; and an error afcli has no class for.
        var overLimit = Self.answered(404, "Not Found", envelope: .failure(message: "bad token"))
        overLimit.transferError = EnvelopeError.tooLarge(limit: 64 << 20)
        let unexpected = ExchangeOutcome(transferError: Unexpected())

        // Then: each is its error, under every setting.
        for judge in [Self.plain, Self.unchecked, Self.acceptStatus("404"), Self.acceptJSON] {
            XCTAssertEqual(
                judge.verdict(overLimit),
                Self.failed(.limitExceeded, "the response body is larger than the 64 MiB --envelope reads"))
            XCTAssertEqual(judge.verdict(unexpected), Self.failed(.failure, "something unexpected"))
        }
    }

    func testTheLogAcceptsWhatTheValidatorAcceptsElseOnly2xx() {
        let table: [(String, ExchangeOutcome, OutcomeJudge, Bool)] = [
            ("200", Self.answered(200, "OK"), Self.plain, true),
            ("204 unchecked", Self.answered(204, "No Content", bytes: 0), Self.unchecked, true),
            // Without --accept-status, AF's 200–299, whatever --check-status says.
            ("304", Self.answered(304, "Not Modified"), Self.plain, false),
            ("404 unchecked", Self.answered(404, "Not Found"), Self.unchecked, false),
            ("404 accepted", Self.answered(404, "Not Found"), Self.acceptStatus("404"), true),
            ("html refused", Self.answered(200, "OK", type: "text/html"), Self.acceptJSON, false),
            // The log's decision is AF validation alone: an envelope failure is still a 2xx answer.
            ("envelope failure", Self.answered(200, "OK", envelope: .failure(message: "no")), Self.plain, true),
            ("no response", ExchangeOutcome(transferError: Unexpected()), Self.plain, false),
        ]
        for (name, outcome, judge, expected) in table {
            XCTAssertEqual(judge.accepts(outcome), expected, name)
        }
    }

    func testTheOptionsMakeTheJudge() throws {
        var options = Settings()
        XCTAssertNil(OutcomeJudge(options: options).validator)
        XCTAssertTrue(OutcomeJudge(options: options).checkStatus)
        options.pipeline.acceptTypes = ["application/json"]
        // --accept-type alone keeps AF's acceptable codes.
        XCTAssertEqual(
            OutcomeJudge(options: options).validator,
            ResponseValidator(acceptableStatusCodes: .successful, acceptableContentTypes: ["application/json"]))
        options.pipeline.checkStatus = false
        XCTAssertFalse(OutcomeJudge(options: options).checkStatus)
    }
}
