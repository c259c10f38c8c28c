import AFKit
import XCTest

@testable import AFCLI

/// `afcli run FILE.http`: the requests a `.http` file produces, built offline and compared.
final class HTTPFileBatchTests: BatchTestCase {
    /// The entries of `text` written as `api.http` in the test directory.
    private func load(_ text: String, options: Settings = Settings()) throws -> [PlanEntry] {
        let path = try write("api.http", text)
        return try BatchLoader.load(
            source: path, settings: ResolvedSettings(options, profile: nil), environment: environment
        ).entries
    }

    /// Method, URL, headers (without the defaults) and body of the entry's request.
    private func summary(_ entry: PlanEntry) throws -> String {
        let prepared = try entry.prepare().prepared
        var lines = ["\(prepared.method) \(prepared.url)"] + headerLines(prepared)
        if let body = try drain(prepared.body) {
            lines.append("")
            lines.append(body)
        }
        return lines.joined(separator: "\n")
    }

    func testATableOfFilesAndTheRequestsTheyProduce() throws {
        let table: [(file: String, requests: [String])] = [
            ("GET http://127.0.0.1:9/a", ["GET http://127.0.0.1:9/a\nAccept: */*"]),
            (":9/a?x=1 HTTP/1.1", ["GET http://localhost:9/a?x=1\nAccept: */*"]),
            (
                "POST http://127.0.0.1:9/users\nContent-Type: application/json\nAccept: application/json\n\n{\"name\": \"Ann\",\n \"age\": 31}\n",
                [
                    "POST http://127.0.0.1:9/users\nAccept: application/json\nContent-Type: application/json\n\n{\"name\": \"Ann\",\n \"age\": 31}"
                ]
            ),
            // No Content-Type is added: the body goes as written, typed only by the file.
            ("PUT http://127.0.0.1:9/t\n\nplain text", ["PUT http://127.0.0.1:9/t\nAccept: */*\n\nplain text"]),
            // POST without a body sends an empty one (Content-Length: 0, written by libcurl).
            ("POST http://127.0.0.1:9/e\n", ["POST http://127.0.0.1:9/e\nAccept: */*\n\n"]),
            (
                "GET /api/users\nHost: 127.0.0.1:9\n\n###\nGET http://127.0.0.1:9/x\n    ?a=1\n    &b=two%20words\n",
                [
                    "GET http://127.0.0.1:9/api/users\nAccept: */*\nHost: 127.0.0.1:9",
                    "GET http://127.0.0.1:9/x?a=1&b=two%20words\nAccept: */*",
                ]
            ),
            (
                "POST http://127.0.0.1:9/form\nContent-Type: application/x-www-form-urlencoded\nX-Twice: 1\nX-Twice: 2\n\na=1&b=2\n\n\n",
                [
                    "POST http://127.0.0.1:9/form\nAccept: */*\nContent-Type: application/x-www-form-urlencoded\nX-Twice: 1\nX-Twice: 2\n\na=1&b=2"
                ]
            ),
        ]
        for (file, expected) in table {
            let entries = try load(file)
            XCTAssertEqual(try entries.map(summary), expected, "for \(file.debugDescription)")
        }
    }

    func testNamesOriginsAndKeepers() throws {
        let entries = try load(
            "GET :9/a\n\n### List users\nGET :9/users\n\n###\n# @first\n# @name login\nPOST :9/login\n\n###\nGET :9/d\n"
        )
        XCTAssertEqual(entries.map(\.name), ["request-1", "List users", "login", "request-4"])
        let path = directory + "/api.http"
        XCTAssertEqual(entries.map(\.origin), ["\(path):1", "\(path):4", "\(path):9", "\(path):12"])
        XCTAssertEqual(entries.map(\.isKeeper), [false, false, true, false])
    }

