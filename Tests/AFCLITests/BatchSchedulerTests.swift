import XCTest

@testable import AFCLI

/// The order `afcli run` starts its requests in: the parallel limit, keepers first, and stopping
/// at the first failure unless `--keep-going`.
final class BatchSchedulerTests: XCTestCase {
    /// Every request `next()` gives now.
    private func startAll(_ scheduler: inout BatchScheduler) -> [Int] {
        var started: [Int] = []
        while let index = scheduler.next() { started.append(index) }
        return started
    }

    func testOneAtATimeInTheOrderWritten() {
        var scheduler = BatchScheduler(isKeeper: [false, false, false], parallel: 1, keepGoing: false)
        var order: [Int] = []
        while let index = scheduler.next() {
            XCTAssertNil(scheduler.next(), "a second request started while one was in flight")
            order.append(index)
            scheduler.finished(index, succeeded: true)
        }
        XCTAssertEqual(order, [0, 1, 2])
        XCTAssertTrue(scheduler.isDone)
    }

    func testNeverMoreThanParallelInFlight() {
        var scheduler = BatchScheduler(isKeeper: Array(repeating: false, count: 10), parallel: 4, keepGoing: false)
        XCTAssertEqual(startAll(&scheduler), [0, 1, 2, 3])
        scheduler.finished(2, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [4])
        XCTAssertEqual(scheduler.running, [0, 1, 3, 4])
    }

    func testARequestWaitingToBeSentAgainGivesItsSlotUnderParallel() {
        var scheduler = BatchScheduler(isKeeper: Array(repeating: false, count: 4), parallel: 2, keepGoing: false)
        XCTAssertEqual(startAll(&scheduler), [0, 1])
        scheduler.rest(0)
        XCTAssertEqual(startAll(&scheduler), [2], "the resting request's slot went unused")
        XCTAssertFalse(scheduler.wake(0), "woke with every slot taken")
        scheduler.finished(1, succeeded: true)
        XCTAssertTrue(scheduler.wake(0))
        XCTAssertEqual(startAll(&scheduler), [], "a slot counted twice")
        scheduler.finished(0, succeeded: true)
        scheduler.finished(2, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [3])
        scheduler.finished(3, succeeded: true)
        XCTAssertTrue(scheduler.isDone)
    }

    func testARequestDueToBeSentAgainGetsTheNextSlotBeforeANewRequest() {
        var scheduler = BatchScheduler(isKeeper: Array(repeating: false, count: 5), parallel: 2, keepGoing: false)
        XCTAssertEqual(startAll(&scheduler), [0, 1])
        scheduler.rest(0)
        XCTAssertEqual(startAll(&scheduler), [2])
        XCTAssertFalse(scheduler.wake(0), "woke with every slot taken")
        scheduler.finished(1, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [], "a new request took the slot the due one waits for")
        XCTAssertTrue(scheduler.wake(0))
        scheduler.finished(2, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [3])
        scheduler.finished(0, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [4])
    }

    func testAtMostAsManyRequestsRestAsRunAtOnce() {
        var scheduler = BatchScheduler(isKeeper: Array(repeating: false, count: 8), parallel: 2, keepGoing: false)
        XCTAssertEqual(startAll(&scheduler), [0, 1])
        XCTAssertTrue(scheduler.rest(0))
        XCTAssertTrue(scheduler.rest(1))
        XCTAssertEqual(startAll(&scheduler), [2, 3])
        // Two rest already: the third keeps its slot, so no more bodies wait than are in flight.
        XCTAssertFalse(scheduler.rest(2))
        XCTAssertEqual(startAll(&scheduler), [])
        XCTAssertTrue(scheduler.wake(2), "a request that kept its slot goes on at once")
    }

    func testOneAfterTheOtherARequestWaitingToBeSentAgainKeepsItsTurn() {
        var scheduler = BatchScheduler(isKeeper: [false, false], parallel: 1, keepGoing: false)
        XCTAssertEqual(startAll(&scheduler), [0])
        scheduler.rest(0)
        XCTAssertEqual(startAll(&scheduler), [])
        XCTAssertTrue(scheduler.wake(0))
        scheduler.finished(0, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [1])
    }

    func testARestingRequestKeepsTheRunFromBeingDone() {
        var scheduler = BatchScheduler(isKeeper: [false], parallel: 4, keepGoing: false)
        XCTAssertEqual(startAll(&scheduler), [0])
        scheduler.rest(0)
        XCTAssertFalse(scheduler.isDone)
        scheduler.finished(0, succeeded: false)
        XCTAssertTrue(scheduler.isDone)
    }

    func testRequestsWaitingForOthersStartOnceTheyEndedInTheOrderWritten() {
        // Given: 1 to 4 take values from 0; 5 takes nothing.
        var scheduler = BatchScheduler(
            isKeeper: Array(repeating: false, count: 6), parallel: 2, keepGoing: false,
            dependencies: [[], [0], [0], [0], [0], []])

        XCTAssertEqual(startAll(&scheduler), [0, 5], "a waiting request started, or 5 waited")
        scheduler.finished(5, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [])
        XCTAssertEqual(scheduler.notStarted, 4)
        scheduler.finished(0, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [1, 2])
        scheduler.finished(2, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [3])
        XCTAssertEqual(scheduler.notStarted, 1)
        scheduler.finished(1, succeeded: true)
        scheduler.finished(3, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [4])
        scheduler.finished(4, succeeded: true)
        XCTAssertTrue(scheduler.isDone)
    }

