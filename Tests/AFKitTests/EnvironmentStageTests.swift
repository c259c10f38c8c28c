import AFKit
import XCTest

/// Merging an environment's common parameters and headers into a request: the request wins.
final class EnvironmentStageTests: XCTestCase {
    private func profile() -> EnvironmentProfile {
        var profile = EnvironmentProfile(name: "dev")
        profile.parameters = [
            CommonParameter(name: "appVersion", value: .text("1200")),
            CommonParameter(name: "imei", value: .text("x")),
            CommonParameter(name: "n", value: .json("5")),
        ]
        profile.headers = [
            HTTPField(name: "X-Client", value: "afcli"), HTTPField(name: "Authorization", value: "Bearer t"),
        ]
        return profile
    }

    private func prepared(_ spec: RequestSpec) throws -> PreparedRequest {
        var spec = spec
        try EnvironmentStage(profile: profile()).apply(to: &spec)
        return try RequestSerializer.prepare(spec, environment: [:])
    }

    private func body(_ request: PreparedRequest) -> String {
        String(decoding: request.bodyBytes ?? [], as: UTF8.self)
    }

    func testGetCarriesCommonParametersInTheQueryBeforeItems() throws {
        let spec = RequestSpec(
            method: "GET", url: "http://h/api/users", queryItems: [QueryItem(name: "page", value: "2")])
        XCTAssertEqual(try prepared(spec).url, "http://h/api/users?appVersion=1200&imei=x&n=5&page=2")
    }

    func testRequestParametersWinOverCommonOnes() throws {
        let items = RequestSpec(
            method: "GET", url: "http://h/u?imei=mine", queryItems: [QueryItem(name: "appVersion", value: "9")])
        XCTAssertEqual(try prepared(items).url, "http://h/u?imei=mine&n=5&appVersion=9")
        let fields = RequestSpec(
            method: "POST", url: "http://h/u", parameters: .object([JSONMember(key: "n", value: .number("7"))]))
        XCTAssertEqual(body(try prepared(fields)), #"{"appVersion":"1200","imei":"x","n":7}"#)
    }

    func testPostMergesIntoTheBody() throws {
        let spec = RequestSpec(
            method: "POST", url: "http://h/login", parameters: .object([JSONMember(key: "user", value: .string("ann"))])
        )
        let request = try prepared(spec)
        XCTAssertEqual(request.url, "http://h/login")
        XCTAssertEqual(body(request), #"{"appVersion":"1200","imei":"x","n":5,"user":"ann"}"#)
    }

    func testPostWithoutDataGetsTheCommonParametersAsBody() throws {
        XCTAssertEqual(
            body(try prepared(RequestSpec(method: "PUT", url: "http://h/x"))),
            #"{"appVersion":"1200","imei":"x","n":5}"#)
    }

    func testFormAndDeleteFollowTheSerializer() throws {
        let form = RequestSpec(method: "POST", url: "http://h/x", encoding: .form)
        XCTAssertEqual(body(try prepared(form)), "appVersion=1200&imei=x&n=5")
        XCTAssertEqual(
            try prepared(RequestSpec(method: "DELETE", url: "http://h/x")).url, "http://h/x?appVersion=1200&imei=x&n=5")
    }

    func testRawBodyKeepsItsBytesAndParametersGoToTheQuery() throws {
        let spec = RequestSpec(method: "POST", url: "http://h/x", rawBody: .bytes(Array("raw".utf8)))
        let request = try prepared(spec)
        XCTAssertEqual(body(request), "raw")
        XCTAssertEqual(request.url, "http://h/x?appVersion=1200&imei=x&n=5")
    }

    func testMultipartGetsCommonParametersAsFields() throws {
        var spec = RequestSpec(method: "POST", url: "http://h/x", encoding: .multipart)
        try EnvironmentStage(profile: profile()).apply(to: &spec)
        XCTAssertEqual(spec.parameters?.objectMembers?.map(\.key), ["appVersion", "imei", "n"])
        let request = try RequestSerializer.prepare(spec, environment: [:], boundary: "B")
        let text = String(decoding: request.bodyBytes ?? [], as: UTF8.self)
        XCTAssertTrue(text.contains("Content-Disposition: form-data; name=\"imei\"\r\n\r\nx\r\n"), text)
    }

    func testCommonHeadersYieldToTheRequestsOwn() throws {
        let spec = RequestSpec(
            method: "GET", url: "http://h/x",
            headers: [HeaderItem(name: "x-client", value: "mine")], credentials: .bearer(token: "typed"))
        let headers = try prepared(spec).headers
        XCTAssertEqual(headers.filter { $0.name.lowercased() == "x-client" }.map(\.value), ["mine"])
        XCTAssertEqual(headers.filter { $0.name == "Authorization" }.map(\.value), ["Bearer typed"])
    }

    func testRemovedHeaderRemovesTheCommonOne() throws {
        let spec = RequestSpec(method: "GET", url: "http://h/x", headers: [HeaderItem(name: "X-Client", value: nil)])
        XCTAssertFalse(try prepared(spec).headers.contains { $0.name == "X-Client" })
    }

    func testCommonHeadersAreSentWhenTheRequestHasNone() throws {
        let headers = try prepared(RequestSpec(method: "GET", url: "http://h/x")).headers
        XCTAssertTrue(headers.contains(HTTPField(name: "X-Client", value: "afcli")))
        XCTAssertTrue(headers.contains(HTTPField(name: "Authorization", value: "Bearer t")))
    }

    func testQueryParametersStayOutOfTheAddressTheLogShows() throws {
        var spec = RequestSpec(
            method: "GET", url: "http://h/api/users", queryItems: [QueryItem(name: "page", value: "2")])
        try EnvironmentStage(profile: profile()).apply(to: &spec)
        XCTAssertEqual(spec.url, "http://h/api/users")
        XCTAssertEqual(spec.queryItems.map(\.name), ["appVersion", "imei", "n", "page"])
        XCTAssertEqual(
            CJRequestLog.originalParameters(spec.parameters, queryItems: spec.queryItems),
            #"{"appVersion":"1200","imei":"x","n":"5","page":"2"}"#)
    }
}
