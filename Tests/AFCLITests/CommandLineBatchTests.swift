import AFKit
import Glibc
import XCTest

@testable import AFCLI

/// `afcli run -`: afcli command lines on standard input become the run's entries.
final class CommandLineBatchTests: BatchTestCase {
    /// The entries read from `text` given as standard input, over `options`.
    private func load(_ text: String, options: Settings = Settings()) throws -> [PlanEntry] {
        let path = try write("stdin-\(UUID().uuidString)", text)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        return try BatchLoader.load(
            source: "-", settings: ResolvedSettings(options, profile: nil), environment: environment,
            standardInput: descriptor).entries
    }

    func testEachLineIsARequestInAfclisGrammar() throws {
        let entries = try load(
            """
            # users to fetch
            get :8080/users/1 X-A:b

            post 'http://127.0.0.1:9/users?x=1' name='Ann Lee' age:=31 "X-Note:a \\"quoted\\" word"
              delete http://[::1]:8080/users/2   # gone
            """)
        XCTAssertEqual(entries.map(\.name), ["line-2", "line-4", "line-5"])
        XCTAssertEqual(entries.map(\.origin), ["stdin:2", "stdin:4", "stdin:5"])
        XCTAssertEqual(entries.map(\.isKeeper), [false, false, false])

        let first = try entries[0].prepare().prepared
        XCTAssertEqual(first.method, "GET")
        XCTAssertEqual(first.url, "http://localhost:8080/users/1")
        XCTAssertEqual(headerLines(first), ["Accept: */*", "X-A: b"])
        XCTAssertNil(first.body)

        let second = try entries[1].prepare().prepared
        XCTAssertEqual(second.method, "POST")
        XCTAssertEqual(second.url, "http://127.0.0.1:9/users?x=1")
        XCTAssertEqual(
            headerLines(second),
            ["Accept: application/json, */*;q=0.5", "Content-Type: application/json", #"X-Note: a "quoted" word"#])
        XCTAssertEqual(try drain(second.body), #"{"name":"Ann Lee","age":31}"#)

        XCTAssertEqual(try entries[2].prepare().prepared.method, "DELETE")
        XCTAssertEqual(try entries[2].prepare().prepared.url, "http://[::1]:8080/users/2")
    }

    func testALinesOptionsOverrideTheRunsOptions() throws {
        var options = Settings()
        options.request.encoding = .form
        options.transfer.follow = true
        options.transfer.timeout = 5
        let entries = try load("post :8080/a x=1\npost :8080/b x=1 --json --timeout 9 --no-follow\n", options: options)
        let first = try entries[0].prepare()
        XCTAssertEqual(try drain(first.prepared.body), "x=1")
        XCTAssertEqual(first.options.transfer.follow, true)
        XCTAssertEqual(first.options.transfer.timeout, 5)
        let second = try entries[1].prepare()
        XCTAssertEqual(try drain(second.prepared.body), #"{"x":"1"}"#)
        XCTAssertEqual(second.options.transfer.follow, false)
        XCTAssertEqual(second.options.transfer.timeout, 9)
        // The run's options are untouched by a line.
        XCTAssertEqual(try entries[0].prepare().options.transfer.timeout, 5)
    }

    func testRequestsShareTheRunsOptionsAndLanguageUntilALineGivesItsOwnOptions() throws {
        let path = try write("stdin-shared", "get :8080/a\nget :8080/b\nget :8080/c --timeout 3\n")
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let entries = try BatchLoader.load(
            source: "-", settings: ResolvedSettings(Settings(), profile: nil),
            environment: ["LANGUAGE": "fr_FR:de", "HOME": "/nonexistent"],
            standardInput: descriptor).entries
        let requests = try entries.map { try $0.prepare() }
        for request in requests {
            XCTAssertEqual(
                request.prepared.headers.first { $0.name == "Accept-Language" }?.value,
                DefaultHeaders.acceptLanguage(languages: ["fr-FR", "de"]))
            // Standard input carries the requests: no request reads it for a body.
            XCTAssertTrue(request.options.request.ignoreStdin)
        }
        XCTAssertNotNil(requests[0].optionsIdentity)
        XCTAssertEqual(requests[0].optionsIdentity, requests[1].optionsIdentity)
        XCTAssertNotEqual(requests[0].optionsIdentity, requests[2].optionsIdentity)
        XCTAssertEqual(requests[0].options.transfer.timeout, nil)
        XCTAssertEqual(requests[2].options.transfer.timeout, 3)
    }

    func testNameAndFirstDirectivesApplyToTheNextRequest() throws {
        let entries = try load(
            """
            # @first
            # @name login
            post :8080/login user=ann
            get :8080/a
            #   @name   list all
            get :8080/b
            """)
        XCTAssertEqual(entries.map(\.name), ["login", "line-4", "list all"])
        XCTAssertEqual(entries.map(\.isKeeper), [true, false, false])
    }

    func testOptionsOfTheRunAreRefusedWithTheLine() {
        XCTAssertEqual(
            message { try self.load("get :8080/a\nget :8080/b --offline\n") },
            "stdin:2: --offline applies to the whole run: give it on the afcli run command line, not on a request's line"
        )
        XCTAssertEqual(
            message { try self.load("get :8080/a -o out.txt") },
            "stdin:1: --output applies to the whole run: give it on the afcli run command line, not on a request's line"
        )
        XCTAssertEqual(
            message { try self.load("get :8080/a -hv") }?.hasPrefix("stdin:1: --"), true)
        XCTAssertEqual(
            message { try self.load("get :8080/a --session=s") },
            "stdin:1: --session applies to the whole run: give it on the afcli run command line, not on a request's line"
        )
        XCTAssertEqual(
            message { try self.load("get :8080/a --no-session") },
            "stdin:1: --session applies to the whole run: give it on the afcli run command line, not on a request's line"
        )
        XCTAssertEqual(
            message { try self.load("get :8080/a --help") },
            "stdin:1: --help applies to the whole run: give it on the afcli run command line, not on a request's line")
    }

    func testBadLinesAreReportedWithTheirNumber() {
        XCTAssertEqual(
            message { try self.load("get :8080/a\n\nget :8080/b --folow\n") },
            "stdin:3: unknown option --folow (did you mean --follow?)")
        XCTAssertEqual(
            message { try self.load("post :8080 name='Ann") }, "stdin:1: the quote ' at column 17 is never closed")
        XCTAssertEqual(
            message { try self.load("download :8080/big.iso") },
            "stdin:1: download is not a request: a line is [METHOD] URL [ITEM…] [OPTION…]")
        XCTAssertEqual(
            message { try self.load("get :8080/a\n# @name last\n") }, "stdin:2: # @name is not followed by a request")
        XCTAssertEqual(message { try self.load("# @first\n\n") }, "stdin:1: # @first is not followed by a request")
        XCTAssertEqual(message { try self.load("# @name\nget :8080\n") }, "stdin:1: # @name needs a name")
        XCTAssertEqual(message { try self.load("--follow\n") }, "stdin:1: missing URL (see afcli --help)")
        XCTAssertEqual(
            ErrorReporter.classify(
                LocatedError(origin: "stdin:1", underlying: BatchError.runOption("--offline"))
            ).0, .usage)
    }

    func testAnOverlongLineIsRefused() {
        let long = "get :8080/" + String(repeating: "a", count: 70_000)
        XCTAssertEqual(
            message { try self.load("get :8080/\n" + long + "\n") },
            "stdin:2: the line is longer than 64 KiB, the most a line may be")
    }

    func testStandardInputCannotBeABody() throws {
        // Found as the lines are read, before anything is sent.
        XCTAssertEqual(
            message { try self.load("post :8080/a @-\n") },
            "stdin:1: standard input carries the requests, so it cannot also be a request body (@- or field@-)")
        XCTAssertEqual(
            message { try self.load("get :8080/a\npost :8080/b 'file@-;type=text/plain'\n") }?.hasPrefix(
                "stdin:2: standard input carries"), true)
    }

    func testFilesAreReadOnlyWhenTheRequestIsPrepared() throws {
        let bodyPath = directory + "/body.txt"
        let fieldPath = directory + "/field.txt"
        // Neither file exists when the lines are read.
        let entries = try load("post :8080/a @\(bodyPath)\npost :8080/b note=@\(fieldPath)\n")
        XCTAssertEqual(message { try entries[0].prepare() }?.hasPrefix("stdin:1: "), true)
        try write("body.txt", "streamed body")
        try write("field.txt", "from a file")
        let first = try entries[0].prepare().prepared
        XCTAssertNil(first.bodyBytes)
        XCTAssertEqual(try drain(first.body), "streamed body")
        XCTAssertEqual(try drain(try entries[1].prepare().prepared.body), #"{"note":"from a file"}"#)
    }

    func testTheNumberOfRequestsIsBounded() throws {
        let path = try write("many", "get :9/a\n# skipped\n\nget :9/b\nget :9/c\n")
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        XCTAssertEqual(
            message {
                try CommandLineBatch.load(
                    descriptor: descriptor, settings: ResolvedSettings(Settings(), profile: nil), environment: [:],
                    limit: 2)
            },
            "stdin:5: more than 2 requests in one run")
        XCTAssertEqual(CommandLineBatch.maximumRequests, 100_000)
    }

    func testAUserWithoutAPasswordIsAskedOnceForTheWholeRun() throws {
        var asked: [String] = []
        let ask: (String) throws -> String? = { user in
            asked.append(user)
            return "typed"
        }
        var options = Settings()
        options.request.auth = "ann"
        XCTAssertEqual(try BatchCredentials.resolvingPassword(options, ask: ask).request.auth, "ann:typed")
        XCTAssertEqual(asked, ["ann"])
        options.request.auth = "ann:given"
        XCTAssertEqual(try BatchCredentials.resolvingPassword(options, ask: ask).request.auth, "ann:given")
        options.request.auth = "token"
        options.request.authType = .bearer
        XCTAssertEqual(try BatchCredentials.resolvingPassword(options, ask: ask).request.auth, "token")
        XCTAssertEqual(asked, ["ann"])
        // No terminal to ask on: the password is empty, as for a single request.
        options.request.auth = "bob"
        options.request.authType = .basic
        XCTAssertEqual(try BatchCredentials.resolvingPassword(options, ask: { _ in nil }).request.auth, "bob:")
    }
}
