import Foundation
import XCTest

@testable import AFKit

/// The worker that prepares a run's requests ahead: every item once, in order, never more than
/// its capacity waiting, and nothing left running or held after `stop`.
final class AheadWorkerTests: XCTestCase {
    /// Counts items alive at once, from whichever thread makes or frees them.
    final class Census: @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (alive: 0, mostAlive: 0, made: 0)

        var alive: Int { lock.withLock { counts.alive } }
        var mostAlive: Int { lock.withLock { counts.mostAlive } }
        var made: Int { lock.withLock { counts.made } }

        func born() {
            lock.withLock {
                counts.alive += 1
                counts.made += 1
                counts.mostAlive = max(counts.mostAlive, counts.alive)
            }
        }

        func died() { lock.withLock { counts.alive -= 1 } }
    }

    /// An item that tells the census when it is made and freed.
    final class Item {
        let position: Int
        let census: Census
        init(_ position: Int, _ census: Census) {
            self.position = position
            self.census = census
            census.born()
        }
        deinit { census.died() }
    }

    func testGivesEveryItemOnceInOrderAndNeverHoldsMoreThanItsCapacity() throws {
        let census = Census()
        let worker = try XCTUnwrap(AheadWorker(count: 1000, capacity: 4) { Item($0, census) })
        var positions: [Int] = []
        while let item = worker.next() {
            positions.append(item.position)
            // The consumer is slower now and then, so the queue fills up.
            if item.position % 100 == 0 { usleep(2000) }
            XCTAssertLessThanOrEqual(census.alive, 6, "the queue's 4, the one taken and the one being made")
        }
        worker.stop()
        XCTAssertEqual(positions, Array(0..<1000))
        XCTAssertLessThanOrEqual(census.mostAlive, 6, "the queue's 4, the one taken and the one being made")
        XCTAssertEqual(census.alive, 0)
        XCTAssertNil(worker.next())
    }

    func testStopDropsWhatWasMadeAndEndsTheWorker() throws {
        let census = Census()
        let worker = try XCTUnwrap(AheadWorker(count: 1000, capacity: 8) { Item($0, census) })
        XCTAssertEqual(worker.next()?.position, 0)
        XCTAssertEqual(worker.next()?.position, 1)
        worker.stop()
        // Nothing was made after the stop, and what was made is freed.
        let made = census.made
        usleep(10_000)
        XCTAssertEqual(census.made, made)
        XCTAssertLessThanOrEqual(made, 2 + 8 + 1)
        XCTAssertEqual(census.alive, 0)
        XCTAssertNil(worker.next())
    }

    func testNoItemsEndsAtOnce() throws {
        let worker = try XCTUnwrap(AheadWorker(count: 0, capacity: 4) { $0 })
        XCTAssertNil(worker.next())
        worker.stop()
    }
}
