@testable import AFKit
import XCTest

/// The pieces of the authentication stages that need no server: `--auth-cmd`'s output, the
/// `--aws-sigv4` scope, the payload digest of a streamed body, Bearer's invalid_token challenge,
/// the token store and the Kerberos cache check.
final class AuthStagesTests: XCTestCase {
    func testAuthCommandHeaderLines() throws {
        let fields = try AuthCommand.headers(Array("X-Sig:  abc \r\n\nAuthorization: HMAC k=1\n".utf8))
        XCTAssertEqual(fields, [HTTPField(name: "X-Sig", value: "abc"), HTTPField(name: "Authorization", value: "HMAC k=1")])
        XCTAssertEqual(try AuthCommand.headers([]), [])
    }

    func testAuthCommandRefusesWhatIsNoHeader() {
        for (output, line) in [("no colon\n", 1), ("X-A: 1\n: empty name\n", 2), ("Bad Name: v\n", 1), ("X: a\u{1}b\n", 1)] {
            XCTAssertThrowsError(try AuthCommand.headers(Array(output.utf8))) { error in
                guard case AuthStageError.badHeaderLine(let got, _)? = error as? AuthStageError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(got, line, output)
            }
        }
    }

    func testSigV4ScopeAsCurlWritesIt() throws {
        let keys = AWSSigV4.Credentials(accessKey: "k", secretKey: "s")
        let full = try AWSSigV4Stage(scope: "aws:amz:eu-west-1:s3", credentials: keys)
        XCTAssertEqual(full.region, "eu-west-1")
        XCTAssertEqual(full.service, "s3")
        let short = try AWSSigV4Stage(scope: "AWS", credentials: keys)
        XCTAssertNil(short.region)
        XCTAssertNil(short.service)
        for bad in ["osc:amz:r:s", "aws:osc:r:s", "aws:amz:r:s:x", "aws:amz:r r:s"] {
            XCTAssertThrowsError(try AWSSigV4Stage(scope: bad, credentials: keys), bad)
        }
    }

    func testSigV4ReadsRegionAndServiceFromAnAWSHost() throws {
        let stage = try AWSSigV4Stage(scope: "aws:amz", credentials: AWSSigV4.Credentials(accessKey: "k", secretKey: "s"))
        var request = PreparedRequest(method: "GET", url: "https://sts.eu-central-1.amazonaws.com/", headers: [])
        try stage.apply(to: &request, time: 1_440_938_160)
        let authorization = request.headers.last { $0.name == "Authorization" }?.value ?? ""
        XCTAssertTrue(authorization.contains("/20150830/eu-central-1/sts/aws4_request"), authorization)
        var local = PreparedRequest(method: "GET", url: "http://127.0.0.1:8080/", headers: [])
        XCTAssertThrowsError(try stage.apply(to: &local))
    }

    func testSigV4KeysFromTheEnvironmentCarryTheToken() throws {
        let environment = ["AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK", "AWS_SESSION_TOKEN": "T"]
        let fromEnvironment = try AWSSigV4Stage.credentials(auth: nil, environment: environment)
        XCTAssertEqual(fromEnvironment.sessionToken, "T")
        let typed = try AWSSigV4Stage.credentials(auth: "A:B:C", environment: environment)
        XCTAssertEqual([typed.accessKey, typed.secretKey], ["A", "B:C"])
        XCTAssertNil(typed.sessionToken)
        XCTAssertThrowsError(try AWSSigV4Stage.credentials(auth: nil, environment: [:]))
        XCTAssertThrowsError(try AWSSigV4Stage.credentials(auth: "keyonly", environment: [:]))
    }

    func testPayloadDigestOfAStreamedBodyRewindsIt() throws {
        let bytes = [UInt8](repeating: 0x61, count: 200_000)
        let source = BytesBodySource(bytes)
        let request = PreparedRequest(method: "PUT", url: "http://h/", headers: [], body: source)
        // SHA-256 of 200,000 'a' bytes, from Python's hashlib.
        XCTAssertEqual(
            try PayloadDigest.sha256(of: request, for: "x"),
            "2287d207f24a941ff3b56c04c8a25ad56b63e3023207b3bb5b4ac0c9869d74be")
        var buffer = [UInt8](repeating: 0, count: 4)
        XCTAssertEqual(try buffer.withUnsafeMutableBytes { try source.read(into: $0) }, 4)
        XCTAssertEqual(
            try PayloadDigest.sha256(of: PreparedRequest(method: "GET", url: "http://h/", headers: []), for: "x"),
            PayloadDigest.empty)
    }

