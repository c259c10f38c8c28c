import AFCurl
import Foundation
import XCTest

@testable import AFKit

/// Many exchanges at once through `MultiClient` (libcurl's multi interface): results, redirects
/// queued as new transfers, failures, connection reuse and the queue time afcli measures.
final class MultiClientTests: LoopbackServerTestCase {
    /// A GET of `url` without headers.
    private func get(_ url: String) -> PreparedRequest {
        PreparedRequest(method: "GET", url: url, headers: [])
    }

    /// Runs `client` until every exchange ended; results by tag.
    private func drain(_ client: MultiClient) throws -> [Int: Result<HTTPClientResult, any Error>] {
        var results: [Int: Result<HTTPClientResult, any Error>] = [:]
        let deadline = Date().addingTimeInterval(20)
        while client.inFlight > 0, Date() < deadline {
            for finished in try client.wait(timeoutMilliseconds: 100) { results[finished.tag] = finished.result }
        }
        XCTAssertEqual(client.inFlight, 0, "exchanges still in flight after 20 s")
        return results
    }

    func testRunsSeveralExchangesAtOnceAndStreamsEachBodyToItsDelegate() throws {
        // Given
        let server = try startServer { request in .response(200, "OK", body: Array("body of \(request.target)".utf8)) }
        let client = try MultiClient()
        let delegates = (0..<5).map { _ in RecordingDelegate() }

        // When
        for (tag, delegate) in delegates.enumerated() {
            let request = get(server.baseURL + "/r\(tag)")
            try client.start(
                request, options: options(), delegate: delegate, tag: tag, readyAt: FileIO.monotonicSeconds())
        }
        let results = try drain(client)

        // Then
        XCTAssertEqual(results.count, 5)
        for tag in 0..<5 {
            XCTAssertEqual(try results[tag]?.get().statusCode, 200)
            XCTAssertEqual(String(decoding: delegates[tag].body(hop: 0), as: UTF8.self), "body of /r\(tag)")
        }
        XCTAssertEqual(Set(server.requests.map(\.target)), Set((0..<5).map { "/r\($0)" }))
    }

    func testQueuesARedirectsNextHopAsANewTransfer() throws {
        // Given
        let server = try startServer { request in
            request.target == "/a"
                ? .response(302, "Found", headers: [("Location", "/b")], body: Array("moved".utf8))
                : .response(200, "OK", body: Array("done".utf8))
        }
        let client = try MultiClient()
        let delegate = RecordingDelegate()

        // When
        try client.start(
            get(server.baseURL + "/a"), options: options { $0.follow = true },
            delegate: delegate, tag: 7, readyAt: FileIO.monotonicSeconds())
        let result = try XCTUnwrap(drain(client)[7]).get()

        // Then
        XCTAssertEqual(server.requests.map(\.target), ["/a", "/b"])
        XCTAssertEqual(result.redirectCount, 1)
        XCTAssertEqual(result.url, server.baseURL + "/b")
        XCTAssertEqual(delegate.heads.map(\.isFinal), [false, true])
        XCTAssertEqual(delegate.body(hop: 1), Array("done".utf8))
    }

    func testWithoutFollowTheRedirectIsTheFinalResponse() throws {
        // Given
        let server = try startServer { _ in .response(301, "Moved", headers: [("Location", "/b")]) }
        let client = try MultiClient()

        // When
        try client.start(
            get(server.baseURL + "/a"), options: options(),
            delegate: RecordingDelegate(), tag: 0, readyAt: FileIO.monotonicSeconds())
        let result = try XCTUnwrap(drain(client)[0]).get()

        // Then
        XCTAssertEqual(result.statusCode, 301)
        XCTAssertEqual(server.requests.count, 1)
    }

    func testAConnectionFailureEndsOnlyItsOwnExchange() throws {
        // Given: a port that was just free, so nothing listens there.
        let closed = try startServer { _ in .response(200, "OK") }
        let deadURL = closed.baseURL
        closed.stop()
        usleep(50_000)
        let server = try startServer { _ in .response(200, "OK", body: [0x61]) }
        let client = try MultiClient()

        // When
        try client.start(
            get(deadURL + "/x"), options: options(), delegate: RecordingDelegate(),
            tag: 0, readyAt: FileIO.monotonicSeconds())
        try client.start(
            get(server.baseURL + "/y"), options: options(),
            delegate: RecordingDelegate(), tag: 1, readyAt: FileIO.monotonicSeconds())
        let results = try drain(client)

        // Then
        XCTAssertThrowsError(try results[0]?.get()) { error in
            XCTAssertEqual((error as? CurlError)?.kind, .couldNotConnect)
        }
        XCTAssertEqual(try results[1]?.get().statusCode, 200)
    }

