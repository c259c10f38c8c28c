import AFKit
import XCTest

@testable import AFCLI

/// The argument parser's accepted forms: value spellings, clusters, `--`, overriding, `--no-X`,
/// shared destinations and subcommands.
final class OptionParserTests: XCTestCase {
    private func parse(_ arguments: String...) throws -> ParsedCommandLine {
        try ArgumentParser.parse(arguments)
    }

    private func options(_ arguments: String...) throws -> Settings {
        try ArgumentParser.parse(["example.org"] + arguments).options
    }

    func testDefaults() throws {
        let parsed = try parse("example.org")
        XCTAssertEqual(parsed.command, .request)
        XCTAssertEqual(parsed.positionals, ["example.org"])
        XCTAssertEqual(parsed.options, Settings())
        XCTAssertEqual(parsed.options.transfer.maxRedirects, 30)
        XCTAssertTrue(parsed.options.pipeline.checkStatus)
        XCTAssertEqual(parsed.options.request.authType, .basic)
        XCTAssertNil(parsed.options.request.encoding)
    }

    func testEveryValueForm() throws {
        XCTAssertEqual(try options("--timeout", "2.5").transfer.timeout, 2.5)
        XCTAssertEqual(try options("--timeout=2.5").transfer.timeout, 2.5)
        XCTAssertEqual(try options("-o", "out.json").output.outputFile, "out.json")
        XCTAssertEqual(try options("-oout.json").output.outputFile, "out.json")
        XCTAssertEqual(try options("-o=out.json").output.outputFile, "out.json")
        XCTAssertEqual(try options("--raw=a=b").request.rawBody, "a=b")
        XCTAssertEqual(try options("--raw=").request.rawBody, "")
        XCTAssertEqual(try options("--raw", "-x").request.rawBody, "-x")
        XCTAssertEqual(try options("-a", "ann:pw").request.auth, "ann:pw")
    }

    func testShortFlagClusters() throws {
        let values = try options("-vFI")
        XCTAssertTrue(values.output.verbose)
        XCTAssertTrue(values.transfer.follow)
        XCTAssertTrue(values.request.ignoreStdin)
        let withValue = try options("-vFo", "out")
        XCTAssertTrue(withValue.transfer.follow)
        XCTAssertEqual(withValue.output.outputFile, "out")
        let attached = try options("-jAbearer")
        XCTAssertEqual(attached.request.encoding, .json)
        XCTAssertEqual(attached.request.authType, .bearer)
    }

    func testOptionsAnywhereAndPositionalsInOrder() throws {
        let parsed = try parse("-F", "post", "--form", ":8080/post", "a=1", "-v", "b:=2", "-")
        XCTAssertEqual(parsed.positionals, ["post", ":8080/post", "a=1", "b:=2", "-"])
        XCTAssertTrue(parsed.options.transfer.follow)
        XCTAssertTrue(parsed.options.output.verbose)
        XCTAssertEqual(parsed.options.request.encoding, .form)
    }

    func testDoubleDashEndsOptions() throws {
        let parsed = try parse("get", "--", "example.org", "--follow", "-v", "--")
        XCTAssertEqual(parsed.positionals, ["get", "example.org", "--follow", "-v", "--"])
        XCTAssertFalse(parsed.options.transfer.follow)
        XCTAssertFalse(parsed.options.output.verbose)
    }

    func testRepeatedOptionOverridesEarlier() throws {
        XCTAssertEqual(try options("--timeout", "1", "--timeout=2").transfer.timeout, 2)
        XCTAssertEqual(try options("-X", "PURGE", "--method", "LINK").request.method, "LINK")
        XCTAssertEqual(try options("-p", "Hh", "-p", "b").output.printParts, [.responseBody])
        XCTAssertEqual(try options("-A", "digest", "-A", "bearer").request.authType, .bearer)
    }

