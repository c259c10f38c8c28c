import AFKit
import Glibc
import XCTest

@testable import AFCLI

/// The precedence of a setting that several places can give: an option typed on the command line,
/// then the config's `default_options`, then the config environment, then afcli's default; and
/// a run's entries reading the run's one resolved value, or one derived from it.
final class ResolvedSettingsTests: BatchTestCase {
    /// A config environment that sets every setting the resolver decides.
    private var profile: EnvironmentProfile {
        var profile = EnvironmentProfile(name: "dev")
        profile.cachePolicy = "refresh"
        profile.cacheLifetime = "1h"
        profile.cacheNamespace = "env-space"
        profile.encryptCommand = "env-encrypt"
        profile.decryptCommand = "env-decrypt"
        profile.simulateDomain = "http://env.test/"
        profile.baseURL = "http://base.test/api/"
        var envelope = EnvelopeSpec()
        envelope.success = ["env"]
        profile.envelope = envelope
        return profile
    }

    /// The settings for `typed` after the default options `defaults`, resolved in `profile` as
    /// afcli resolves a command line's.
    private func settings(
        defaults: [String] = [], typed: [String] = [], profile: EnvironmentProfile?
    ) throws -> ResolvedSettings {
        let (parsed, _) = try ArgumentParser.parse(defaults + ["example.org"] + typed, defaults: defaults.count)
        return ResolvedSettings(parsed.options, profile: profile)
    }

    /// One row per way a setting arrives: each source wins over every source below it.
    func testTypedBeatsDefaultOptionsBeatsTheEnvironmentBeatsTheDefault() throws {
        let rows:
            [(
                what: String, defaults: [String], typed: [String], profile: EnvironmentProfile?, namespace: String,
                encrypt: String?, mode: CacheMode
            )] = [
                (
                    "typed", ["--cache-namespace=d", "--encrypt-cmd=d", "--cache=only"],
                    ["--cache-namespace=t", "--encrypt-cmd=t", "--cache=http"], profile, "t", "t", .http
                ),
                (
                    "default_options", ["--cache-namespace=d", "--encrypt-cmd=d", "--cache=only"], [], profile, "d",
                    "d", .only
                ),
                ("environment", [], [], profile, "env-space", "env-encrypt", .refresh),
                ("built-in", [], [], nil, "", nil, .off),
            ]
        for row in rows {
            let resolved = try settings(defaults: row.defaults, typed: row.typed, profile: row.profile)
            XCTAssertEqual(resolved.cacheNamespace, row.namespace, row.what)
            XCTAssertEqual(resolved.encryptCommand, row.encrypt, row.what)
            XCTAssertEqual(try resolved.cacheMode(), row.mode, row.what)
        }
    }

    func testATypedNoOptionUndoesTheDefaultAndTheEnvironmentBoth() throws {
        let off = try settings(
            defaults: ["--cache=only", "--encrypt-cmd=d"], typed: ["--no-cache", "--no-encrypt"],
            profile: profile)
        XCTAssertEqual(try off.cacheMode(), .off)
        XCTAssertNil(off.encryptCommand)
        XCTAssertNil(off.decryptCommand)
    }

    func testTheCacheLifetimeAndItsBadEnvironmentValue() throws {
        XCTAssertEqual(try settings(typed: ["--cache-ttl=5"], profile: profile).cacheLifetime(), CacheLifetime("5"))
        XCTAssertEqual(try settings(profile: profile).cacheLifetime(), CacheLifetime("1h"))
        XCTAssertNil(try settings(profile: nil).cacheLifetime())
        var broken = profile
        broken.cacheLifetime = "soon"
        broken.cachePolicy = "sometimes"
        XCTAssertThrowsError(try settings(profile: broken).cacheLifetime())
        XCTAssertThrowsError(try settings(profile: broken).cacheMode())
        // An option given does not read the environment's value, good or bad.
        XCTAssertEqual(try settings(typed: ["--cache-ttl=5"], profile: broken).cacheLifetime(), CacheLifetime("5"))
        XCTAssertEqual(try settings(typed: ["--cache=http"], profile: broken).cacheMode(), .http)
    }

    func testEnvelopeListsAndTheSimulationOrigin() throws {
        XCTAssertNil(try settings(profile: profile).envelope)
        XCTAssertEqual(try settings(typed: ["--envelope"], profile: profile).envelope?.success, ["env"])
        XCTAssertEqual(
            try settings(defaults: ["--envelope-success=d"], typed: ["--envelope"], profile: profile).envelope?.success,
            ["d"])
        XCTAssertEqual(try settings(typed: ["--envelope"], profile: nil).envelope, EnvelopeSpec())
        XCTAssertEqual(try settings(typed: ["--simulate"], profile: profile).base, .simulation("http://env.test/"))
        XCTAssertEqual(
            try settings(typed: ["--simulate"], profile: nil).base, .simulation(EnvironmentTarget.defaultSimulateDomain)
        )
        XCTAssertEqual(
            try settings(typed: ["--simulate=http://typed.test/"], profile: profile).base,
            .simulation("http://typed.test/"))
    }