    func testDirectivesOverrideTheRunsOptions() throws {
        var options = Settings()
        options.transfer.follow = true
        options.transfer.timeout = 30
        options.transfer.connectTimeout = 3
        let entries = try load(
            "# @no-redirect\n# @timeout 5\n# @connection-timeout 500 ms\nGET :9/a\n###\nGET :9/b\n", options: options)
        let first = try entries[0].prepare().options
        XCTAssertEqual(first.transfer.follow, false)
        XCTAssertEqual(first.transfer.timeout, 5)
        XCTAssertEqual(first.transfer.connectTimeout, 0.5)
        let second = try entries[1].prepare().options
        XCTAssertEqual(second.transfer.follow, true)
        XCTAssertEqual(second.transfer.timeout, 30)
        XCTAssertEqual(second.transfer.connectTimeout, 3)
    }

    func testTheRunsBaseURLAndCredentialsApply() throws {
        var options = Settings()
        options.request.baseURL = "http://127.0.0.1:9/api/"
        options.request.auth = "ann:secret"
        let entries = try load("GET users/1\n###\nGET users/2\nAuthorization: Bearer t\n", options: options)
        XCTAssertEqual(
            try summary(entries[0]),
            "GET http://127.0.0.1:9/api/users/1\nAccept: */*\nAuthorization: Basic YW5uOnNlY3JldA==")
        XCTAssertEqual(
            try summary(entries[1]), "GET http://127.0.0.1:9/api/users/2\nAccept: */*\nAuthorization: Bearer t")
    }

