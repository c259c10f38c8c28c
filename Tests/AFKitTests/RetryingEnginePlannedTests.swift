import AFCurl
import XCTest

@testable import AFKit

/// The retry decorator driving an exchange whose tries are planned (a download's `TryPlanner`):
/// each try's request is the planner's (its range), the planner judges each end, a transient
/// failure waits the rules' doubling backoff or the server's wait, cut to the rules' longest, a
/// try again at once counts as no retry, and a planner may end the exchange without sending.
final class RetryingEnginePlannedTests: XCTestCase {
    private let url = "http://127.0.0.1:9/file"

    /// A planner that asks for a range from its try's number and ends each try as `ends` says.
    private final class Planner: TryPlanner {
        var ends: [TryEnd]
        var settled: Result<HTTPClientResult, any Error>?
        var planned = 0
        var retries: [String] = []

        init(ends: [TryEnd]) {
            self.ends = ends
        }

        func planTry(_ request: inout PreparedRequest) -> Result<HTTPClientResult, any Error>? {
            planned += 1
            if let settled { return settled }
            request.headers = [HTTPField(name: "Range", value: "bytes=\(planned * 10)-")]
            return nil
        }

        func tryEnded(_ result: Result<HTTPClientResult, any Error>) -> TryEnd {
            ends.isEmpty ? .over(result) : ends.removeFirst()
        }

        func willRetry(after error: any Error, wait: Double, retry: Int, of retries: Int) {
            self.retries.append("\(error) in \(wait) (\(retry) of \(retries))")
        }
    }

    private struct Dropped: Error, CustomStringConvertible {
        var description: String { "dropped" }
    }

    private func drive(_ engine: RetryingEngine, _ planner: Planner) throws -> ExchangeCompletion {
        var order = ExchangeOrder(
            PreparedRequest(method: "GET", url: url, headers: []), delegate: RecordingDelegate(),
            options: TransferSettings(), tag: 3)
        order.tries = planner
        if let done = try engine.start(order) { return done }
        for _ in 0..<200 {
            if let done = try engine.run().first { return done }
            try engine.poll(timeoutMilliseconds: 50)
        }
        throw FakeEngine.Failure.neverCompleted
    }

    func testEachTryIsPlannedAndATransientFailureIsRetriedWithTheDoublingBackoff() throws {
        let origin = FakeEngine(serial: true) { _ in .ok([:], body: "part") }
        let planner = Planner(ends: [
            .failed(Dropped(), transient: true, serverWait: nil), .again,
            .failed(Dropped(), transient: true, serverWait: nil),
        ])
        let rules = RetryRules(retries: 2, delay: 0.01, doublingUpTo: 60)
        let done = try drive(RetryingEngine(wrapping: origin, rules: rules), planner)
        XCTAssertEqual(try done.result.get().statusCode, 200)
        XCTAssertEqual(
            origin.orders.map { $0.request.headers.first?.value }, ["bytes=10-", "bytes=20-", "bytes=30-", "bytes=40-"])
        // The try again at once (a restart from zero) is no retry: two retries are left after it.
        XCTAssertEqual(planner.retries, ["dropped in 0.01 (1 of 2)", "dropped in 0.02 (2 of 2)"])
    }

    func testTriesUsedUpOrAFinalFailureEndTheExchangeWithTheFailure() throws {
        for transient in [true, false] {
            let origin = FakeEngine(serial: false) { _ in .ok([:], body: "part") }
            let failure = TryEnd.failed(Dropped(), transient: transient, serverWait: 0)
            let planner = Planner(ends: Array(repeating: failure, count: 5))
            let engine = RetryingEngine(wrapping: origin, rules: RetryRules(retries: 1, doublingUpTo: 60))
            let done = try drive(engine, planner)
            XCTAssertThrowsError(try done.result.get()) { XCTAssertTrue($0 is Dropped) }
            XCTAssertEqual(origin.orders.count, transient ? 2 : 1)
            XCTAssertEqual(planner.retries, transient ? ["dropped in 0.0 (1 of 1)"] : [])
            XCTAssertEqual(done.retry?.tries, transient ? 2 : 1)
        }
    }

    func testAServerWaitIsCutToTheLongestAndABackoffDoublesToIt() {
        let rules = RetryRules(retries: 10, delay: 0.5, doublingUpTo: 3)
        XCTAssertEqual((1...5).map { rules.backoff(beforeRetry: $0, random: 0.9) }, [0.5, 1, 2, 3, 3])
        XCTAssertEqual(RetryRules(retries: 3, doublingUpTo: 60).backoff(beforeRetry: 2, random: 0.9), 2)
        XCTAssertEqual(rules.longestWait(elapsed: 100), 3)
    }

    func testAPlannerMayEndTheExchangeWithoutSending() throws {
        let origin = FakeEngine(serial: true) { _ in .ok([:], body: "never") }
        let planner = Planner(ends: [])
        planner.settled = .failure(Dropped())
        let done = try drive(RetryingEngine(wrapping: origin, rules: RetryRules(retries: 3)), planner)
        XCTAssertThrowsError(try done.result.get())
        XCTAssertEqual(origin.orders.count, 0)
        XCTAssertEqual(planner.planned, 1)
    }
}
