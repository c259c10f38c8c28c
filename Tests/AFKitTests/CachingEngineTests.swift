import AFCurl
import Foundation
import XCTest

@testable import AFKit

/// The cache decorator driving a stand-in engine, serial (completed in `start`) and parallel
/// (completed by a later `run`) alike: a hit sends nothing, a miss is stored, a 304 answers with
/// the stored body or (when that body has gone) the request is sent again unconditionally, an
/// unsafe method invalidates, a failed connection is answered stale-if-error, and a cancelled
/// exchange leaves nothing written for the store.
final class CachingEngineTests: TemporaryDirectoryTestCase {
    private var cacheDirectory: String { directory.path + "/afcli" }
    private let url = "http://127.0.0.1:9/doc"

    private func makeEngine(_ origin: FakeEngine, warnings: WarningLog? = nil) -> CachingEngine {
        let cache = ResponseCache(
            configuration: ResponseCache.Configuration(
                mode: .http, lifetime: nil, namespace: "", directory: cacheDirectory, now: { 1_700_000_000 }))
        if let warnings { cache.warn = { warnings.messages.append($0) } }
        return CachingEngine(wrapping: origin, cache: cache, revalidatesLater: false)
    }

    /// Sends `method` to the test URL through `engine` and waits for its completion.
    private func exchange(
        _ engine: CachingEngine, _ method: String = "GET", tag: Int = 1,
        delegate: RecordingDelegate = RecordingDelegate()
    ) throws -> ExchangeCompletion {
        let order = ExchangeOrder(
            PreparedRequest(method: method, url: url, headers: []), delegate: delegate, options: TransferSettings(),
            tag: tag)
        if let done = try engine.start(order) { return done }
        for _ in 0..<4 {
            if let done = try engine.run().first(where: { $0.tag == tag }) { return done }
        }
        throw FakeEngine.Failure.neverCompleted
    }

    private func bodyFiles() -> [String] { FileIO.names(in: cacheDirectory + "/bodies") }

    func testAMissIsStoredAndThenAnsweredWithoutTheNetwork() throws {
        for serial in [true, false] {
            let origin = FakeEngine(serial: serial) { _ in .ok(["Cache-Control": "max-age=60"], body: "hello") }
            let engine = makeEngine(origin)
            let first = try exchange(engine)
            XCTAssertEqual(first.cache, .stored)
            let delegate = RecordingDelegate()
            let second = try exchange(engine, tag: 2, delegate: delegate)
            XCTAssertEqual(second.cache, .hit(age: 0))
            XCTAssertEqual(try second.result.get().statusCode, 200)
            XCTAssertEqual(delegate.body(hop: 0), Array("hello".utf8))
            XCTAssertEqual(origin.orders.count, 1, "a hit sends nothing")
            XCTAssertEqual(engine.inFlight, 0)
            try FileManager.default.removeItem(atPath: cacheDirectory)
        }
    }

