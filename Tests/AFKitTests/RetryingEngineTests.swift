import AFCurl
import XCTest

@testable import AFKit

/// The retry decorator over a stand-in engine, serial and parallel alike: a transient status is
/// tried again and its try never reaches the delegate, a POST is not, tries are counted on the
/// completion, a waiting try counts as in flight, and a cancel ends a waiting try as interrupted.
final class RetryingEngineTests: XCTestCase {
    private let url = "http://127.0.0.1:9/doc"

    /// Sends `method` through `engine` and drives it (as the runner does) until it completes.
    private func exchange(
        _ engine: RetryingEngine, _ method: String = "GET", delegate: RecordingDelegate = RecordingDelegate()
    ) throws -> ExchangeCompletion {
        let order = ExchangeOrder(
            PreparedRequest(method: method, url: url, headers: []), delegate: delegate, options: TransferSettings(),
            tag: 1)
        if let done = try engine.start(order) { return done }
        for _ in 0..<200 {
            if let done = try engine.run().first { return done }
            try engine.poll(timeoutMilliseconds: 100)
        }
        throw FakeEngine.Failure.neverCompleted
    }

    private func failingTwice(serial: Bool) -> FakeEngine {
        var count = 0
        return FakeEngine(serial: serial) { _ in
            count += 1
            if count <= 2 { return FakeEngine.Reply(status: 503, headers: [], body: "try \(count)") }
            return .ok([:], body: "try \(count)")
        }
    }

    func testATransientStatusIsTriedAgainAndOnlyTheLastTryIsDelivered() throws {
        for serial in [true, false] {
            let origin = failingTwice(serial: serial)
            var notes: [String] = []
            let engine = RetryingEngine(
                wrapping: origin, rules: RetryRules(retries: 3, delay: 0.01), note: { notes.append($0) })
            let delegate = RecordingDelegate()
            let done = try exchange(engine, delegate: delegate)
            XCTAssertEqual(try done.result.get().statusCode, 200)
            XCTAssertEqual(done.retry, RetryRecord(tries: 3, reason: "HTTP 503"))
            XCTAssertEqual(origin.orders.count, 3)
            XCTAssertEqual(delegate.heads.map(\.head.statusCode), [200], "the 503s never reach the delegate")
            XCTAssertEqual(delegate.body(hop: 0), Array("try 3".utf8))
            XCTAssertEqual(notes, [
                "retrying GET \(url) in 0 s (HTTP 503, try 2 of 4)", "retrying GET \(url) in 0 s (HTTP 503, try 3 of 4)",
            ])
            XCTAssertEqual(engine.inFlight, 0)
        }
    }

    /// A run's slots as `BatchScheduler` lends them: every try asks, and `free` says whether a
    /// slot is there to take again.
    private final class Slots: SlotKeeper {
        var rested: [Int] = []
        var asked: [Int] = []
        var free = false
        func rest(_ tag: Int) -> Bool {
            rested.append(tag)
            return true
        }
        func resume(_ tag: Int) -> Bool {
            asked.append(tag)
            return free
        }
    }

    func testAnExchangeWaitingForItsNextTryLendsItsSlotAndTakesOneBeforeItIsSent() throws {
        let origin = failingTwice(serial: false)
        let engine = RetryingEngine(wrapping: origin, rules: RetryRules(retries: 3, delay: 0.01))
        let slots = Slots()
        engine.slots = slots
        let order = ExchangeOrder(
            PreparedRequest(method: "GET", url: url, headers: []), delegate: RecordingDelegate(),
            options: TransferSettings(), tag: 7)
        XCTAssertNil(try engine.start(order))
        for _ in 0..<20 where slots.rested.isEmpty { _ = try engine.run() }
        XCTAssertEqual(slots.rested, [7], "the 503 gave its slot up while it waits")
        // Due, with every slot taken: the try waits on, and the poll does not spin on it.
        usleep(20_000)
        XCTAssertEqual(try engine.run().count, 0)
        XCTAssertEqual(slots.asked, [7])
        XCTAssertEqual(origin.orders.count, 1, "sent without a slot")
        let before = FileIO.monotonicSeconds()
        try engine.poll(timeoutMilliseconds: 30)
        XCTAssertGreaterThanOrEqual(FileIO.monotonicSeconds() - before, 0.02, "the poll spun on a try waiting for a slot")
        // A slot frees: the try is sent, and the rest of the exchange goes as without slots.
        slots.free = true
        var done: ExchangeCompletion?
        for _ in 0..<200 where done == nil {
            done = try engine.run().first
            if done == nil { try engine.poll(timeoutMilliseconds: 20) }
        }
        XCTAssertEqual(try XCTUnwrap(done).result.get().statusCode, 200)
        XCTAssertEqual(origin.orders.count, 3)
        XCTAssertEqual(slots.rested, [7, 7])
    }

