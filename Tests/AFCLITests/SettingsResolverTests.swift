import AFKit
import XCTest

@testable import AFCLI

/// The precedence of a setting that several places can give: an option typed on the command line,
/// then the config's `default_options`, then the config environment, then afcli's default.
final class SettingsResolverTests: XCTestCase {
    /// A config environment that sets every setting the resolver decides.
    private var profile: EnvironmentProfile {
        var profile = EnvironmentProfile(name: "dev")
        profile.cachePolicy = "refresh"
        profile.cacheLifetime = "1h"
        profile.cacheNamespace = "env-space"
        profile.encryptCommand = "env-encrypt"
        profile.decryptCommand = "env-decrypt"
        profile.simulateDomain = "http://env.test/"
        var envelope = EnvelopeSpec()
        envelope.success = ["env"]
        profile.envelope = envelope
        return profile
    }

    /// The resolver for `typed` after the default options `defaults`, as afcli parses a command line.
    private func settings(
        defaults: [String] = [], typed: [String] = [], profile: EnvironmentProfile?
    ) throws -> SettingsResolver {
        var (parsed, _) = try ArgumentParser.parse(defaults + ["example.org"] + typed, defaults: defaults.count)
        parsed.options.environment.profile = profile
        return parsed.options.resolved
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
        XCTAssertEqual(try settings(profile: profile).simulateOrigin, "http://env.test/")
        XCTAssertEqual(try settings(profile: nil).simulateOrigin, EnvironmentTarget.defaultSimulateDomain)
    }

    /// A `run -` line's options are laid over the run's settings, its config environment
    /// included: a line that takes an option back gets the environment's value, as the command
    /// line would.
    func testARunLineWeighsItsOptionsAgainstTheRunsEnvironment() throws {
        var parsed = try ArgumentParser.parse(["run", "-", "--encrypt-cmd=run", "--cache-namespace=run"])
        parsed.options.environment.profile = profile
        XCTAssertEqual(parsed.options.resolved.encryptCommand, "run")
        let (_, line) = try CommandLineBatch.check(["get", "example.org", "--no-encrypt-cmd"], over: parsed.options)
        let resolved = try XCTUnwrap(line).resolved
        XCTAssertEqual(resolved.encryptCommand, "env-encrypt")
        XCTAssertEqual(resolved.cacheNamespace, "run")
        XCTAssertEqual(try resolved.cacheMode(), .refresh)
    }
}
