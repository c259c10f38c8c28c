import AFCurl
import Foundation
import Glibc
import XCTest

@testable import AFKit

/// `LaneEngine`: a run's exchanges spread over a multi handle on the calling thread and one on a
/// thread of its own, with one cookie engine, completions on the calling thread, and Ctrl-C.
final class LaneEngineTests: LoopbackServerTestCase {
    /// A delegate that records its events and the thread each came on.
    private final class ThreadRecordingDelegate: HTTPClientDelegate, @unchecked Sendable {
        var body: [UInt8] = []
        var threads: Set<UInt> = []

        func willSend(hop: Int, request: SentRequest) throws { threads.insert(UInt(pthread_self())) }
        func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws { threads.insert(UInt(pthread_self())) }
        func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
            threads.insert(UInt(pthread_self()))
            body += chunk
        }
    }

    private func order(_ url: String, _ delegate: HTTPClientDelegate, tag: Int) -> ExchangeOrder {
        ExchangeOrder(
            PreparedRequest(method: "GET", url: url, headers: []), delegate: delegate, options: options(), tag: tag,
            readyAt: FileIO.monotonicSeconds())
    }

    /// Runs `engine` until nothing is in flight, as the runner does; completions by tag, each
    /// checked to come on this thread.
    private func drain(_ engine: LaneEngine) throws -> [Int: Result<HTTPClientResult, any Error>] {
        var results: [Int: Result<HTTPClientResult, any Error>] = [:]
        let deadline = Date().addingTimeInterval(20)
        while engine.inFlight > 0, Date() < deadline {
            for each in try engine.run() { results[each.tag] = each.result }
            if engine.inFlight > 0 { try engine.poll(timeoutMilliseconds: 100) }
        }
        XCTAssertEqual(engine.inFlight, 0, "exchanges still in flight after 20 s")
        return results
    }

    func testSpreadsTheExchangesOverTwoThreadsAndCompletesEachOnTheCallersThread() throws {
        // Given
        let server = try startServer { request in .response(200, "OK", body: Array("body of \(request.target)".utf8)) }
        let engine = try LaneEngine(maxConnections: 20)
        try engine.spread(over: 2)
        XCTAssertEqual(engine.laneCount, 2)
        let delegates = (0..<20).map { _ in ThreadRecordingDelegate() }

        // When: twenty at once.
        for (tag, delegate) in delegates.enumerated() {
            XCTAssertNil(try engine.start(order(server.baseURL + "/r\(tag)", delegate, tag: tag)))
        }
        let results = try drain(engine)

        // Then: every one answered, its body to its own delegate, each exchange's events on one
        // thread; about two fifths at home (the home lane's load counts 3 to the other's 2).
        XCTAssertEqual(results.count, 20)
        for (tag, delegate) in delegates.enumerated() {
            XCTAssertEqual(try results[tag]?.get().statusCode, 200)
            XCTAssertEqual(String(decoding: delegate.body, as: UTF8.self), "body of /r\(tag)")
            XCTAssertEqual(delegate.threads.count, 1)
        }
        let home = UInt(pthread_self())
        let atHome = delegates.filter { $0.threads == [home] }.count
        XCTAssertEqual(Set(delegates.flatMap(\.threads)).count, 2)
        XCTAssertEqual(atHome, 8)
    }

    func testTheLeastLoadedLaneTakesARequestTheHomeLaneCountingOneAndAHalfTimes() {
        XCTAssertEqual(LaneEngine.lane(loads: [0, 0], multiplexes: false), 1, "a tie goes to the other lane")
        XCTAssertEqual(LaneEngine.lane(loads: [0, 1], multiplexes: false), 0)
        XCTAssertEqual(LaneEngine.lane(loads: [2, 3], multiplexes: false), 1, "3 × 2 is not below 2 × 3")
        XCTAssertEqual(LaneEngine.lane(loads: [2, 4], multiplexes: false), 0)
        XCTAssertEqual(LaneEngine.lane(loads: [6, 9, 7], multiplexes: false), 2)
        // A request that may be an HTTP/2 stream runs at home, however loaded.
        XCTAssertEqual(LaneEngine.lane(loads: [40, 0], multiplexes: true), 0)
    }

    func testEveryLaneSendsAndStoresCookiesInOneEngine() throws {
        // Given
        let server = try startServer { request in
            request.target == "/login"
                ? .response(200, "OK", headers: [("Set-Cookie", "sid=1; Path=/")]) : .response(200, "OK")
        }
        let engine = try LaneEngine()
        try engine.spread(over: 2)

        // When: a login, then six calls at once on both lanes.
        _ = try engine.start(order(server.baseURL + "/login", ThreadRecordingDelegate(), tag: 0))
        _ = try drain(engine)
        let calls = (1...6).map { _ in ThreadRecordingDelegate() }
        for (offset, delegate) in calls.enumerated() {
            _ = try engine.start(order(server.baseURL + "/call", delegate, tag: offset + 1))
        }
        _ = try drain(engine)

        // Then
        XCTAssertEqual(Set(calls.flatMap(\.threads)).count, 2, "the calls ran on both lanes")
        XCTAssertEqual(
            server.requests.filter { $0.target == "/call" }.map { $0.header("Cookie") },
            Array(repeating: "sid=1", count: 6))
        XCTAssertTrue(engine.cookiesChanged(engine.cookieLines))
        XCTAssertEqual(engine.cookieHeader(for: server.baseURL + "/x"), "sid=1")
    }

    func testAPollEndsWhenTheOtherLaneCompletesAnExchange() throws {
        // Given: one exchange, which goes to the other lane; none at home.
        let server = try startServer { _ in .response(200, "OK") }
        let engine = try LaneEngine()
        try engine.spread(over: 2)
        let delegate = ThreadRecordingDelegate()
        _ = try engine.start(order(server.baseURL + "/", delegate, tag: 5))

        // When: a long wait.
        let began = FileIO.monotonicSeconds()
        var completed: [ExchangeCompletion] = []
        while completed.isEmpty, FileIO.monotonicSeconds() - began < 20 {
            completed += try engine.run()
            if completed.isEmpty { try engine.poll(timeoutMilliseconds: 10_000) }
        }

        // Then: the wait ended with the completion, not with its timeout.
        XCTAssertEqual(completed.map(\.tag), [5])
        XCTAssertNotEqual(delegate.threads, [UInt(pthread_self())])
        XCTAssertLessThan(FileIO.monotonicSeconds() - began, 5)
    }

    func testCancelAllStopsTheExchangesOfEveryLaneAndNamesThem() throws {
        // Given: a silent server, and four exchanges on both lanes.
        let server = try startServer { _ in HTTPClientTestServer.Reply(pieces: [], stall: 10) }
        let engine = try LaneEngine()
        try engine.spread(over: 2)
        for tag in 0..<4 {
            _ = try engine.start(order(server.baseURL + "/\(tag)", ThreadRecordingDelegate(), tag: tag))
        }
        let deadline = Date().addingTimeInterval(5)
        while server.requests.count < 4, Date() < deadline {
            _ = try engine.run()
            try engine.poll(timeoutMilliseconds: 20)
        }

        // When
        let cancelled = engine.cancelAll()

        // Then: all four, and later requests run at home.
        XCTAssertEqual(Set(cancelled.map(\.tag)), [0, 1, 2, 3])
        XCTAssertEqual(engine.inFlight, 0)
        XCTAssertEqual(engine.laneCount, 1)
    }

    func testARunOfOneRequestAtATimeHasOneLane() {
        XCTAssertEqual(LaneEngine.laneCount(parallel: 1), 1)
        XCTAssertLessThanOrEqual(LaneEngine.laneCount(parallel: 50), 2)
        XCTAssertGreaterThanOrEqual(LaneEngine.laneCount(parallel: 50), 1)
    }
}
