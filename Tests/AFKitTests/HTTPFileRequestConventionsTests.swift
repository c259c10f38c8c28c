import XCTest

@testable import AFKit

/// REST Client's shorthands: credentials in the Authorization header, forms over several lines,
/// GraphQL bodies; and the requests the builder makes of them.
final class HTTPFileRequestConventionsTests: XCTestCase {
    typealias Conventions = HTTPFileRequestConventions

    func testBasicAndDigestCredentialsWrittenInTheHeader() {
        // base64("user:passwd") and base64("ann:pass word") written out.
        XCTAssertEqual(Conventions.authorization("Basic user:passwd"), .header("Basic dXNlcjpwYXNzd2Q="))
        XCTAssertEqual(Conventions.authorization("Basic user passwd"), .header("Basic dXNlcjpwYXNzd2Q="))
        XCTAssertEqual(Conventions.authorization("BASIC  ann pass word"), .header("Basic YW5uOnBhc3Mgd29yZA=="))
        XCTAssertEqual(Conventions.authorization("Basic dXNlcjpwYXNzd2Q="), .header("Basic dXNlcjpwYXNzd2Q="))
        XCTAssertEqual(Conventions.authorization("Basic"), .header("Basic"))
        XCTAssertEqual(Conventions.authorization("Digest ann s3 cret"), .digest(user: "ann", password: "s3 cret"))
        XCTAssertEqual(
            Conventions.authorization("Digest username=\"ann\", realm=\"r\""),
            .header("Digest username=\"ann\", realm=\"r\""))
        XCTAssertEqual(Conventions.authorization("Digest ann:pw"), .header("Digest ann:pw"))
        XCTAssertEqual(Conventions.authorization("Bearer a b"), .header("Bearer a b"))
    }

    func testTheAWSShorthandAndCognito() throws {
        XCTAssertEqual(
            Conventions.authorization("AWS AKID s3cr/et token:T0K= Region:eu-west-1 service:s3"),
            .awsSigV4(accessKey: "AKID", secretKey: "s3cr/et", sessionToken: "T0K=", region: "eu-west-1", service: "s3"))
        XCTAssertEqual(
            Conventions.authorization("aws AKID secret"),
            .awsSigV4(accessKey: "AKID", secretKey: "secret", sessionToken: nil, region: nil, service: nil))
        let stage = try XCTUnwrap(try Conventions.authorization("AWS AKID secret region:us-east-2").awsStage())
        XCTAssertEqual(stage.region, "us-east-2")
        XCTAssertNil(stage.service)
        XCTAssertEqual(try stage.scope(for: "https://sqs.us-east-2.amazonaws.com/q").service, "sqs")
        for value in ["AWS AKID", "AWS AKID secret zone:x", "AWS AKID secret region:a region:b"] {
            guard case .refused(let reason) = Conventions.authorization(value) else { return XCTFail(value) }
            XCTAssertTrue(reason.contains("Authorization: AWS ACCESS_KEY SECRET_KEY"), reason)
        }
        XCTAssertThrowsError(try Conventions.authorization("AWS AKID secret region:a/b").awsStage())
        guard case .refused(let reason) = Conventions.authorization("COGNITO ann pw eu-west-1 pool client") else {
            return XCTFail("COGNITO")
        }
        XCTAssertTrue(reason.hasPrefix("Authorization: COGNITO is not supported"), reason)
        XCTAssertEqual(Conventions.authorization("AWS4-HMAC-SHA256 Credential=x"), .header("AWS4-HMAC-SHA256 Credential=x"))
    }

    func testFormLinesStartingWithAnAmpersandAreJoined() {
        XCTAssertEqual(Conventions.joinedFormLines("name=foo\n&password=bar\n&x=1"), "name=foo&password=bar&x=1")
        XCTAssertEqual(Conventions.joinedFormLines("a=1\nb=2"), "a=1\nb=2")
        XCTAssertTrue(Conventions.isForm("Application/X-WWW-Form-Urlencoded; charset=utf-8"))
        XCTAssertFalse(Conventions.isForm("text/plain"))
    }

    func testGraphQLBodies() throws {
        XCTAssertEqual(
            String(
                decoding: try Conventions.graphQLBody("query Q($n: Int) {\n  a(n: $n)\n}\n\n{\n  \"n\": 1.50\n}\n"),
                as: UTF8.self),
            #"{"query":"query Q($n: Int) {\n  a(n: $n)\n}","operationName":"Q","variables":{"n":1.50}}"#)
        XCTAssertEqual(
            String(decoding: try Conventions.graphQLBody("{ \"quoted\" }"), as: UTF8.self),
            #"{"query":"{ \"quoted\" }","variables":{}}"#)
        XCTAssertEqual(Conventions.operationName("mutation Add { add }"), "Add")
        XCTAssertNil(Conventions.operationName("query { a }"))
        XCTAssertNil(Conventions.operationName("queryName { a }"))
        XCTAssertThrowsError(try Conventions.graphQLBody("{ a }\n\n{ b")) { error in
            XCTAssertTrue("\(error)".hasPrefix("the GraphQL variables after the blank line are not JSON: "), "\(error)")
        }
    }

    func testTheBuilderAppliesTheShorthands() throws {
        let file = try HTTPFileParser.parse(
            Array(
                """
                POST http://127.0.0.1:1/login
                Authorization: Digest ann pw
                Content-Type: application/x-www-form-urlencoded

                user=ann
                &tag={{%tag}}
                ###
                POST http://127.0.0.1:1/graphql
                X-Request-Type: GraphQL
                Authorization: Basic ann:pw

                { me }
                ###
                GET http://127.0.0.1:1/graphql
                X-Request-Type: GraphQL
                """.utf8))
        let builder = HTTPFileRequestBuilder(
            variables: HTTPFileVariables(
                file: [HTTPFileVariable(name: "tag", value: "a b", line: 1)], environment: [:]),
            directory: "/nonexistent")
        let login = try builder.prepare(
            file.requests[0], baseURL: nil, credentials: .basic(user: "x", password: "y"), environment: [:])
        XCTAssertEqual(login.bodyBytes, Array("user=ann&tag=a%20b".utf8))
        XCTAssertEqual(login.digestCredentials?.user, "ann")
        XCTAssertEqual(login.digestCredentials?.password, "pw")
        XCTAssertFalse(login.headers.contains { $0.name.lowercased() == "authorization" })
        let graphQL = try builder.prepare(file.requests[1], baseURL: nil, environment: [:])
        XCTAssertEqual(graphQL.bodyBytes, Array(#"{"query":"{ me }","variables":{}}"#.utf8))
        XCTAssertFalse(graphQL.headers.contains { $0.name.lowercased() == "x-request-type" })
        XCTAssertEqual(graphQL.headers.first { $0.name == "Content-Type" }?.value, "application/json")
        XCTAssertEqual(graphQL.headers.first { $0.name == "Authorization" }?.value, "Basic YW5uOnB3")
        // No body written, none sent: there is no query to wrap.
        XCTAssertNil(try builder.prepare(file.requests[2], baseURL: nil, environment: [:]).bodyBytes)
    }
}
