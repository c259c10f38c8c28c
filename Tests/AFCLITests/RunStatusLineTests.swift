import XCTest

@testable import AFCLI

/// The summary a run writes on standard error when it ends on a terminal or is interrupted.
final class RunStatusLineTests: XCTestCase {
    func testTheSummaryCountsRequestsInTheSingularAndThePlural() {
        let one = RunStatusLine(total: 1, isLive: false, startedAt: 0) { nil }
        XCTAssertTrue(one.summary(notStarted: 0, now: 1, interrupted: false).hasPrefix("run: 1 request, 0 succeeded"))
        let two = RunStatusLine(total: 2, isLive: false, startedAt: 0) { nil }
        XCTAssertTrue(two.summary(notStarted: 2, now: 1, interrupted: true).hasPrefix("run: 2 requests, 0 succeeded"))
    }
}
