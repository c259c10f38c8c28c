import AFKit
import XCTest

/// The envelope stage: statuses compared as text, the result's exact JSON text, the message, and
/// bodies that are not envelopes.
final class ResponseEnvelopeTests: XCTestCase {
    private func evaluate(_ text: String, _ spec: EnvelopeSpec = EnvelopeSpec()) throws -> ResponseEnvelope.Outcome {
        try ResponseEnvelope.evaluate(Array(text.utf8), spec: spec)
    }

    private func success(_ text: String) -> ResponseEnvelope.Outcome {
        .success(result: Array(text.utf8))
    }

    func testSuccessGivesTheResultsExactText() throws {
        XCTAssertEqual(
            try evaluate(#"{"status":0,"result": {"a" : 1.50, "s":"\u00e9\"}"} , "message":"x"}"#),
            success(#"{"a" : 1.50, "s":"\u00e9\"}"}"#))
        XCTAssertEqual(try evaluate(#"{"result":[1,[2,{"]":"}"}]],"status":"ok"}"#), success(#"[1,[2,{"]":"}"}]]"#))
        XCTAssertEqual(try evaluate(#" { "status" : true , "result" : -1e3 } "#), success("-1e3"))
        XCTAssertEqual(try evaluate(#"{"status":"200","result":"a,b}"}"#), success(#""a,b}""#))
        XCTAssertEqual(try evaluate(#"{"status":"success"}"#), success("null"))
        // A repeated key: the last one counts, as the parser keeps it.
        XCTAssertEqual(try evaluate(#"{"status":0,"result":1,"result":2}"#), success("2"))
        // An escaped key is the same key.
        XCTAssertEqual(try evaluate(#"{"st\u0061tus":0,"resul\u0074":[]}"#), success("[]"))
        // A byte order mark, which JSON allows, comes before the object.
        XCTAssertEqual(try evaluate("\u{FEFF} {\"status\":0,\"result\":{\"a\":1}}"), success(#"{"a":1}"#))
    }

    func testStatusesAreComparedAsText() throws {
        var spec = EnvelopeSpec()
        spec.success = ["1"]
        spec.commonFailure = ["5", "null"]
        XCTAssertEqual(try evaluate(#"{"status":"1","result":2}"#, spec), success("2"))
        XCTAssertEqual(try evaluate(#"{"status":1,"result":2}"#, spec), success("2"))
        XCTAssertEqual(
            try evaluate(#"{"status":0,"message":"wrong password"}"#, spec),
            .failure(status: "0", message: "wrong password"))
        XCTAssertEqual(
            try evaluate(#"{"status":"5","message":{"why":"elsewhere"}}"#, spec),
            .commonFailure(status: "5", message: #"{"why":"elsewhere"}"#))
        XCTAssertEqual(try evaluate(#"{"status":null}"#, spec), .commonFailure(status: "null", message: "the server answered status null without a message"))
    }

    func testDefaultSuccessStatusesAndKeyNames() throws {
        for status in ["0", "\"0\"", "200", "\"ok\"", "\"success\"", "true"] {
            XCTAssertEqual(try evaluate(#"{"status":\#(status),"result":1}"#), success("1"), status)
        }
        XCTAssertEqual(try evaluate(#"{"status":1,"message":"no"}"#), .failure(status: "1", message: "no"))
        var spec = EnvelopeSpec()
        spec.statusKey = "code"
        spec.messageKey = "msg"
        spec.resultKey = "data"
        spec.success = ["0"]
        XCTAssertEqual(try evaluate(#"{"code":"0","data":{"x":[]}}"#, spec), success(#"{"x":[]}"#))
        XCTAssertEqual(try evaluate(#"{"code":"9","msg":"m","status":0}"#, spec), .failure(status: "9", message: "m"))
    }

    func testStringStatusesAreComparedWithoutRegardToCase() throws {
        XCTAssertEqual(try evaluate(#"{"status":"OK","result":1}"#), success("1"))
        XCTAssertEqual(try evaluate(#"{"status":"Success","result":1}"#), success("1"))
        var spec = EnvelopeSpec()
        spec.success = ["done"]
        spec.commonFailure = ["relogin"]
        XCTAssertEqual(try evaluate(#"{"status":"DONE","result":1}"#, spec), success("1"))
        XCTAssertEqual(
            try evaluate(#"{"status":"ReLogin","message":"m"}"#, spec), .commonFailure(status: "ReLogin", message: "m"))
        // Literals stay exact: `True` is no JSON, and a number is its literal.
        spec.success = ["TRUE"]
        XCTAssertEqual(try evaluate(#"{"status":true,"message":"m"}"#, spec), .failure(status: "true", message: "m"))
    }

    func testALoneSurrogateIsStillJSON() throws {
        XCTAssertEqual(try evaluate(#"{"status":0,"result":{"s":"\ud800x"}}"#), success(#"{"s":"\ud800x"}"#))
        XCTAssertEqual(
            try evaluate(#"{"status":1,"message":"bad \udc00 or \ud800\u0041"}"#),
            .failure(status: "1", message: "bad \u{FFFD} or \u{FFFD}A"))
    }

    func testBodiesThatAreNotEnvelopes() {
        XCTAssertThrowsError(try evaluate("[1]")) { XCTAssertEqual($0 as? EnvelopeError, .notAnObject) }
        XCTAssertThrowsError(try evaluate(#"{"code":0}"#)) {
            XCTAssertEqual($0 as? EnvelopeError, .missingStatus(key: "status"))
            XCTAssertEqual("\($0)", #"the response body is not an envelope: it has no "status" member"#)
        }
        XCTAssertThrowsError(try evaluate("")) {
            guard case .notJSON? = $0 as? EnvelopeError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try evaluate(#"{"status":0,"result":1"#)) {
            guard case .notJSON? = $0 as? EnvelopeError else { return XCTFail("\($0)") }
        }
        let huge = [UInt8](repeating: 0x20, count: ResponseEnvelope.maximumBodyBytes + 1)
        XCTAssertThrowsError(try ResponseEnvelope.evaluate(huge, spec: EnvelopeSpec())) {
            XCTAssertEqual($0 as? EnvelopeError, .tooLarge(limit: 64 << 20))
        }
    }
}
