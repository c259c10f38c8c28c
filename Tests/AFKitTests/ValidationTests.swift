import AFKit
import XCTest

/// AFNetworking's response validation vectors (from AFNetworking 4.0.1's serializer tests and
/// spec/AFNETWORKING.md §5), numbered R1–R22. Vectors about Cocoa objects (NSCoding, copying,
/// image decoding into UIImage) do not apply to a command-line client and are not listed.
final class ValidationTests: XCTestCase {
    private let json = ResponseValidator(acceptableContentTypes: ResponseSerializerKind.json.acceptableContentTypes)

    // R1: every 2xx is acceptable by default.
    func testR1Every2xxPasses() {
        for code in 200...299 {
            XCTAssertNil(ResponseValidator().validate(statusCode: code, contentType: "text/plain", bodyLength: 1))
        }
    }

    // R2: every 4xx and 5xx fails with a status failure.
    func testR2Every4xxAnd5xxFails() {
        for code in 400...599 {
            XCTAssertEqual(
                ResponseValidator().validate(statusCode: code, contentType: nil, bodyLength: 0)?.statusCode, code)
        }
    }

    // R3: 1xx and 3xx are not in the default set either.
    func testR3InformationalAndRedirectsFail() {
        XCTAssertEqual(
            ResponseValidator().validate(statusCode: 304, contentType: nil, bodyLength: 0)?.description,
            "Request failed: not modified (304)")
        XCTAssertEqual(
            ResponseValidator().validate(statusCode: 101, contentType: nil, bodyLength: 0)?.description,
            "Request failed: switching protocols (101)")
    }

    // R4, R5: the failure text is Foundation's lower-case reason and the code.
    func testR4R5StatusMessages() {
        XCTAssertEqual(
            ResponseValidationError.unacceptableStatusCode(404, underlying: []).description,
            "Request failed: not found (404)")
        XCTAssertEqual(
            ResponseValidationError.unacceptableStatusCode(500, underlying: []).description,
            "Request failed: internal server error (500)")
        XCTAssertEqual(
            ResponseValidationError.unacceptableStatusCode(401, underlying: []).description,
            "Request failed: unauthorized (401)")
        XCTAssertEqual(
            ResponseValidationError.unacceptableStatusCode(503, underlying: []).description,
            "Request failed: service unavailable (503)")
    }

    // R6: codes Foundation has no text for get their class's text.
    func testR6UnknownCodesUseTheirClass() {
        XCTAssertEqual(HTTPStatusText.reason(for: 418), "client error")
        XCTAssertEqual(HTTPStatusText.reason(for: 599), "server error")
        XCTAssertEqual(HTTPStatusText.reason(for: 308), "redirected")
    }

    // R7: a 205 with no content type and no data passes, even with acceptable types set.
    func testR7ResetContentWithoutTypeOrDataPasses() {
        XCTAssertNil(json.validate(statusCode: 205, contentType: nil, bodyLength: 0))
    }

    // R8–R10: the JSON serializer accepts application/json, text/json and text/javascript.
    func testR8ToR10JSONTypes() {
        for type in ["application/json", "text/json", "text/javascript"] {
            XCTAssertNil(json.validate(statusCode: 200, contentType: type, bodyLength: 2), type)
        }
    }

    // R11: a non-standard JSON type is refused.
    func testR11NonStandardJSONTypeFails() {
        XCTAssertEqual(
            json.validate(statusCode: 200, contentType: "application/nonstandard-json", bodyLength: 2)?.description,
            "Request failed: unacceptable content-type: application/nonstandard-json")
    }

    // R12: the media type is compared without parameters, lower-cased.
    func testR12ParametersAndCaseAreIgnored() {
        XCTAssertNil(json.validate(statusCode: 200, contentType: "Application/JSON; charset=utf-8", bodyLength: 2))
    }

    // R13: the content type is checked only for a non-empty body.
    func testR13EmptyBodyNeverFailsOnItsType() {
        XCTAssertNil(json.validate(statusCode: 200, contentType: "text/html", bodyLength: 0))
        XCTAssertEqual(
            json.validate(statusCode: 200, contentType: "text/html", bodyLength: 5)?.description,
            "Request failed: unacceptable content-type: text/html")
    }

    // R14: a non-empty body without a content type fails, named as Foundation prints nil.
    func testR14MissingTypeWithBodyFails() {
        XCTAssertEqual(
            json.validate(statusCode: 200, contentType: nil, bodyLength: 5)?.description,
            "Request failed: unacceptable content-type: (null)")
    }