    func testEveryNoFormResetsItsOption() throws {
        let argumentsFor: (OptionSpec) -> [String] = { spec in
            switch spec.long {
            case "method": return ["--method", "PURGE"]
            case "auth-type": return ["--auth-type", "digest"]
            case "print": return ["--print", "Hb"]
            case "max-redirects": return ["--max-redirects", "5"]
            case "max-depth": return ["--max-depth", "700"]
            case "timeout", "connect-timeout", "max-time": return ["--" + spec.long, "3"]
            case "max-filesize": return ["--max-filesize", "2m"]
            case "max-expansion": return ["--max-expansion", "50"]
            case "proxy": return ["--proxy", "http://proxy:3128"]
            case "throttle": return ["--throttle", "3g"]
            case "progress": return ["--progress", "percent"]
            case "verify": return ["--verify", "no"]
            case "pin-key": return ["--pin-key", "sha256//" + String(repeating: "A", count: 43) + "="]
            case "tls-min": return ["--tls-min", "1.3"]
            case "resolve": return ["--resolve", "example.org:443:127.0.0.1"]
            case "pretty": return ["--pretty", "format"]
            case "style": return ["--style", "mono"]
            case "indent": return ["--indent", "2"]
            case "plist-as": return ["--plist-as", "json"]
            case "events": return ["--events", "json"]
            case "accept-status": return ["--accept-status", "200-299,304"]
            case "accept-type": return ["--accept-type", "json"]
            case "log": return ["--log", "cj"]
            case "jsonpath": return ["--jsonpath", "$.a"]
            case "sha256": return ["--sha256", String(repeating: "ab", count: 32)]
            case "retry": return ["--retry", "3"]
            case "session-store-auth": return ["--session-store-auth", "no"]
            case "retry-delay": return ["--retry-delay", "0.5"]
            case "retry-max-time": return ["--retry-max-time", "30"]
            case "variable": return ["--variable", "id=7"]
            case "connect-to": return ["--connect-to", "a:1:b:2"]
            case "limit-rate": return ["--limit-rate", "1k"]
            case "meta": return ["--meta", "json"]
            case "cache-ttl": return ["--cache-ttl", "10m"]
            case "cache-max-size": return ["--cache-max-size", "1k"]
            case "parallel": return ["--parallel", "8"]
            case "report": return ["--report", "junit=r.xml"]
            case "retry-interval": return ["--retry-interval", "500ms"]
            default: return spec.takesValue ? ["--" + spec.long, "value"] : ["--" + spec.long]
            }
        }
        // --http3 is refused where libcurl lacks HTTP/3 (NetworkOptionTests checks the message).
        for spec in OptionTable.all where spec.long != "http3" || HTTPClient.supportsHTTP3 {
            let given = try ArgumentParser.parse(["example.org"] + argumentsFor(spec)).options
            if spec.long != "check-status", spec.long != "hsts", spec.long != "config", spec.long != "encrypt" {
                XCTAssertNotEqual(given, Settings(), "--\(spec.long) changed nothing")
            }
            let reset = try ArgumentParser.parse(["example.org"] + argumentsFor(spec) + [spec.negatedFlag]).options
            var expected = Settings()
            if spec.long == "check-status" { expected.pipeline.checkStatus = false }
            // HSTS is on by default too; --no-hsts turns it off.
            if spec.long == "hsts" { expected.transfer.hsts = false }
            // The config file is read by default too; --no-config skips it.
            if spec.long == "config" { expected.environment.readsConfig = false }
            // Encryption commands run when given; --no-encrypt turns them off for one request.
            if spec.long == "encrypt" { expected.pipeline.crypto.disabled = true }
            // Like --no-check-status, --no-verify-host is the only way to turn its check off.
            if spec.long == "verify-host" { expected.tls.verifyHost = false }
            // --no-cache turns the cache off, also against an environment's policy.
            if spec.long == "cache" { expected.pipeline.cache.mode = .off }
            XCTAssertEqual(reset, expected, spec.negatedFlag)
        }
    }

    func testNoCheckStatusTurnsTheCheckOff() throws {
        XCTAssertFalse(try options("--no-check-status").pipeline.checkStatus)
        XCTAssertTrue(try options("--no-check-status", "--check-status").pipeline.checkStatus)
    }

    func testEncodingSwitchesShareOneDestination() throws {
        XCTAssertEqual(try options("--form").request.encoding, .form)
        XCTAssertEqual(try options("--form", "--json").request.encoding, .json)
        XCTAssertEqual(try options("-j", "--multipart", "--plist").request.encoding, .plist)
        XCTAssertEqual(try options("--plist", "--no-form").request.encoding, .plist)
        XCTAssertNil(try options("--form", "--no-form").request.encoding)
        XCTAssertEqual(try options("--form", "--plist", "--no-form").request.encoding, .plist)
    }

    func testHTTPVersionSwitchesShareOneDestination() throws {
        XCTAssertEqual(try options("--http1.1").transfer.httpVersion, .http1_1)
        XCTAssertEqual(try options("--http1.1", "--http2").transfer.httpVersion, .http2)
        XCTAssertEqual(try options("--http2", "--no-http1.1").transfer.httpVersion, .http2)
        XCTAssertNil(try options("--http2", "--no-http2").transfer.httpVersion)
    }

