import AFCurl
import XCTest

@testable import AFKit

/// The one rule of what afcli shows of an exchange: which header values are hidden, how a cookie,
/// a Set-Cookie and an Authorization value keep their shape, and what `--show-secrets` reveals.
final class HeaderRedactionTests: XCTestCase {
    private let rule = HeaderRedaction(names: ["X-Vendor"])

    func testCredentialHeadersAndSecretLookingNamesAreHidden() {
        for name in ["Authorization", "proxy-authorization", "X-Amz-Security-Token", "X-Api-Key", "X-CSRF-Token",
            "X-Vendor", "Cookie", "Set-Cookie"]
        {
            XCTAssertTrue(rule.hides(name), name)
        }
        for name in ["Content-Type", "X-Amz-Date", "WWW-Authenticate", "Location", "ETag"] {
            XCTAssertFalse(rule.hides(name), name)
        }
        XCTAssertFalse(HeaderRedaction(revealing: true).hides("Authorization"))
    }

    func testValuesKeepTheirShape() {
        XCTAssertEqual(rule.value(name: "Authorization", value: "Basic YW5uOnB3"), "Basic <redacted>")
        XCTAssertEqual(rule.value(name: "Authorization", value: "opaque"), "<redacted>")
        XCTAssertEqual(rule.value(name: "Cookie", value: "a=1; b=2;c"), "a=<redacted>; b=<redacted>; c=<redacted>")
        XCTAssertEqual(
            rule.value(name: "Set-Cookie", value: "sid=abc; Path=/; HttpOnly"), "sid=<redacted>; Path=/; HttpOnly")
        XCTAssertEqual(rule.value(name: "X-Vendor", value: "k"), "<redacted>")
        XCTAssertEqual(rule.value(name: "Accept", value: "*/*"), "*/*")
    }

    func testAWireHeadKeepsItsLinesAndLineEnds() {
        let head = "GET / HTTP/1.1\r\nHost: h\r\nAuthorization:  Bearer t0k3n\r\nCookie: s=1\r\n\r\n"
        XCTAssertEqual(
            rule.head(head), "GET / HTTP/1.1\r\nHost: h\r\nAuthorization:  Bearer <redacted>\r\nCookie: s=<redacted>\r\n\r\n")
        XCTAssertEqual(HeaderRedaction(revealing: true).head(head), head)
    }

    func testTheRequestsAuthenticationAndTheEnvironmentsSecretsAreHidden() throws {
        var request = PreparedRequest(method: "GET", url: "http://h.test/", headers: [])
        try RequestAuthentication.apply(
            RequestAuthentication(command: AuthCommand(command: "echo 'X-Sig: s1'"), signer: nil), to: &request)
        var profile = EnvironmentProfile(name: "dev")
        profile.headers = [HTTPField(name: "X-Client", value: "Bearer abc"), HTTPField(name: "X-App", value: "web")]
        let rule = HeaderRedaction(revealing: false, request: request, profile: profile)
        XCTAssertTrue(rule.hides("x-sig"))
        XCTAssertTrue(rule.hides("X-Client"))
        XCTAssertFalse(rule.hides("X-App"))
    }

    func testCookiesAsHARListsThem() {
        let sent = rule.cookies([("Cookie", "a=1; b=2"), ("Accept", "*/*")], setByResponse: false)
        XCTAssertEqual(sent.map(\.0), ["a", "b"])
        XCTAssertEqual(sent.map(\.1), ["<redacted>", "<redacted>"])
        let set = HeaderRedaction(revealing: true).cookies([("Set-Cookie", "sid=x; Path=/")], setByResponse: true)
        XCTAssertEqual(set.map(\.0), ["sid"])
        XCTAssertEqual(set.map(\.1), ["x"])
    }

    func testAReportsCurlCommandHidesTheSame() {
        let secrets = CurlSecrets(redaction: rule)
        XCTAssertEqual(
            secrets.redacting([
                "curl", "--header", "X-Vendor: k", "--header", "Accept: */*", "--cookie", "a=1; b=2", "--user", "ann:pw",
            ]),
            ["curl", "--header", "X-Vendor: <redacted>", "--header", "Accept: */*", "--cookie", "a=<redacted>; b=<redacted>",
                "--user", "ann:<redacted>"])
        // --curl itself shows what was typed.
        XCTAssertEqual(CurlSecrets().redacting(["curl", "--header", "X-Vendor: k"]), ["curl", "--header", "X-Vendor: k"])
    }
}