    func testTriesUsedUpDeliverTheLastAnswer() throws {
        let origin = FakeEngine(serial: true) { _ in FakeEngine.Reply(status: 503, headers: [], body: "down") }
        let engine = RetryingEngine(wrapping: origin, rules: RetryRules(retries: 1, delay: 0.01))
        let delegate = RecordingDelegate()
        let done = try exchange(engine, delegate: delegate)
        XCTAssertEqual(try done.result.get().statusCode, 503)
        XCTAssertEqual(done.retry, RetryRecord(tries: 2, reason: "HTTP 503"))
        XCTAssertEqual(delegate.heads.map(\.head.statusCode), [503])
        XCTAssertEqual(delegate.body(hop: 0), Array("down".utf8))
    }

    func testAPostIsNotRetriedUnlessAllErrors() throws {
        for allErrors in [false, true] {
            let origin = failingTwice(serial: false)
            let engine = RetryingEngine(wrapping: origin, rules: RetryRules(retries: 3, delay: 0.01, allErrors: allErrors))
            let done = try exchange(engine, "POST")
            XCTAssertEqual(try done.result.get().statusCode, allErrors ? 200 : 503)
            XCTAssertEqual(origin.orders.count, allErrors ? 3 : 1)
        }
    }

    func testAFailedConnectionIsRetried() throws {
        var count = 0
        let origin = FakeEngine(serial: true) { _ in
            count += 1
            if count == 1 { throw CurlError(kind: .couldNotConnect, description: "refused") }
            return .ok([:], body: "up")
        }
        let engine = RetryingEngine(wrapping: origin, rules: RetryRules(retries: 2, delay: 0.01))
        let done = try exchange(engine)
        XCTAssertEqual(try done.result.get().statusCode, 200)
        XCTAssertEqual(done.retry, RetryRecord(tries: 2, reason: "connection failed"))
    }

    func testAWaitingTryCountsAsInFlightAndIsCancelledAsInterrupted() throws {
        let origin = FakeEngine(serial: false) { _ in
            FakeEngine.Reply(status: 429, headers: [("Retry-After", "60")], body: "")
        }
        let engine = RetryingEngine(wrapping: origin, rules: RetryRules(retries: 2))
        let order = ExchangeOrder(
            PreparedRequest(method: "GET", url: url, headers: []), delegate: RecordingDelegate(),
            options: TransferSettings(), tag: 5)
        XCTAssertNil(try engine.start(order))
        XCTAssertEqual(try engine.run().count, 0)
        XCTAssertEqual(engine.inFlight, 1, "the retry waits 60 s")
        let cancelled = engine.cancelAll()
        XCTAssertEqual(cancelled.map(\.tag), [5])
        XCTAssertThrowsError(try cancelled[0].result.get()) { XCTAssertEqual(($0 as? CurlError)?.kind, .interrupted) }
        XCTAssertEqual(engine.inFlight, 0)
    }

    func testA429PacesTheNextRequestToItsOrigin() throws {
        var count = 0
        let origin = FakeEngine(serial: false) { _ in
            count += 1
            return count == 1 ? FakeEngine.Reply(status: 429, headers: [("Retry-After", "60")], body: "") : .ok([:], body: "")
        }
        let engine = RetryingEngine(wrapping: origin, rules: RetryRules(retries: 2))
        func order(_ tag: Int, _ url: String) -> ExchangeOrder {
            ExchangeOrder(
                PreparedRequest(method: "GET", url: url, headers: []), delegate: RecordingDelegate(),
                options: TransferSettings(), tag: tag)
        }
        _ = try engine.start(order(1, url))
        _ = try engine.run()
        _ = try engine.start(order(2, "http://127.0.0.1:9/other"))
        _ = try engine.start(order(3, "http://127.0.0.1:10/elsewhere"))
        let done = try engine.run()
        XCTAssertEqual(done.map(\.tag), [3], "only the other origin goes")
        XCTAssertEqual(origin.orders.map(\.tag), [1, 3])
        XCTAssertEqual(engine.inFlight, 2)
        _ = engine.cancelAll()
    }
}