    func testPrintShortcutsShareOneDestination() throws {
        XCTAssertEqual(try options("-h").output.printParts, [.responseHeaders])
        XCTAssertEqual(try options("-h", "-b").output.printParts, [.responseBody])
        XCTAssertEqual(
            try options("-p", "HBhbm").output.printParts,
            [.requestHeaders, .requestBody, .responseHeaders, .responseBody, .metadata])
        XCTAssertEqual(try options("-p", "Hh", "--no-headers").output.printParts, [.requestHeaders, .responseHeaders])
        XCTAssertNil(try options("-b", "--no-body").output.printParts)
        XCTAssertEqual(try options("-p", "mbH").output.printParts?.letterString, "Hbm")
    }

    func testResolvedPrintParts() throws {
        XCTAssertEqual(Settings().resolvedPrintParts(stdoutIsTerminal: true), [.responseHeaders, .responseBody])
        XCTAssertEqual(Settings().resolvedPrintParts(stdoutIsTerminal: false), [.responseBody])
        XCTAssertEqual(try options("-v").resolvedPrintParts(stdoutIsTerminal: false).letterString, "HBhbm")
        XCTAssertEqual(try options("--offline").resolvedPrintParts(stdoutIsTerminal: true).letterString, "HB")
        XCTAssertEqual(try options("-v", "-h").resolvedPrintParts(stdoutIsTerminal: true), [.responseHeaders])
    }

    func testTypedValues() throws {
        XCTAssertEqual(try options("--max-redirects", "5").transfer.maxRedirects, 5)
        XCTAssertEqual(try options("--connect-timeout", "0.25").transfer.connectTimeout, 0.25)
        XCTAssertEqual(try options("--timeout", "3.").transfer.timeout, 3)
        XCTAssertEqual(try options("-X", "m-search").request.method, "m-search")
        XCTAssertEqual(try options("--base-url", "http://api/v1/").request.baseURL, "http://api/v1/")
    }

    func testProxyForms() throws {
        typealias Proxy = Settings.Proxy
        XCTAssertEqual(try options("--proxy", "http://p:3128").transfer.proxy, Proxy(scope: .all, url: "http://p:3128"))
        XCTAssertEqual(
            try options("--proxy", "https:http://p:3128").transfer.proxy, Proxy(scope: .https, url: "http://p:3128"))
        XCTAssertEqual(try options("--proxy=http:p:3128").transfer.proxy, Proxy(scope: .http, url: "p:3128"))
        XCTAssertEqual(
            try options("--proxy", "all:socks5://p:1080").transfer.proxy, Proxy(scope: .all, url: "socks5://p:1080"))
        XCTAssertEqual(try options("--proxy", "p:3128").transfer.proxy, Proxy(scope: .all, url: "p:3128"))
    }

    func testSubcommands() throws {
        XCTAssertEqual(try parse("help").command, .help(.long))
        XCTAssertEqual(try parse("man").command, .manPage(.roff))
        XCTAssertEqual(try parse("completions", "bash").command, .completions(.bash))
        XCTAssertEqual(try parse("-v", "completions", "zsh").command, .completions(.zsh))
        XCTAssertEqual(try parse("completions", "fish").positionals, ["completions", "fish"])
        XCTAssertEqual(try parse("get", "help").command, .request)
        XCTAssertEqual(try parse("--", "help").command, .request)
        XCTAssertEqual(try parse("--", "help").positionals, ["help"])
    }

    func testHelpAndVersion() throws {
        XCTAssertEqual(try parse("--help").command, .help(.short))
        XCTAssertEqual(try parse("get", "example.org", "--help").command, .help(.short))
        XCTAssertEqual(try parse("help", "--help").command, .help(.short))
        XCTAssertEqual(try parse("--version").command, .version)
        XCTAssertEqual(try parse("--version", "--help").command, .help(.short))
        XCTAssertEqual(try parse("--help", "--no-help", "example.org").command, .request)
        // --help rescues a line with a mistake elsewhere, but not one after `--`.
        XCTAssertEqual(try parse("--folow", "--help").command, .help(.short))
        XCTAssertThrowsError(try parse("--folow", "--", "--help"))
    }

    func testEveryOptionIsReachableByEverySpelling() throws {
        for spec in OptionTable.all where !spec.takesValue && (spec.long != "http3" || HTTPClient.supportsHTTP3) {
            let spellings = [spec.longFlag] + [spec.shortFlag].compactMap { $0 }
            for spelling in spellings {
                XCTAssertNoThrow(try ArgumentParser.parse(["example.org", spelling]), spelling)
            }
        }
        XCTAssertEqual(Set(OptionTable.all.map(\.long)).count, OptionTable.all.count)
        XCTAssertEqual(Set(OptionTable.all.compactMap(\.short)).count, OptionTable.all.compactMap(\.short).count)
        for spec in OptionTable.all {
            XCTAssertLessThanOrEqual(spec.help.count, 46, spec.long)
        }
    }
}
