import XCTest

@testable import AFCLI
@testable import AFKit

/// The cache options and the environment's cache policy: which mode a request runs with.
final class CacheOptionTests: XCTestCase {
    private func options(_ arguments: [String]) throws -> Settings {
        try ArgumentParser.parse(["example.org"] + arguments).options
    }

    private func profile(policy: String?) -> EnvironmentProfile {
        var profile = EnvironmentProfile(name: "dev")
        profile.cachePolicy = policy
        return profile
    }

    /// The settings of `options` resolved in the config environment `profile`, as a command makes them.
    private func resolved(_ options: Settings, _ profile: EnvironmentProfile?) -> ResolvedSettings {
        ResolvedSettings(options, profile: profile)
    }

    func testCacheFlagAndInlineModes() throws {
        XCTAssertEqual(try options(["--cache"]).pipeline.cache.mode, .http)
        XCTAssertEqual(try options(["--cache=only"]).pipeline.cache.mode, .only)
        XCTAssertEqual(
            try options(["--cache=cj-then-network", "--cache-ttl", "1h"]).pipeline.cache.lifetime, .seconds(3600))
        XCTAssertEqual(try options(["--cache", "--no-cache"]).pipeline.cache.mode, .off)
        XCTAssertThrowsError(try options(["--cache=sometimes"])) { error in
            XCTAssertTrue("\(error)".contains("is not http, refresh, only, cj-first or cj-then-network"), "\(error)")
        }
        XCTAssertThrowsError(try options(["--cache-ttl", "soon"])) {
            XCTAssertEqual(ExitStatus(FailureClass.of(wrapped: $0)), .usage, "\($0)")
        }
        XCTAssertThrowsError(try options(["--follow=yes"])) {
            XCTAssertEqual(ExitStatus(FailureClass.of(wrapped: $0)), .usage, "\($0)")
        }
    }

    func testEnvironmentPolicyAppliesUnlessTheCommandLineSaysOtherwise() throws {
        XCTAssertEqual(try resolved(options([]), nil).cacheMode(), .off)
        XCTAssertEqual(try resolved(options([]), profile(policy: "cj-first")).cacheMode(), .cjFirst)
        XCTAssertEqual(try resolved(options(["--cache=refresh"]), profile(policy: "cj-first")).cacheMode(), .refresh)
        XCTAssertEqual(try resolved(options(["--no-cache"]), profile(policy: "http")).cacheMode(), .off)
        XCTAssertThrowsError(try resolved(options([]), profile(policy: "bogus")).cacheMode())
    }
}
