import AFKit
import Foundation
import XCTest

/// AWS Signature Version 4 against vectors computed with botocore (Tests/cli/aws_sigv4_vectors.py
/// wrote Fixtures/aws-sigv4-vectors.json; test_aws_sigv4_vectors.py checks they still hold).
final class AWSSigV4Tests: XCTestCase {
    /// One case of the fixture.
    private struct Vector: Decodable {
        struct Expected: Decodable {
            var canonicalRequest: String
            var stringToSign: String
            var signature: String
            var headers: [[String]]
        }

        var name: String
        var method: String
        var url: String
        var headers: [[String]]
        var payload: String
        var region: String
        var service: String
        var accessKey: String
        var secretKey: String
        var sessionToken: String?
        var time: Int64
        var expected: Expected
    }

    /// The header names the signer sets; the fixture lists these as botocore left them.
    private static let signerFields: Set<String> = [
        "authorization", "x-amz-date", "date", "x-amz-security-token", "x-amz-content-sha256",
    ]

    private func vectors() throws -> [Vector] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/aws-sigv4-vectors.json")
        return try JSONDecoder().decode([Vector].self, from: Data(contentsOf: file))
    }

    func testEveryVectorSignsAsBotocoreDoes() throws {
        let vectors = try vectors()
        XCTAssertGreaterThanOrEqual(vectors.count, 20)
        for vector in vectors {
            let request = AWSSigV4.Request(
                method: vector.method, url: vector.url, headers: vector.headers.map { ($0[0], $0[1]) },
                payloadHash: vector.payload)
            let credentials = AWSSigV4.Credentials(
                accessKey: vector.accessKey, secretKey: vector.secretKey, sessionToken: vector.sessionToken)
            let signed = AWSSigV4.sign(
                request, credentials: credentials, region: vector.region, service: vector.service, time: vector.time)
            XCTAssertEqual(signed.canonicalRequest, vector.expected.canonicalRequest, vector.name)
            XCTAssertEqual(signed.stringToSign, vector.expected.stringToSign, vector.name)
            XCTAssertEqual(signed.signature, vector.expected.signature, vector.name)
            let set = signed.headers.filter { Self.signerFields.contains($0.name.lowercased()) }.map { [$0.name, $0.value] }
            XCTAssertEqual(set, vector.expected.headers, vector.name)
            XCTAssertEqual(signed.authorization, vector.expected.headers.last { $0[0] == "Authorization" }?[1], vector.name)
        }
    }

    func testTheOldAuthorizationAndUnsignedFieldsAreLeftOut() {
        let request = AWSSigV4.Request(
            method: "GET", url: "https://h.example/",
            headers: [("Authorization", "Basic x"), ("User-Agent", "afcli"), ("Transfer-Encoding", "chunked")],
            payloadHash: AWSSigV4.unsignedPayload)
        let signed = AWSSigV4.sign(
            request, credentials: AWSSigV4.Credentials(accessKey: "K", secretKey: "S"), region: "r", service: "svc",
            time: 0)
        XCTAssertEqual(signed.headers.filter { $0.name == "Authorization" }.count, 1)
        XCTAssertTrue(signed.authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=K/19700101/r/svc/aws4_request, "))
        XCTAssertTrue(signed.authorization.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date,"))
    }

    func testHMACMatchesRFC4231() {
        // RFC 4231 test cases 2 (short key) and 6 (a key longer than the block).
        XCTAssertEqual(
            SHA256.hex(HMACSHA256.authenticate("what do ya want for nothing?", key: Array("Jefe".utf8))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        XCTAssertEqual(
            SHA256.hex(
                HMACSHA256.authenticate(
                    "Test Using Larger Than Block-Size Key - Hash Key First",
                    key: [UInt8](repeating: 0xAA, count: 131))),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