    func testVariablesFromTheFileAndTheEnvironmentFiles() throws {
        try write(
            "http-client.env.json",
            #"{"dev": {"host": "127.0.0.1:9", "token": "public"}, "prod": {"host": "example.com"}}"#)
        try write("http-client.private.env.json", #"{"dev": {"token": "private"}}"#)
        let text =
            "@path = /v1/{{resource}}\n@resource = users\n\nPOST http://{{host}}{{path}}\nAuthorization: Bearer {{token}}\n\n{\"id\": \"{{ resource }}\"}\n"
        var options = Settings()
        options.environment.name = "dev"
        let entries = try load(text, options: options)
        XCTAssertEqual(
            try summary(entries[0]),
            "POST http://127.0.0.1:9/v1/users\nAccept: */*\nAuthorization: Bearer private\n\n{\"id\": \"users\"}")

        options.environment.name = "qa"
        XCTAssertEqual(
            message { try self.load(text, options: options) },
            "--env qa: no such environment in the environment files (known: dev, prod)")
        options.environment.name = "prod"
        let path = directory + "/api.http"
        XCTAssertEqual(
            message { try self.load(text, options: options)[0].prepare() },
            "\(path):5: variable {{token}} is not defined (nor in environment prod)")
        XCTAssertEqual(
            message { try self.load(text)[0].prepare() },
            "\(path):4: variable {{host}} is not defined (no --env NAME was given to pick an environment of the environment files)"
        )
    }

    func testAnEnvironmentNeedsTheEnvironmentFiles() throws {
        var options = Settings()
        options.environment.name = "dev"
        XCTAssertEqual(
            message { try self.load("GET :9/a", options: options) },
            "--env dev: there is no http-client.env.json or http-client.private.env.json beside the file")
        try write("http-client.env.json", "{\"dev\": {\n  \"a\": 1,\n}}")
        XCTAssertEqual(
            message { try self.load("GET :9/a", options: options) }?.hasPrefix("http-client.env.json:3: "), true)
    }

    func testErrorsNameFileAndLine() throws {
        let path = directory + "/api.http"
        XCTAssertEqual(
            message { try self.load("GET :9/a\n###\nGET :9/b\nBad header\n") },
            "\(path):4: expected a header (Name: value) or a blank line before the body")
        XCTAssertEqual(
            message { try self.load("GET :9/a\nBad Name: 1\n")[0].prepare() },
            "\(path):2: invalid header \"Bad Name\": a name is letters, digits and !#$%&'*+-.^_`|~")
        XCTAssertEqual(
            message {
                try BatchLoader.load(
                    source: self.directory + "/missing.http", settings: ResolvedSettings(Settings(), profile: nil),
                    environment: [:])
            },
            "cannot read \(self.directory!)/missing.http: no such file or directory")
        XCTAssertEqual(
            ErrorReporter.classify(LocatedError(origin: "a:1", underlying: HTTPFileError(line: 1, reason: "x"))).0,
            .usage)
    }

    func testBodyFilesAreCheckedBeforeAnythingIsSentAndStreamedWhenSent() throws {
        let text =
            "GET http://127.0.0.1:9/first\n\n###\n"
            + "POST http://127.0.0.1:9/up\nContent-Type: application/octet-stream\n\n< ./data/payload.bin\n"
        let path = directory + "/api.http"
        // The whole file is checked when it is loaded: the second request's file is missing.
        XCTAssertEqual(
            message { try load(text) },
            "\(path):7: cannot read \"\(directory!)/data/payload.bin\": no such file or directory")
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        try write("data/payload.bin", "file bytes")
        let entries = try load(text)
        // Opened again when the request is about to be sent, and streamed.
        try write("data/payload.bin", "new bytes!")
        let prepared = try entries[1].prepare().prepared
        XCTAssertNil(prepared.bodyBytes)
        XCTAssertTrue(prepared.body is FileBodySource)
        XCTAssertEqual(prepared.body?.length, 10)
        XCTAssertEqual(try drain(prepared.body), "new bytes!")
    }

    func testMultipartBodiesUseCRLFAndStreamTheirFiles() throws {
        try write("a.json", #"{"a":1}"#)
        let entries = try load(
            """
            POST http://127.0.0.1:9/upload
            Content-Type: multipart/form-data; boundary=B

            --B
            Content-Disposition: form-data; name="meta"

            {{$timestamp}}
            --B
            Content-Disposition: form-data; name="file"; filename="a.json"

            < ./a.json
            --B--
            """)
        let prepared = try entries[0].prepare().prepared
        XCTAssertNil(prepared.bodyBytes)
        let body = try XCTUnwrap(drain(prepared.body))
        let stamp = body.split(separator: "\r\n", omittingEmptySubsequences: false)[3]
        XCTAssertNotNil(Int(stamp))
        XCTAssertEqual(
            body,
            "--B\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n\(stamp)\r\n--B\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"a.json\"\r\n\r\n{\"a\":1}\r\n--B--")
        XCTAssertEqual(prepared.body?.length, UInt64(body.utf8.count))
    }

    func testCompressionFromTheRunsOptions() throws {
        var options = Settings()
        options.request.compress = true
        let entries = try load(
            "POST http://127.0.0.1:9/z\n\n" + String(repeating: "compressible ", count: 100), options: options)
        let prepared = try entries[0].prepare().prepared
        XCTAssertTrue(prepared.headers.contains(HTTPField(name: "Content-Encoding", value: "deflate")))
    }

    func testPromptsAreAskedOnceByNameWithEchoOffForSecretNamesAndHoldForTheirRequestsAlone() throws {
        let path = try write("api.http", "# @prompt user\n# @prompt apiKey The key\nGET :9/{{user}}\n\n###\n# @prompt user\nGET :9/{{user}}\n")
        var file = try HTTPFileParser.parse(Array(try String(contentsOfFile: path, encoding: .utf8).utf8))
        var asked: [(String, Bool)] = []
        try HTTPFilePrompts.answer(&file.requests, given: ["other": "x"], path: path) { prompt, secret in
            asked.append((prompt, secret))
            return secret ? "k" : "ann"
        }
        XCTAssertEqual(asked.map(\.0), ["afcli: user: ", "afcli: apiKey (The key): "])
        XCTAssertEqual(asked.map(\.1), [false, true])
        XCTAssertEqual(file.requests.map(\.promptValues), [["user": "ann", "apiKey": "k"], ["user": "ann"]])
        XCTAssertTrue(["password", "Passwd", "GITHUB_TOKEN", "clientSecret", "otp"].allSatisfy(HTTPFilePrompts.isSecret))
        XCTAssertFalse(["username", "refCode", "host"].contains(where: HTTPFilePrompts.isSecret))
        XCTAssertThrowsError(try HTTPFilePrompts.answer(&file.requests, given: ["user": "x"], path: path) { _, _ in nil }) {
            XCTAssertEqual("\($0)", "\(path):2: # @prompt apiKey: no terminal to ask on; give it with --variable NAME=VALUE")
        }
    }
}
