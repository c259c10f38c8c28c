import AFCurl
import XCTest

@testable import AFKit

/// `--curl`: every transfer setting has a curl flag (or a stated reason for none), the body
/// choices, redaction and POSIX shell quoting.
final class CurlCommandTests: TemporaryDirectoryTestCase {
    private let get = PreparedRequest(method: "GET", url: "http://h.test/p?q=1", headers: [])

    /// The field names `Mirror` sees on `value`, prefixed with `prefix`.
    private func fields(of value: Any, _ prefix: String) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap { $0.label.map { "\(prefix).\($0)" } })
    }

    /// Setting each field to something other than its default, by the same names `Mirror` reports.
    private let transferMutators: [String: (inout TransferOptions) -> Void] = [
        "TransferOptions.connectTimeout": { $0.connectTimeout = 4 },
        "TransferOptions.totalTimeout": { $0.totalTimeout = 5 },
        "TransferOptions.idleTimeout": { $0.idleTimeout = 6 },
        "TransferOptions.limits": { $0.limits.maxBodyBytes = 7 },
        "TransferOptions.proxy": { $0.proxy = "http://p.test:1" },
        "TransferOptions.noProxy": { $0.noProxy = "n.test" },
        "TransferOptions.httpVersion": { $0.httpVersion = .http1_1 },
        "TransferOptions.acceptEncoding": { $0.acceptEncoding = "" },
        "TransferOptions.digestCredentials": { $0.digestCredentials = DigestCredentials(user: "u", password: "p") },
        "TransferOptions.tls": { $0.tls.verifyPeer = false },
        "TransferOptions.resolve": { $0.resolve = ["h.test:80:127.0.0.1"] },
        "TransferOptions.network": { $0.network.interface = "lo" },
        "TransferOptions.cookieEngine": { $0.cookieEngine = true },
        "TransferOptions.netrcFile": { $0.netrcFile = "/dev/null" },
        "NetworkOptions.connectTo": { $0.network.connectTo = ["a:1:b:2"] },
        "NetworkOptions.addressFamily": { $0.network.addressFamily = .ipv6 },
        "NetworkOptions.unixSocket": { $0.network.unixSocket = "/tmp/s" },
        "NetworkOptions.interface": { $0.network.interface = "eth9" },
        "NetworkOptions.maxReceiveRate": { $0.network.maxReceiveRate = 1000 },
        "NetworkOptions.chunked": { $0.network.chunked = true },
        "NetworkOptions.hstsFile": { $0.network.hstsFile = "/tmp/hsts.txt" },
        "TLSOptions.verifyPeer": { $0.tls.verifyPeer = false },
        "TLSOptions.verifyHost": { $0.tls.verifyHost = false },
        "TLSOptions.caFile": { $0.tls.caFile = "/tmp/ca.pem" },
        "TLSOptions.caPath": { $0.tls.caPath = "/tmp/ca" },
        "TLSOptions.pinnedPublicKey": { $0.tls.pinnedPublicKey = "sha256//AAAA" },
        "TLSOptions.clientCertificate": { $0.tls.clientCertificate = "/tmp/c.pem" },
        "TLSOptions.clientKey": { $0.tls.clientKey = "/tmp/k.pem" },
        "TLSOptions.minimumVersion": { $0.tls.minimumVersion = .tls13 },
        "TLSOptions.pinnedKeyDigests": {
            $0.tls.pinnedKeyDigests = [[1]]
            $0.tls.pinnedPublicKey = "sha256//AQ=="
        },
        "TLSOptions.pinnedCertificateDigests": { $0.tls.pinnedCertificateDigests = [[2]] },
        "TLSOptions.trustedCertificatesPEM": { $0.tls.trustedCertificatesPEM = "PEM" },
    ]

    /// Fields that change nothing on the wire.
    private let notOnTheWire: Set<String> = ["TransferOptions.reportsRequestHeads", "TransferSettings.verbose"]

    /// A POST with an empty body, so that body framing settings show too.
    private func line(_ options: TransferOptions) -> CurlCommandLine {
        CurlCommandLine(
            request: TransferRequest(method: "POST", url: "https://h.test/", options: options), body: .bytes([]),
            maxRedirects: nil)
    }

    func testEveryTransferFieldHasACurlMapping() {
        let all = fields(of: TransferOptions(), "TransferOptions").union(fields(of: NetworkOptions(), "NetworkOptions"))
            .union(fields(of: TLSOptions(), "TLSOptions"))
        XCTAssertEqual(Set(CurlCommandLine.coverage.keys), all, "a field without a decided curl flag, or a stale entry")
        XCTAssertEqual(Set(transferMutators.keys).union(notOnTheWire.filter { $0.hasPrefix("TransferOptions.") }), all)
        let plain = line(TransferOptions())
        for (name, mutate) in transferMutators {
            var options = TransferOptions()
            mutate(&options)
            XCTAssertNotEqual(line(options), plain, "\(name) does not change the curl command")
        }
    }

    func testEveryClientFieldHasACurlMapping() throws {
        XCTAssertEqual(
            Set(CurlCommand.clientCoverage.keys), Set(fields(of: TransferSettings(), "C").map { String($0.dropFirst(2)) }))
        let mutators: [String: (inout TransferSettings) -> Void] = [
            "follow": { $0.follow = true },
            "maxRedirects": {
                $0.follow = true
                $0.maxRedirects = 3
            },
            "connectTimeout": { $0.connectTimeout = 1 }, "totalTimeout": { $0.totalTimeout = 2 },
            "idleTimeout": { $0.idleTimeout = 3 },
            "limits": { $0.limits.maxBodyBytes = 4 }, "proxies": { $0.proxy = ProxySetting(url: "http://p:1") },
            "noProxy": { $0.noProxy = "*" }, "httpVersion": { $0.httpVersion = .http2 },
            "acceptEncoding": { $0.acceptEncoding = "gzip" }, "tls": { $0.tls.caFile = "/c" },
            "cookies": { $0.cookies = CookieSettings(file: "/tmp/jar.txt") },
            "netrcFile": { $0.netrcFile = "/dev/null" }, "locationTrusted": { $0.locationTrusted = true },
            "resolve": { $0.resolve = ["h.test:80:127.0.0.1"] }, "network": { $0.network.addressFamily = .ipv4 },
        ]
        XCTAssertEqual(Set(mutators.keys).union(["verbose"]), Set(CurlCommand.clientCoverage.keys))
        let plain = try CurlCommand(request: get, options: TransferSettings()).arguments
        for (name, mutate) in mutators {
            var options = TransferSettings()
            if name == "maxRedirects" || name == "locationTrusted" { options.follow = true }
            let before = try CurlCommand(request: get, options: options).arguments
            mutate(&options)
            XCTAssertNotEqual(
                try CurlCommand(request: get, options: options).arguments, name == "maxRedirects" ? before : plain, name
            )
        }
    }

    func testFlagsAndTheURLLast() throws {
        var options = TransferSettings(follow: true, maxRedirects: 5, httpVersion: .http2PriorKnowledge)
        options.idleTimeout = 2.5
        options.connectTimeout = 0.25
        options.network.addressFamily = .ipv6
        let command = try CurlCommand(request: get, options: options)
        XCTAssertEqual(
            command.arguments,
            [
                "--disable", "--proto", "=http,https", "--location", "--max-redirs", "5", "--proto-redir",
                "=http,https",
                "--header", "User-Agent:", "--header", "Accept:", "--http2-prior-knowledge",
                "--connect-timeout", "0.25", "--speed-limit", "1", "--speed-time", "3", "--ipv6", "http://h.test/p?q=1",
            ])
        XCTAssertTrue(command.notes.contains { $0.contains("--speed-time") })
    }

    func testBodiesAndMethods() throws {
        let json = Array("{\"a\":1}".utf8)
        let post = PreparedRequest(
            method: "POST", url: "http://h/", headers: [HTTPField(name: "Content-Type", value: "application/json")],
            body: BytesBodySource(json), bodyBytes: json)
        let args = try CurlCommand(request: post, options: TransferSettings()).arguments
        XCTAssertFalse(args.contains("--request"))
        XCTAssertEqual(Array(args.suffix(3)), ["--data-binary", "{\"a\":1}", "http://h/"])
        XCTAssertTrue(args.contains("Expect:"), "libcurl's header list for uploads carries Expect:")

        let at = Array("@etc/passwd".utf8)
        let put = PreparedRequest(
            method: "PUT", url: "http://h/", headers: [], body: BytesBodySource(at), bodyBytes: at)
        let putArgs = try CurlCommand(request: put, options: TransferSettings()).arguments
        XCTAssertEqual(Array(putArgs[1...2]), ["--request", "PUT"])
        XCTAssertTrue(putArgs.contains("--data-raw"), "a leading @ is not a file name")
        XCTAssertTrue(putArgs.contains("Content-Type:"), "curl's form type is suppressed")

        let binary: [UInt8] = [0x78, 0x9C, 0, 0xFF]
        let deflated = PreparedRequest(
            method: "POST", url: "http://h/", headers: [], body: BytesBodySource(binary), bodyBytes: binary)
        let command = try CurlCommand(request: deflated, options: TransferSettings())
        XCTAssertTrue(command.arguments.contains("@-"))
        XCTAssertTrue(command.notes.contains { $0.contains("4 bytes") })

        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024 + 1)
        let longPost = PreparedRequest(
            method: "POST", url: "http://h/", headers: [], body: BytesBodySource(long), bodyBytes: long)
        let longCommand = try CurlCommand(request: longPost, options: TransferSettings())
        XCTAssertTrue(longCommand.arguments.contains("@-"))
        XCTAssertTrue(longCommand.notes.contains { $0.contains("too long for a command line") })

        let head = PreparedRequest(method: "HEAD", url: "http://h/", headers: [])
        XCTAssertEqual(try CurlCommand(request: head, options: TransferSettings()).arguments[1], "--head")
    }

    func testFormPartsBecomeFormArgumentsOnlyWhenCurlWritesThemAlike() throws {
        let path = try makeFile("a.txt", Array("x".utf8))
        var form = try MultipartFormData(boundary: "b")
        try form.append(field: "f", value: "v;@x")
        try form.append(fileAt: path, name: "doc")
        XCTAssertEqual(
            CurlCommand.formArguments(form),
            ["--form-string", "f=v;@x", "--form", "doc=@\(path);filename=a.txt;type=text/plain"])
        var semicolon = try MultipartFormData(boundary: "b")
        try semicolon.append(fileAt: try makeFile("a;b.txt", [1]), name: "doc")
        XCTAssertNil(CurlCommand.formArguments(semicolon))
        var bytes = try MultipartFormData(boundary: "b")
        try bytes.append(data: [1], name: "x", filename: "x.bin", contentType: "application/octet-stream")
        XCTAssertNil(CurlCommand.formArguments(bytes))
        XCTAssertNil(CurlCommand.formArguments(try MultipartFormData(boundary: "b")))
    }

    func testSecretsAreRedactedAsWholeUnits() throws {
        var options = TransferSettings()
        options.resolve = ["h:1:127.0.0.1"]
        let request = PreparedRequest(
            method: "GET", url: "http://h:1/", headers: [HTTPField(name: "Authorization", value: "Basic c2VjcmV0")],
            digestCredentials: (user: "u", password: "1"))
        let secrets = CurlSecrets(headerLines: ["Authorization: Basic c2VjcmV0"], passwords: ["1"])
        let command = try CurlCommand(request: request, options: options, secrets: secrets)
        XCTAssertTrue(command.arguments.contains("Authorization: <redacted>"))
        XCTAssertTrue(command.arguments.contains("u:<redacted>"))
        XCTAssertFalse(command.shellLine.contains("c2VjcmV0"))
        XCTAssertTrue(command.arguments.contains("h:1:127.0.0.1"), "a short password hides nothing else")
        XCTAssertEqual(
            CurlSecrets(cookies: ["sid=abc"]).redacting(["--cookie", "a=1; sid=abc", "--header", "sid=abc"]),
            ["--cookie", "a=1; sid=<redacted>", "--header", "sid=abc"])
    }

    func testCookiesNetrcAndLocationTrusted() throws {
        var options = TransferSettings(follow: true)
        options.locationTrusted = true
        options.netrcFile = "/dev/null"
        let line = "h.test\tFALSE\t/\tFALSE\t0\tsid\tabc"
        options.cookies = CookieSettings(file: "jar.txt", lines: [line])
        let command = try CurlCommand(
            request: PreparedRequest(method: "GET", url: "http://h.test/x", headers: []), options: options,
            secrets: CurlSecrets(cookies: ["sid=abc"]))
        let text = command.arguments.joined(separator: " ")
        XCTAssertTrue(text.contains("--location --max-redirs 30 --proto-redir =http,https --location-trusted"))
        XCTAssertTrue(text.contains("--cookie jar.txt --cookie-jar jar.txt --cookie sid=<redacted>"))
        XCTAssertTrue(text.contains("--netrc-optional --netrc-file /dev/null"))
        XCTAssertTrue(command.notes.contains { $0.contains("every host a redirect leads to") })

        options.netrcFile = "/nonexistent/.netrc"
        options.cookies = CookieSettings()
        let engineOnly = try CurlCommand(
            request: PreparedRequest(method: "GET", url: "http://h.test/x", headers: []), options: options)
        XCTAssertFalse(engineOnly.arguments.contains("--netrc-file"), "a missing netrc changes nothing")
        XCTAssertTrue(engineOnly.arguments.joined(separator: " ").contains("--cookie  "), "the engine alone: ''")
    }

    func testSessionSecrets() {
        var file = SessionFile()
        file.headers = [HTTPField(name: "X-Key", value: "k")]
        file.cookies = [SessionCookie(name: "sid", value: "abc")]
        let secrets = CurlSecrets.session(file, usedCredentials: .basic(user: "u", password: "p"))
        XCTAssertEqual(
            secrets.headerLines,
            ["X-Key: k", "Authorization: " + DefaultHeaders.basicAuthorization(user: "u", password: "p")])
        XCTAssertEqual(secrets.cookies, ["sid=abc"])
        XCTAssertEqual(CurlSecrets.session(file, usedCredentials: nil).headerLines, ["X-Key: k"])
    }

    func testShellQuoting() {
        XCTAssertEqual(CurlCommandLine.shellQuoted("--max-time"), "--max-time")
        XCTAssertEqual(CurlCommandLine.shellQuoted("http://h:1/a?b=c"), "'http://h:1/a?b=c'")
        XCTAssertEqual(CurlCommandLine.shellQuoted(""), "''")
        XCTAssertEqual(CurlCommandLine.shellQuoted("it's"), "'it'\\''s'")
        XCTAssertEqual(CurlCommandLine.shellQuoted("a\nb"), "'a\nb'")
        XCTAssertEqual(CurlCommandLine.shellQuoted("é✓"), "'é✓'")
        XCTAssertEqual(CurlCommandLine.shellQuoted("$HOME `x` \\ \"q\""), "'$HOME `x` \\ \"q\"'")
        XCTAssertEqual(CurlCommandLine.seconds(2), "2")
        XCTAssertEqual(CurlCommandLine.seconds(1.25), "1.25")
        XCTAssertEqual(CurlCommandLine.seconds(0.0005), "0.001")
        XCTAssertEqual(CurlCommandLine.seconds(1e20), "2147483.647")
        XCTAssertEqual(CurlCommandLine.seconds(.infinity), "2147483.647")
    }
}
