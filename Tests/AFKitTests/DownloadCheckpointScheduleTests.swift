import XCTest

@testable import AFKit

final class DownloadCheckpointScheduleTests: XCTestCase {
    func testGapsDoubleFromTheFirstUpToTheLongest() {
        var schedule = CheckpointSchedule(now: 100)
        XCTAssertEqual(schedule.due, 100.2, accuracy: 1e-9)
        var gaps: [Double] = []
        var now = schedule.due
        for _ in 0..<5 {
            schedule.checkpointed(started: now, finished: now)
            gaps.append(schedule.due - now)
            now = schedule.due
        }
        XCTAssertEqual(gaps.map { ($0 * 1000).rounded() }, [400, 800, 1000, 1000, 1000])
    }

    func testASlowCheckpointStretchesTheGapAfterIt() {
        var schedule = CheckpointSchedule(now: 0)
        // It took 0.1 s: the next comes 20 times that later, not 0.4 s.
        schedule.checkpointed(started: 0.2, finished: 0.3)
        XCTAssertEqual(schedule.due, 2.3, accuracy: 1e-9)
    }
}
