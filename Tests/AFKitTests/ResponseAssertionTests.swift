import XCTest

@testable import AFKit

/// httpyac's `??` lines: how each is read, and what each predicate says of a response. The
/// expected outcomes are written out here.
final class ResponseAssertionTests: XCTestCase {
    private func parse(_ text: String) throws -> ResponseAssertion {
        try ResponseAssertion.parse(text, line: 7)
    }

    private func response(status: Int = 200, headers: [(String, String)] = [], body: String = "") -> CheckedResponse {
        CheckedResponse(
            statusCode: status,
            head: ResponseHead(statusCode: status, reasonPhrase: "", httpVersion: "HTTP/1.1", headers: headers),
            body: Array(body.utf8), bodyTruncated: false, metrics: nil)
    }

    /// Why `text` is refused; nil when it is read.
    private func reason(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return (error as? ResponseAssertionError)?.reason
        }
    }

    /// Whether each line holds for `response`.
    private func holds(_ lines: [String], _ response: CheckedResponse) throws -> [Bool] {
        ResponseCheck.check(try lines.map(parse), against: response).map(\.passed)
    }

    func testReadsFieldArgumentPredicateAndTheRestOfTheLineAsTheValue() throws {
        let title = try parse(" xpath /slideshow/@title == Sample Slide Show ")
        XCTAssertEqual(title.field, .xPath("/slideshow/@title"))
        XCTAssertEqual(title.predicate, .equals)
        XCTAssertEqual(title.expected, "Sample Slide Show")
        XCTAssertEqual(title.line, 7)
        XCTAssertEqual(try parse("header content-type includes json").field, .header("content-type"))
        XCTAssertEqual(try parse("body $.items exists").field, .body(path: "$.items"))
        XCTAssertNil(try parse("body $.items exists").expected)
        XCTAssertEqual(try parse("body contains x").field, .body(path: nil))
        XCTAssertEqual(try parse("body contains x").predicate, .includes)
        XCTAssertEqual(try parse("duration firstByte < 30").field, .duration(.firstByte))
        XCTAssertEqual(try parse("status equals 200").predicate, .equals)
    }

    func testAJSONPathQueryEndsWhereTheJSONPathGrammarEndsNotAtItsFirstSpace() throws {
        let adults = try parse("jsonpath $.items[?@.age > 18].name exists")
        XCTAssertEqual(adults.field, .jsonPath("$.items[?@.age > 18].name"))
        XCTAssertEqual(adults.predicate, .exists)
        XCTAssertNotNil(adults.query)
        let spaced = try parse("body $.items[? @.name == 'a b'].id == 7")
        XCTAssertEqual(spaced.field, .body(path: "$.items[? @.name == 'a b'].id"))
        XCTAssertEqual(spaced.expected, "7")
        let bare = try parse("body items[?@.age >= 21].name includes Ann Lee")
        XCTAssertEqual(bare.field, .body(path: "items[?@.age >= 21].name"))
        XCTAssertEqual(bare.expected, "Ann Lee")
        let response = response(body: #"{"items":[{"age":17,"name":"Bo"},{"age":30,"name":"Ann Lee"}]}"#)
        XCTAssertEqual(
            try holds(
                ["jsonpath $.items[?@.age > 18].name == Ann Lee", "jsonpath $.items[?@.age > 40].name exists", bare.text],
                response),
            [true, false, true])
    }

    func testABadJSONPathQueryIsRefusedWhenTheLineIsRead() {
        XCTAssertEqual(
            reason("jsonpath $.items[?@.age > ] exists"),
            "?? jsonpath $.items[?@.age > ] exists: not a JSONPath query: "
                + "expected a value, a query or a function at character 18")
        XCTAssertEqual(
            reason("jsonpath $.a b exists"),
            "\"?? jsonpath $.a b exists\" names no condition after the query $.a (b is none) (==, !=, <, includes, exists…)")
        XCTAssertEqual(
            reason("body a.[ == 1"), "?? body a.[ == 1: not a JSONPath query: expected a member name or '*' at character 3")
        XCTAssertEqual(reason("jsonpath exists"), "?? jsonpath needs a query before the condition")
    }

    func testRefusesWhatCannotBeChecked() {
        XCTAssertEqual(reason("status"), "\"?? status\" names no condition (==, !=, <, includes, exists…)")
        XCTAssertEqual(reason("status =="), "?? status ==: == needs a value after it")
        XCTAssertEqual(reason("header exists"), "?? header needs one header name before the condition")
        XCTAssertEqual(reason("status exists 3"), "?? status exists 3: exists takes no value")
        XCTAssertEqual(reason("body matches ("), "?? body matches (: \"(\" is not a regular expression")
        XCTAssertTrue(reason("js response.status == 200")?.contains("needs JavaScript") == true)
        do {
            _ = try parse("js x == 1")
        } catch {
            XCTAssertEqual((error as? ResponseAssertionError)?.needsJavaScript, true)
        }
    }

    func testPredicatesOnTheStatusAndHeaders() throws {
        let ok = response(status: 201, headers: [("Content-Type", "application/json; charset=utf-8"), ("X-N", "12")])
        XCTAssertEqual(
            try holds(
                [
                    "status == 201", "status != 200", "status > 200", "status >= 201", "status < 300", "status <= 200",
                    "status startsWith 20", "status endsWith 1", "status isNumber", "status matches ^2\\d\\d$",
                    "header content-type startsWith application/json", "header CONTENT-TYPE includes utf-8",
                    "header x-n == 12", "header x-n > 11", "header x-n isString", "header x-gone exists",
                    "header x-gone isFalse", "header x-n isNumber",
                ], ok),
            [true, true, true, true, true, false, true, true, true, true, true, true, true, true, true, false, true, false])
    }

    func testPredicatesOnAJSONBody() throws {
        let json = response(body: #"{"items":[{"id":7,"name":"Ann","ok":true,"tags":[]}],"count":1.0,"none":null}"#)
        XCTAssertEqual(
            try holds(
                [
                    "jsonpath $.items[0].id == 7", "jsonpath $.items[0].id == 7.0", "jsonpath $.items[0].name == Ann",
                    "jsonpath $.items[0].name == \"Ann\"", "jsonpath $.items[0].ok isBoolean",
                    "jsonpath $.items[0].ok isTrue", "jsonpath $.items[0].tags isArray", "jsonpath $.items[0].tags == []",
                    "body count == 1", "body items[0].name startsWith A", "body $.none exists", "body $.none isFalse",
                    "body $.missing exists", "jsonpath $.items[*].id >= 7", "body includes \"Ann\"",
                    "jsonpath $.items[0] == {\"id\":7,\"name\":\"Ann\",\"ok\":true,\"tags\":[]}",
                ], json),
            [true, true, true, true, true, true, true, true, true, true, true, true, false, true, true, true])
    }

    func testABodyThatIsNotJSONOrTooLargeFailsWithTheReason() throws {
        // Whether found by a scan (one value at most) or by the evaluator over a parsed body.
        let results = ResponseCheck.check(
            [try parse("jsonpath $.a exists"), try parse("jsonpath $..a exists")], against: response(body: "<html>"))
        XCTAssertEqual(results.map(\.passed), [false, false])
        XCTAssertEqual(results.map(\.problem), ["the body is not JSON", "the body is not JSON"])
        // Valid but deeper than the parser goes: the limit, not "not JSON", either way.
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let tooDeep = ResponseCheck.check(
            [try parse("jsonpath $[0] exists"), try parse("jsonpath $..a exists")], against: response(body: deep))
        XCTAssertEqual(
            tooDeep.map(\.problem),
            [String](repeating: "the body is nested deeper than the limit (512 levels; --max-depth raises it)", count: 2))
        var large = response(body: "xxxx")
        large.bodyTruncated = true
        let cut = ResponseCheck.check([try parse("body includes x"), try parse("status == 200")], against: large)
        XCTAssertEqual(cut.map(\.passed), [false, true])
        XCTAssertEqual(cut[0].problem, "the body is larger than 16 MiB, more than assertions read")
    }

    func testSHA256InBase64OrHex() throws {
        let hello = response(body: "hello")
        XCTAssertEqual(
            try holds(
                [
                    "body sha256 LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=",
                    "body sha256 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
                    "body sha256 AAAA",
                ], hello),
            [true, true, false])
    }

    func testTheActualValueAndTheFailureText() throws {
        let results = ResponseCheck.check(
            [try parse("status == 200"), try parse("header x-a exists")], against: response(status: 404))
        XCTAssertEqual(results[0].actual, "404")
        XCTAssertEqual(results[0].failureText, "status == 200 (actual 404)")
        XCTAssertNil(results[1].actual)
        XCTAssertEqual(results[1].failureText, "header x-a exists (actual none)")
    }

    func testAnActualValueIsShownUpTo200Characters() throws {
        let long = String(repeating: "a", count: 250)
        XCTAssertEqual(
            ResponseCheck.check([try parse("body == x")], against: response(body: long))[0].actual,
            String(repeating: "a", count: 200) + "…")
        // 150 characters of 2 bytes each: 300 bytes, but not more than 200 characters.
        let accented = String(repeating: "é", count: 150)
        XCTAssertEqual(
            ResponseCheck.check([try parse("body == x")], against: response(body: accented))[0].actual, accented)
        // A JSON number is shown as written.
        XCTAssertEqual(
            ResponseCheck.check([try parse("jsonpath $.n == 3")], against: response(body: #"{"n":2.50}"#))[0].actual,
            "2.50")
    }

    func testTheExpectedValueIsComparedWithOrWithoutItsQuotesAndAsANumber() throws {
        let body = response(body: #"{"name":"Ann","n":2,"s":"2.0"}"#)
        XCTAssertEqual(
            try holds(
                [
                    #"jsonpath $.name == "Ann""#, "jsonpath $.name == 'Ann'", "jsonpath $.name == Ann",
                    #"jsonpath $.n == "2""#, "jsonpath $.n == 2.0", "jsonpath $.n < 3", #"jsonpath $.n >= "2""#,
                    #"jsonpath $.name startsWith "An""#, #"jsonpath $.name == "Ann"#, "jsonpath $.n == two",
                ], body),
            [true, true, true, true, true, true, true, true, false, false])
    }
}