    func testReusesTheConnectionForLaterExchangesAndSaysSo() throws {
        // Given
        let server = try startServer { _ in .response(200, "OK", body: [0x61]) }
        let client = try MultiClient()
        var metrics: [TransferMetrics] = []

        // When: three exchanges, one after the other, on the same client.
        for tag in 0..<3 {
            try client.start(
                get(server.baseURL + "/\(tag)"), options: options(),
                delegate: RecordingDelegate(), tag: tag, readyAt: FileIO.monotonicSeconds())
            metrics.append(try XCTUnwrap(drain(client)[tag]).get().outcome.metrics)
        }

        // Then
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(metrics.map(\.newConnections), [1, 0, 0])
        XCTAssertEqual(metrics.map(\.reusedConnection), [false, true, true])
    }

    func testRecordsTheTimeBeforeTheTransferStartedAsQueueTime() throws {
        // Given: a request that was ready half a second before it was started.
        let server = try startServer { _ in .response(200, "OK") }
        let client = try MultiClient()

        // When
        try client.start(
            get(server.baseURL + "/"), options: options(),
            delegate: RecordingDelegate(), tag: 0, readyAt: FileIO.monotonicSeconds() - 0.5)
        let metrics = try XCTUnwrap(drain(client)[0]).get().outcome.metrics

        // Then: at least the half second (libcurl's own timers start at the transfer).
        XCTAssertGreaterThanOrEqual(metrics.queue, 0.5)
        XCTAssertLessThan(metrics.total, metrics.queue + 60)
    }

    func testAWaitInsideLibcurlForAConnectionCountsAsQueueTime() throws {
        // Given: one connection at most, held half a second by a transfer to another server.
        let slow = try startServer { _ in HTTPClientTestServer.Reply(pieces: [], stall: 0.5, close: true) }
        let fast = try startServer { _ in .response(200, "OK", body: Array("fast".utf8)) }
        let client = try MultiClient(maxConnections: 1)
        let ready = FileIO.monotonicSeconds()

        // When: the second transfer is handed to libcurl at once, and waits there for the connection.
        for (tag, url) in [slow.baseURL + "/slow", fast.baseURL + "/fast"].enumerated() {
            try client.start(get(url), options: options(), delegate: RecordingDelegate(), tag: tag, readyAt: ready)
        }
        let results = try drain(client)

        // Then: libcurl's own times start after the wait; the queue time tells it.
        let metrics = try XCTUnwrap(results[1]).get().outcome.metrics
        XCTAssertLessThan(metrics.total, 0.3)
        XCTAssertGreaterThanOrEqual(metrics.queue, 0.4)
    }

    func testTransfersWaitForAMultiplexedConnectionOnlyWhereHTTP2CanMultiplex() {
        func request(_ url: String, _ version: HTTPVersionPreference = .automatic) -> TransferRequest {
            var options = TransferOptions()
            options.httpVersion = version
            return TransferRequest(method: "GET", url: url, options: options)
        }
        XCTAssertTrue(MultiHandle.canMultiplex(request("https://example.com/")))
        XCTAssertTrue(MultiHandle.canMultiplex(request("HTTPS://example.com/")))
        XCTAssertTrue(MultiHandle.canMultiplex(request("http://example.com/", .http2PriorKnowledge)))
        // Plain HTTP/1.1 cannot: waiting would hold every transfer until the first one ends.
        XCTAssertFalse(MultiHandle.canMultiplex(request("http://example.com/")))
        XCTAssertFalse(MultiHandle.canMultiplex(request("http://example.com/", .http2)))
        XCTAssertFalse(MultiHandle.canMultiplex(request("https://example.com/", .http1_1)))
        XCTAssertFalse(MultiHandle.canMultiplex(request("https:")))
    }

    func testCancelAllStopsTheTransfersInFlightAndNamesThem() throws {
        // Given: a server that stays silent.
        let server = try startServer { _ in HTTPClientTestServer.Reply(pieces: [], stall: 10) }
        let client = try MultiClient()
        for tag in [3, 4] {
            try client.start(
                get(server.baseURL + "/\(tag)"), options: options(),
                delegate: RecordingDelegate(), tag: tag, readyAt: FileIO.monotonicSeconds())
        }
        let deadline = Date().addingTimeInterval(5)
        while server.requests.count < 2, Date() < deadline { _ = try client.wait(timeoutMilliseconds: 20) }
        Thread.sleep(forTimeInterval: 0.1)

        // When
        let cancelled = client.cancelAll()

        // Then
        XCTAssertEqual(Set(cancelled.map(\.tag)), [3, 4])
        XCTAssertEqual(client.inFlight, 0)
        // The requests were sent and timed: each keeps its times up to the cancellation.
        for each in cancelled {
            let metrics = try XCTUnwrap(each.metrics)
            XCTAssertTrue(each.transferFailed)
            XCTAssertGreaterThanOrEqual(metrics.total, 0.1)
        }
    }
}