    /// The base URL, each way it arrives: typed, in default_options, from the environment, none;
    /// `--simulate` over all of them.
    func testTheBaseURLTypedOverDefaultOptionsOverTheEnvironment() throws {
        let typed = try settings(
            defaults: ["--base-url=http://default.test/"], typed: ["--base-url=http://typed.test/"], profile: profile)
        XCTAssertEqual(typed.base, .reference("http://typed.test/"))
        XCTAssertEqual(
            try settings(defaults: ["--base-url=http://default.test/"], profile: profile).base,
            .reference("http://default.test/"))
        XCTAssertEqual(try settings(profile: profile).base, .environment("http://base.test/api/"))
        XCTAssertEqual(try settings(profile: nil).base, .environment(nil))
        XCTAssertEqual(
            try settings(defaults: ["--base-url=http://default.test/"], typed: ["--simulate"], profile: profile).base,
            .simulation("http://env.test/"))
        // Each base keeps its own rules: RFC 3986 for --base-url, CJNetwork's join for the environment's.
        XCTAssertEqual(try EnvironmentTarget.resolve("/users", settings: typed).url, "http://typed.test/users")
        XCTAssertEqual(
            try EnvironmentTarget.resolve("/users", settings: settings(profile: profile)).url,
            "http://base.test/api/users")
    }

    /// A `run -` line's options are laid over the run's settings, its config environment
    /// included: a line that takes an option back gets the environment's value, as the command
    /// line would.
    func testARunLineWeighsItsOptionsAgainstTheRunsEnvironment() throws {
        let parsed = try ArgumentParser.parse(["run", "-", "--encrypt-cmd=run", "--cache-namespace=run"])
        let run = ResolvedSettings(parsed.options, profile: profile)
        XCTAssertEqual(run.encryptCommand, "run")
        let (_, line) = try CommandLineBatch.check(["get", "example.org", "--no-encrypt-cmd"], over: run)
        let resolved = try XCTUnwrap(line)
        XCTAssertEqual(resolved.encryptCommand, "env-encrypt")
        XCTAssertEqual(resolved.cacheNamespace, "run")
        XCTAssertEqual(try resolved.cacheMode(), .refresh)
    }

    /// A run resolves its settings once: every entry of `run -` without options of its own
    /// carries the run's very value (one object, not a copy made again), and a line's options
    /// and a `.http` request's directives derive theirs from it, keeping what they do not change.
    func testARunsEntriesReadTheRunsOneResolvedValue() throws {
        let parsed = try ArgumentParser.parse(["run", "-", "--decrypt-cmd=run-decrypt", "--envelope"])
        let run = ResolvedSettings(parsed.options, profile: profile)
        let path = try write(
            "stdin", "get users\nget users/2 X-A:b\nget users --base-url http://line.test/ --no-decrypt-cmd\n")
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let entries = try BatchLoader.load(
            source: "-", settings: run, environment: environment, standardInput: descriptor
        ).entries
        let requests = try entries.map { try $0.prepare() }
        XCTAssertTrue(requests[0].shared === requests[1].shared)
        XCTAssertFalse(requests[0].shared === requests[2].shared)
        // The environment's base for the lines without options, the line's own --base-url for the third.
        XCTAssertEqual(
            requests.map(\.prepared.url),
            ["http://base.test/api/users", "http://base.test/api/users/2", "http://line.test/users"])
        XCTAssertEqual(requests.map(\.decryptCommand), ["run-decrypt", "run-decrypt", "env-decrypt"])
        XCTAssertEqual(requests[2].envelope?.success, ["env"])
        XCTAssertEqual(requests[2].shared.settings.profile, profile)

        // A .http request's directive changes its transfer setting alone.
        let file = try write("api.http", "# @timeout 4\nGET http://127.0.0.1:9/a\n###\nGET http://127.0.0.1:9/b\n")
        let httpRun = ResolvedSettings(parsed.options, profile: nil)
        let fileEntries = try BatchLoader.load(source: file, settings: httpRun, environment: environment).entries
        let (timed, plain) = (try fileEntries[0].prepare(), try fileEntries[1].prepare())
        XCTAssertEqual(timed.options.transfer.timeout, 4)
        XCTAssertNil(plain.options.transfer.timeout)
        XCTAssertEqual([timed.decryptCommand, plain.decryptCommand], ["run-decrypt", "run-decrypt"])
        XCTAssertEqual(timed.envelope, EnvelopeSpec())
    }
}
