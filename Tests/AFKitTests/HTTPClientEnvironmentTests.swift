import XCTest

@testable import AFKit

/// `http-client.env.json` and `http-client.private.env.json`: one environment's variables.
final class HTTPClientEnvironmentTests: XCTestCase {
    private func files(_ public: String?, _ private: String?) -> HTTPClientEnvironment.Files {
        HTTPClientEnvironment.Files(
            publicBytes: `public`.map { Array($0.utf8) }, privateBytes: `private`.map { Array($0.utf8) })
    }

    func testThePrivateFileWinsOverThePublicOne() throws {
        let both = files(
            #"{"dev": {"host": "localhost", "token": "public", "port": 8080, "tls": false, "SSLConfiguration": {"a": 1}}, "prod": {"host": "example.com"}}"#,
            #"{"dev": {"token": "secret"}, "staging": {}}"#)
        XCTAssertEqual(
            try HTTPClientEnvironment.variables(named: "dev", in: both),
            ["host": "localhost", "token": "secret", "port": "8080", "tls": "false"])
        XCTAssertEqual(try HTTPClientEnvironment.variables(named: "prod", in: both), ["host": "example.com"])
        XCTAssertEqual(try HTTPClientEnvironment.variables(named: "staging", in: both), [:])
        XCTAssertEqual(
            try HTTPClientEnvironment.variables(named: "dev", in: files(nil, #"{"dev": {"a": "1"}}"#)), ["a": "1"])
    }

    func testAMissingEnvironmentListsTheKnownOnes() {
        XCTAssertThrowsError(
            try HTTPClientEnvironment.variables(
                named: "qa", in: files(#"{"dev": {}, "prod": {}}"#, #"{"dev": {}, "local": {}}"#))
        ) { error in
            XCTAssertEqual(
                "\(error)", "--env qa: no such environment in the environment files (known: dev, prod, local)")
        }
        XCTAssertThrowsError(try HTTPClientEnvironment.variables(named: "qa", in: files(nil, nil))) { error in
            XCTAssertEqual(
                "\(error)", "--env qa: there is no http-client.env.json or http-client.private.env.json beside the file"
            )
        }
    }

    func testMalformedFilesNameFileAndLine() {
        XCTAssertThrowsError(
            try HTTPClientEnvironment.variables(named: "dev", in: files("{\n\"dev\": {\n\"a\": }\n}", nil))
        ) { error in
            guard case .malformed(let file, let line, _)? = error as? HTTPClientEnvironmentError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(file, "http-client.env.json")
            XCTAssertEqual(line, 3)
        }
        XCTAssertThrowsError(try HTTPClientEnvironment.variables(named: "dev", in: files("{}", #"{"dev": 1}"#))) {
            error in
            XCTAssertEqual("\(error)", #"http-client.private.env.json:1: environment "dev" is not an object"#)
        }
    }

    func testSharedVariablesAreUnderEveryEnvironment() throws {
        let both = files(
            #"{"$shared": {"host": "shared", "a": "public-shared"}, "dev": {"host": "dev"}, "prod": {}}"#,
            #"{"$shared": {"a": "private-shared", "b": "x"}}"#)
        XCTAssertEqual(
            try HTTPClientEnvironment.variables(named: "dev", in: both),
            ["host": "dev", "a": "private-shared", "b": "x"])
        XCTAssertEqual(
            try HTTPClientEnvironment.variables(named: "prod", in: both),
            ["host": "shared", "a": "private-shared", "b": "x"])
        XCTAssertThrowsError(try HTTPClientEnvironment.variables(named: "$shared", in: both)) { error in
            XCTAssertEqual("\(error)", "--env $shared: no such environment in the environment files (known: dev, prod)")
        }
    }
}