    func testInvalidTokenChallenge() {
        XCTAssertTrue(BearerGate.isInvalidToken(["Bearer realm=\"a\", error=\"invalid_token\""]))
        XCTAssertTrue(BearerGate.isInvalidToken(["Basic realm=x", "bearer error=invalid_token"]))
        XCTAssertFalse(BearerGate.isInvalidToken(["Bearer realm=\"a\""]))
        XCTAssertFalse(BearerGate.isInvalidToken(["Bearer error=\"insufficient_scope\""]))
        XCTAssertFalse(BearerGate.isInvalidToken(["Basic error=\"invalid_token\""]))
    }

    func testTokenRequestIsRFC6749s() {
        let client = OAuth2Client(
            tokenURL: "https://auth/token", client: ("id 1", "s/+:"), scope: "read write",
            store: OAuth2TokenStore(directory: nil))
        let request = client.tokenRequest()
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.bodyBytes.map { String(decoding: $0, as: UTF8.self) },
                       "grant_type=client_credentials&scope=read+write")
        // base64("id+1:s%2F%2B%3A")
        XCTAssertTrue(request.headers.contains(HTTPField(name: "Authorization", value: "Basic aWQrMTpzJTJGJTJCJTNB")))
    }

    func testTokenValidityKeepsAMargin() {
        XCTAssertTrue(OAuth2Client.isValid(.init(accessToken: "t", expiresAt: 1000), now: 969))
        XCTAssertFalse(OAuth2Client.isValid(.init(accessToken: "t", expiresAt: 1000), now: 970))
        XCTAssertTrue(OAuth2Client.isValid(.init(accessToken: "t", expiresAt: nil), now: 1 << 40))
    }

    func testTokenStoreRoundTripAndKey() throws {
        let directory = NSTemporaryDirectory() + "afcli-tokens-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = OAuth2TokenStore(directory: directory)
        let key = OAuth2TokenStore.key(tokenURL: "u", clientID: "c", scope: nil)
        XCTAssertNotEqual(key, OAuth2TokenStore.key(tokenURL: "u", clientID: "c", scope: "s"))
        XCTAssertNil(store.load(key: key))
        try store.save(.init(accessToken: "abc", expiresAt: 42), key: key)
        XCTAssertEqual(store.load(key: key), .init(accessToken: "abc", expiresAt: 42))
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/" + key + ".json"))
        store.remove(key: key)
        XCTAssertNil(store.load(key: key))
    }

    func testSessionTokensRoundTripThroughTheMembersValue() throws {
        let tokens = OAuth2SessionTokens(nil)
        XCTAssertNil(tokens.json)
        try tokens.save(.init(accessToken: "a", expiresAt: 7), key: "k1")
        try tokens.save(.init(accessToken: "b", expiresAt: nil), key: "k2")
        let again = OAuth2SessionTokens(tokens.json)
        XCTAssertEqual(again.load(key: "k1"), .init(accessToken: "a", expiresAt: 7))
        XCTAssertEqual(again.load(key: "k2"), .init(accessToken: "b", expiresAt: nil))
        again.remove(key: "k1")
        again.remove(key: "k2")
        XCTAssertNil(again.json)
    }

    func testKerberosCacheCheck() {
        let missing = "/nonexistent/krb5cc"
        XCTAssertEqual(ChallengeAuthCheck.missingTicketCache { $0 == "KRB5CCNAME" ? "FILE:" + missing : nil }, missing)
        XCTAssertEqual(ChallengeAuthCheck.missingTicketCache { $0 == "KRB5CCNAME" ? missing : nil }, missing)
        XCTAssertNil(ChallengeAuthCheck.missingTicketCache { $0 == "KRB5CCNAME" ? "KEYRING:persistent:0" : nil })
        XCTAssertNil(ChallengeAuthCheck.missingTicketCache { $0 == "KRB5CCNAME" ? "FILE:/etc/hostname" : nil })
    }
}