    func testA304AnswersWithTheStoredBody() throws {
        for serial in [true, false] {
            let origin = FakeEngine(serial: serial) { request in
                request.headers.contains { $0.name == "If-None-Match" && $0.value == "\"v1\"" }
                    ? .notModified(etag: "\"v1\"")
                    : .ok(["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: "stored")
            }
            let engine = makeEngine(origin)
            XCTAssertEqual(try exchange(engine).cache, .stored)
            let delegate = RecordingDelegate()
            let second = try exchange(engine, tag: 2, delegate: delegate)
            XCTAssertEqual(second.cache, .revalidated)
            XCTAssertEqual(try second.result.get().statusCode, 200)
            XCTAssertEqual(delegate.body(hop: 0), Array("stored".utf8))
            XCTAssertEqual(origin.orders.count, 2)
            try FileManager.default.removeItem(atPath: cacheDirectory)
        }
    }

    func testA304WhoseStoredBodyHasGoneIsSentAgainWithoutConditions() throws {
        let large = String(repeating: "x", count: CacheBodyWriter.inlineLimit + 1)
        for serial in [true, false] {
            let origin = FakeEngine(serial: serial) { request in
                request.headers.contains { $0.name == "If-None-Match" }
                    ? .notModified(etag: "\"v1\"")
                    : .ok(["Cache-Control": "max-age=0", "ETag": "\"v1\""], body: large)
            }
            let engine = makeEngine(origin)
            XCTAssertEqual(try exchange(engine).cache, .stored)
            for name in bodyFiles() { unlink(cacheDirectory + "/bodies/" + name) }
            let delegate = RecordingDelegate()
            let second = try exchange(engine, tag: 2, delegate: delegate)
            XCTAssertEqual(origin.orders.count, 3, "the conditional request, then the same without conditions")
            XCTAssertTrue(origin.orders[1].request.headers.contains { $0.name == "If-None-Match" })
            XCTAssertFalse(origin.orders[2].request.headers.contains { $0.name == "If-None-Match" })
            XCTAssertEqual(origin.orders[2].tag, 2)
            XCTAssertEqual(second.cache, .stored)
            XCTAssertEqual(delegate.body(hop: 0).count, large.utf8.count)
            try FileManager.default.removeItem(atPath: cacheDirectory)
        }
    }

    func testAnUnsafeMethodInvalidatesTheStoredResponses() throws {
        for serial in [true, false] {
            let origin = FakeEngine(serial: serial) { _ in .ok(["Cache-Control": "max-age=60"], body: "v") }
            let engine = makeEngine(origin)
            XCTAssertEqual(try exchange(engine).cache, .stored)
            XCTAssertEqual(try exchange(engine, tag: 2).cache, .hit(age: 0))
            XCTAssertEqual(try exchange(engine, "POST", tag: 3).cache, .invalidated)
            XCTAssertEqual(try exchange(engine, tag: 4).cache, .stored, "sent again after the POST")
            XCTAssertEqual(origin.orders.map(\.request.method), ["GET", "POST", "GET"])
            try FileManager.default.removeItem(atPath: cacheDirectory)
        }
    }

    func testAFailedConnectionIsAnsweredByAStaleResponseWithinStaleIfError() throws {
        for serial in [true, false] {
            var down = false
            let origin = FakeEngine(serial: serial) { _ in
                if down { throw CurlError(kind: .couldNotConnect, description: "could not connect") }
                return .ok(["Cache-Control": "max-age=0, stale-if-error=600", "ETag": "\"s\""], body: "old")
            }
            let warnings = WarningLog()
            let engine = makeEngine(origin, warnings: warnings)
            XCTAssertEqual(try exchange(engine).cache, .stored)
            down = true
            let delegate = RecordingDelegate()
            let second = try exchange(engine, tag: 2, delegate: delegate)
            XCTAssertEqual(second.cache, .stale(age: 0, directive: "stale-if-error"))
            XCTAssertEqual(try second.result.get().statusCode, 200)
            XCTAssertEqual(delegate.body(hop: 0), Array("old".utf8))
            XCTAssertEqual(warnings.messages.count, 1)
            XCTAssertTrue(warnings.messages.first?.contains("stale-if-error") ?? false)
            try FileManager.default.removeItem(atPath: cacheDirectory)
        }
    }

    func testAFailureWithoutAFallbackIsTheEnginesAndStoresNothing() throws {
        let origin = FakeEngine(serial: true) { _ in throw CurlError(kind: .couldNotConnect, description: "refused") }
        let engine = makeEngine(origin)
        let done = try exchange(engine)
        XCTAssertThrowsError(try done.result.get()) { XCTAssertEqual(($0 as? CurlError)?.kind, .couldNotConnect) }
        XCTAssertNil(done.cache)
    }

    func testACancelledExchangeLeavesNothingWrittenForTheStore() throws {
        let large = String(repeating: "y", count: CacheBodyWriter.inlineLimit + 1)
        let origin = FakeEngine(serial: false) { _ in .ok(["Cache-Control": "max-age=60"], body: large) }
        origin.stallsAfterBody = true
        let engine = makeEngine(origin)
        let order = ExchangeOrder(
            PreparedRequest(method: "GET", url: url, headers: []), delegate: RecordingDelegate(),
            options: TransferSettings(), tag: 7)
        XCTAssertNil(try engine.start(order))
        XCTAssertEqual(try engine.run().count, 0)
        XCTAssertEqual(bodyFiles().count, 1, "the body is being written for the store")
        let cancelled = engine.cancelAll()
        XCTAssertEqual(cancelled.map(\.tag), [7])
        XCTAssertNil(cancelled.first?.cache)
        XCTAssertEqual(bodyFiles(), [], "what was written for the store is dropped")
        XCTAssertEqual(try CacheStore(directory: cacheDirectory).entries().count, 0)
    }
}

/// The cache's warnings, collected.
final class WarningLog {
    var messages: [String] = []
}

/// A stand-in engine: each order is answered by `origin`, its events played to the order's
/// delegate, at once (`serial`) or by the next `run`. `stallsAfterBody` leaves an exchange in
/// flight after its head and body, until `cancelAll`. Every order is kept, with its delegate.
final class FakeEngine: ExchangeEngine {
    enum Failure: Error { case neverCompleted }

    /// What the origin answers.
    struct Reply {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: String

        static func ok(_ headers: KeyValuePairs<String, String>, body: String) -> Reply {
            Reply(status: 200, headers: headers.map { (name: $0.key, value: $0.value) }, body: body)
        }

        static func notModified(etag: String) -> Reply {
            Reply(status: 304, headers: [("ETag", etag), ("Cache-Control", "max-age=0")], body: "")
        }
    }

    let serial: Bool
    let origin: (PreparedRequest) throws -> Reply
    var stallsAfterBody = false
    private(set) var orders: [ExchangeOrder] = []
    private var waiting: [ExchangeOrder] = []
    private var stalled: [ExchangeOrder] = []

    init(serial: Bool, origin: @escaping (PreparedRequest) throws -> Reply) {
        self.serial = serial
        self.origin = origin
    }

    func start(_ order: ExchangeOrder) throws -> ExchangeCompletion? {
        orders.append(order)
        if serial { return play(order) }
        waiting.append(order)
        return nil
    }

    func run() throws -> [ExchangeCompletion] {
        let now = waiting
        waiting.removeAll()
        return now.compactMap(play)
    }

    func poll(timeoutMilliseconds: Int) throws {}

    var inFlight: Int { waiting.count + stalled.count }

    func cancelAll() -> [ExchangeCompletion] {
        let cancelled = (waiting + stalled).map {
            ExchangeCompletion(tag: $0.tag, result: .failure(CurlError.interrupted(signal: 2)))
        }
        waiting.removeAll()
        stalled.removeAll()
        return cancelled
    }

    func cookieHeader(for url: String) -> String? { nil }
    func adoptCookieFields(of request: inout PreparedRequest) throws {}

    /// Plays the origin's answer to the order's delegate; nil when it stalls.
    private func play(_ order: ExchangeOrder) -> ExchangeCompletion? {
        let result = Result { () throws -> HTTPClientResult in
            let reply = try origin(order.request)
            let head = ResponseHead(
                statusCode: reply.status, reasonPhrase: reply.status == 200 ? "OK" : "Not Modified",
                httpVersion: "HTTP/1.1",
                headers: reply.status == 304
                    ? reply.headers : reply.headers + [("Content-Length", String(reply.body.utf8.count))])
            try order.delegate.didReceive(hop: 0, head: head, isFinal: true)
            let body = Array(reply.body.utf8)
            if !body.isEmpty {
                try body.withUnsafeBytes { try order.delegate.didReceiveBody(hop: 0, chunk: $0, isFinal: true) }
            }
            if stallsAfterBody { throw Failure.neverCompleted }
            try order.delegate.didFinishResponse(hop: 0, isFinal: true)
            return HTTPClientResult(
                head: head,
                outcome: TransferOutcome(
                    statusCode: reply.status, effectiveURL: order.request.url, httpVersion: "HTTP/1.1",
                    bytesDownloaded: Int64(body.count), head: head),
                url: order.request.url, method: order.request.method, redirectCount: 0, totalTime: 0)
        }
        if stallsAfterBody {
            stalled.append(order)
            return nil
        }
        return ExchangeCompletion(tag: order.tag, result: result)
    }
}