    // R15: when both fail, the status failure is reported with the content-type failure under it.
    func testR15BothFailures() {
        let failure = json.validate(statusCode: 404, contentType: "text/html", bodyLength: 9)
        XCTAssertEqual(failure?.description, "Request failed: not found (404)")
        XCTAssertEqual(failure?.underlyingError?.description, "Request failed: unacceptable content-type: text/html")
    }

    // R16: the acceptable status codes can be replaced (`--accept-status 200-299,304`).
    func testR16CustomStatusCodes() throws {
        let codes = try XCTUnwrap(StatusCodeSet(parsing: "200-299,304"))
        XCTAssertEqual(codes.ranges, [200...299, 304...304])
        let validator = ResponseValidator(acceptableStatusCodes: codes)
        XCTAssertNil(validator.validate(statusCode: 304, contentType: nil, bodyLength: 0))
        XCTAssertNotNil(validator.validate(statusCode: 302, contentType: nil, bodyLength: 0))
        for bad in ["", "2xx", "200-", "99", "600", "300-200", "200,,204", "20O"] {
            XCTAssertNil(StatusCodeSet(parsing: bad), bad)
        }
    }

    // R17: the XML serializer accepts application/xml and text/xml only.
    func testR17XMLTypes() throws {
        let xml = ResponseValidator(acceptableContentTypes: try XCTUnwrap(AcceptableContentTypes.parse("xml")))
        XCTAssertNil(xml.validate(statusCode: 200, contentType: "application/xml", bodyLength: 1))
        XCTAssertNil(xml.validate(statusCode: 200, contentType: "text/xml", bodyLength: 1))
        XCTAssertNotNil(xml.validate(statusCode: 200, contentType: "application/json", bodyLength: 1))
    }

    // R18: the property list serializer accepts application/x-plist.
    func testR18PropertyListType() {
        XCTAssertEqual(ResponseSerializerKind.propertyList.acceptableContentTypes, ["application/x-plist"])
        XCTAssertEqual(ResponseSerializerKind.forMediaType(ResponseMediaType("application/x-plist")), .propertyList)
    }

    // R19: the image serializer accepts AF's ten image types.
    func testR19ImageTypes() throws {
        let image = try XCTUnwrap(AcceptableContentTypes.parse("image"))
        XCTAssertEqual(image.count, 10)
        for type in [
            "image/tiff", "image/jpeg", "image/gif", "image/png", "image/ico", "image/x-icon", "image/bmp",
            "image/x-bmp", "image/x-xbitmap", "image/x-win-bitmap",
        ] {
            XCTAssertTrue(image.contains(type), type)
        }
        XCTAssertFalse(image.contains("image/webp"))
    }

    // R20: serializer selection by media type, with JSON sniffing for text/plain or no type.
    func testR20SerializerSelection() {
        XCTAssertEqual(ResponseSerializerKind.forMediaType(ResponseMediaType("application/json; charset=utf-8")), .json)
        XCTAssertEqual(ResponseSerializerKind.forMediaType(ResponseMediaType("application/problem+json")), .json)
        XCTAssertEqual(ResponseSerializerKind.forMediaType(ResponseMediaType("application/x-ndjson")), .json)
        XCTAssertEqual(ResponseSerializerKind.forMediaType(ResponseMediaType("application/atom+xml")), .xml)
        XCTAssertEqual(ResponseSerializerKind.forMediaType(ResponseMediaType("image/webp")), .image)
        XCTAssertEqual(ResponseSerializerKind.forMediaType(ResponseMediaType("text/plain")), .data)
        XCTAssertTrue(ResponseSerializerKind.looksLikeJSON(Array(" \n{\"a\":1}".utf8)))
        XCTAssertTrue(ResponseSerializerKind.looksLikeJSON(Array("\u{FEFF}[1]".utf8)))
        XCTAssertFalse(ResponseSerializerKind.looksLikeJSON(Array("hello".utf8)))
    }

    // R21: keywords and lists for --accept-type; anything else is refused.
    func testR21AcceptTypeParsing() {
        XCTAssertEqual(
            AcceptableContentTypes.parse("json, text/plain"),
            ["application/json", "text/json", "text/javascript", "text/plain"])
        XCTAssertNil(AcceptableContentTypes.parse("html"))
        XCTAssertNil(AcceptableContentTypes.parse("text/html; charset=utf-8"))
        XCTAssertNil(AcceptableContentTypes.parse(""))
    }

    // R22: Content-Type parsing for validation and for charset conversion.
    func testR22MediaTypeParsing() {
        let type = ResponseMediaType(" Text/Plain ; Charset=\"GBK\"")
        XCTAssertEqual(type.essence, "text/plain")
        XCTAssertEqual(type.charset, "GBK")
        XCTAssertEqual(ResponseMediaType("").essence, "")
    }
}
