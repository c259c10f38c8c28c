import AFKit
import XCTest

@testable import AFCLI

/// `--curl` and `--show-secrets`: parsing, and which secrets the printed command hides.
final class CurlOptionTests: XCTestCase {
    private func options(_ arguments: String...) throws -> Settings {
        try ArgumentParser.parse(["example.org"] + arguments).options
    }

    func testFlagsAndTheirNegations() throws {
        XCTAssertTrue(try options("--curl").request.curl)
        XCTAssertFalse(try options("--curl", "--no-curl").request.curl)
        XCTAssertTrue(try options("--show-secrets").request.showSecrets)
        XCTAssertFalse(try options().request.showSecrets)
    }

    func testAPasswordAskedForIsASecretOneTypedIsNot() throws {
        let asked = RequestSpec(method: "GET", url: "http://h/", credentials: .basic(user: "ann", password: "pw"))
        XCTAssertEqual(
            CurlCommandPrinter.secrets(asked, try options("-a", "ann")),
            CurlSecrets(headerLines: [
                "Authorization: " + DefaultHeaders.basicAuthorization(user: "ann", password: "pw")
            ]))
        XCTAssertEqual(CurlCommandPrinter.secrets(asked, try options("-a", "ann:pw")), CurlSecrets())
        let digest = RequestSpec(method: "GET", url: "http://h/", credentials: .digest(user: "ann", password: "pw"))
        XCTAssertEqual(
            CurlCommandPrinter.secrets(digest, try options("-a", "ann", "-A", "digest")), CurlSecrets(passwords: ["pw"])
        )
        let bearer = RequestSpec(method: "GET", url: "http://h/", credentials: .bearer(token: "t"))
        XCTAssertEqual(CurlCommandPrinter.secrets(bearer, try options("-a", "t", "-A", "bearer")), CurlSecrets())
    }
}
