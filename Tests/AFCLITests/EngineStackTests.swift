import AFKit
import XCTest

@testable import AFCLI

/// `EngineStack`, the one place a plan's engine is composed: a plain run sends on its multi
/// handle itself, `--retry`'s decorator is handed the runner's slots without a cast, and a single
/// request's transfer settings are the ones its transport was made with.
final class EngineStackTests: XCTestCase {
    /// A reporter that tells nothing.
    private func reporter() -> RunLineReporter {
        RunLineReporter(
            total: 1, directory: nil, output: OutputStream(descriptor: -1, target: "nowhere"), stderrIsTerminal: false)
    }

    func testARunWithoutRetriesCacheOrOAuth2SendsOnItsMultiHandleItself() throws {
        let client = try MultiClient(maxConnections: 4)
        let stack = try EngineStack.run(over: client, cache: nil, options: Settings(), environment: [:])
        XCTAssertTrue(stack.engine === client)
        XCTAssertTrue(stack.transferSettings is RunTransferSettings)
    }

    func testARunsRetryStageLendsTheSlotsOfTheRunnerItRunsUnder() throws {
        var options = Settings()
        options.retry.count = 2
        let stack = try EngineStack.run(
            over: try MultiClient(maxConnections: 4), cache: nil, options: options, environment: [:])
        let retrying = try XCTUnwrap(stack.engine as? RetryingEngine)
        XCTAssertNil(retrying.slots)

        let runner = stack.runner(RunPlan(entries: [], parallel: 4), reporter: reporter())

        XCTAssertTrue(retrying.slots === runner)
    }

    func testASingleRequestsRetriesKeepTheirSlotAndItsSettingsAreItsTransports() throws {
        var options = Settings()
        options.retry.count = 1
        var settings = TransferSettings()
        settings.totalTimeout = 7
        let stack = try EngineStack.request(
            settings: settings, apiPath: "", resolved: ResolvedSettings(options, profile: nil), environment: [:],
            terminal: Terminal(stdoutIsTerminal: false, stderrIsTerminal: false, colorsStdout: false), log: nil,
            oauth2Tokens: nil)
        let retrying = try XCTUnwrap(stack.engine as? RetryingEngine)

        _ = stack.runner(RunPlan(entries: []), reporter: reporter())

        XCTAssertNil(retrying.slots)
        let request = PlannedRequest(
            prepared: PreparedRequest(method: "GET", url: "http://127.0.0.1/", headers: []),
            settings: ResolvedSettings(options, profile: nil))
        XCTAssertEqual(try stack.transferSettings.settings(for: request).totalTimeout, 7)
    }
}