    func testAWaitingRequestLaterInTheListStartsFirstWhenOnlyItIsReady() {
        // Given: 2 waits for 1, 3 waits for 0; 0 ends first.
        var scheduler = BatchScheduler(
            isKeeper: Array(repeating: false, count: 4), parallel: 4, keepGoing: false,
            dependencies: [[], [], [1], [0]])
        XCTAssertEqual(startAll(&scheduler), [0, 1])
        scheduler.finished(0, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [3])
        XCTAssertEqual(scheduler.notStarted, 1)
        XCTAssertEqual(scheduler.upcoming(limit: 4) { _ in true }, nil, "2 is not ready while 1 runs")
        scheduler.finished(1, succeeded: true)
        XCTAssertEqual(scheduler.upcoming(limit: 4) { _ in true }, 2)
        XCTAssertEqual(startAll(&scheduler), [2])
        XCTAssertEqual(scheduler.notStarted, 0)
    }

    func testKeepersCompleteBeforeAnyOtherStarts() {
        // Given: requests 1 and 3 are keepers.
        var scheduler = BatchScheduler(isKeeper: [false, true, false, true, false], parallel: 8, keepGoing: false)

        // When / Then: only the keepers start, together.
        XCTAssertEqual(startAll(&scheduler), [1, 3])
        scheduler.finished(3, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [], "a request started while a keeper was in flight")
        scheduler.finished(1, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [0, 2, 4])
    }

    func testKeepersShareTheParallelLimit() {
        var scheduler = BatchScheduler(isKeeper: [true, true, true, false], parallel: 2, keepGoing: false)
        XCTAssertEqual(startAll(&scheduler), [0, 1])
        scheduler.finished(0, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [2])
        scheduler.finished(1, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [])
        scheduler.finished(2, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [3])
    }

    func testAFailureStopsNewStartsButLetsRunningOnesFinish() {
        var scheduler = BatchScheduler(isKeeper: Array(repeating: false, count: 6), parallel: 2, keepGoing: false)
        XCTAssertEqual(startAll(&scheduler), [0, 1])
        scheduler.finished(0, succeeded: false)
        XCTAssertEqual(startAll(&scheduler), [])
        XCTAssertFalse(scheduler.isDone, "request 1 is still in flight")
        scheduler.finished(1, succeeded: true)
        XCTAssertTrue(scheduler.isDone)
        XCTAssertEqual(scheduler.notStarted, 4)
    }

    func testKeepGoingStartsTheRestAfterAFailure() {
        var scheduler = BatchScheduler(isKeeper: [true, false, false], parallel: 1, keepGoing: true)
        XCTAssertEqual(startAll(&scheduler), [0])
        scheduler.finished(0, succeeded: false)
        XCTAssertEqual(startAll(&scheduler), [1])
        scheduler.finished(1, succeeded: false)
        XCTAssertEqual(startAll(&scheduler), [2])
        scheduler.finished(2, succeeded: true)
        XCTAssertTrue(scheduler.isDone)
        XCTAssertEqual(scheduler.notStarted, 0)
    }

    func testStopLeavesTheRestUnstarted() {
        var scheduler = BatchScheduler(isKeeper: Array(repeating: false, count: 5), parallel: 2, keepGoing: true)
        XCTAssertEqual(startAll(&scheduler), [0, 1])
        scheduler.stop()
        scheduler.finished(0, succeeded: true)
        XCTAssertEqual(startAll(&scheduler), [])
        scheduler.finished(1, succeeded: true)
        XCTAssertTrue(scheduler.isDone)
        XCTAssertEqual(scheduler.notStarted, 3)
    }

    func testUpcomingNamesTheNextStartWithoutStartingIt() {
        var scheduler = BatchScheduler(isKeeper: [false, true, false], parallel: 1, keepGoing: false)
        XCTAssertEqual(scheduler.upcoming, 1)
        XCTAssertEqual(scheduler.next(), 1)
        XCTAssertEqual(scheduler.upcoming, 0, "the next one, although the keeper is still in flight")
        XCTAssertNil(scheduler.next())
        scheduler.finished(1, succeeded: false)
        XCTAssertNil(scheduler.upcoming, "nothing starts after a failure")
    }

    func testAnEmptyBatchIsDoneAtOnce() {
        var scheduler = BatchScheduler(isKeeper: [], parallel: 3, keepGoing: false)
        XCTAssertNil(scheduler.next())
        XCTAssertTrue(scheduler.isDone)
    }

    func testParallelismIsCutToWhatTheOpenFileLimitAllows() {
        XCTAssertEqual(BatchScheduler.affordable(300, openFileLimit: 128, perRequest: 3), 32)
        XCTAssertEqual(BatchScheduler.affordable(300, openFileLimit: 128, perRequest: 4), 24)
        XCTAssertEqual(BatchScheduler.affordable(8, openFileLimit: 1024, perRequest: 3), 8)
        XCTAssertEqual(BatchScheduler.affordable(8, openFileLimit: 16, perRequest: 3), 1, "one at a time at least")
        XCTAssertEqual(BatchScheduler.descriptorsPerRequest(savesBodies: false), 3)
        XCTAssertEqual(BatchScheduler.descriptorsPerRequest(savesBodies: true), 4)
        XCTAssertEqual(BatchScheduler.descriptorsPerRequest(savesBodies: true, resends: true), 5)
    }
}
