import AFKit
import Foundation
import Glibc
import XCTest

@testable import AFCLI

/// The runner over the multi handle with entries made in the test: requests are prepared only when
/// they start (so a long batch never holds every prepared body), each gets one NDJSON line, and
/// the exit status is the first failure's.
final class RunnerTests: BatchTestCase {
    /// Counts the request bodies alive at once.
    final class Census: @unchecked Sendable {
        // Requests are prepared on the run's worker thread and freed on either thread.
        private let lock = NSLock()
        private var counts = (alive: 0, mostAlive: 0, prepared: 0)

        var alive: Int { lock.withLock { counts.alive } }
        var mostAlive: Int { lock.withLock { counts.mostAlive } }
        var prepared: Int { lock.withLock { counts.prepared } }

        func madeRequest() { lock.withLock { counts.prepared += 1 } }

        func madeBody() {
            lock.withLock {
                counts.alive += 1
                counts.mostAlive = max(counts.mostAlive, counts.alive)
            }
        }

        func freedBody() { lock.withLock { counts.alive -= 1 } }
    }

    /// A body that tells the census when it is made and freed.
    final class CountedBody: BodySource {
        let census: Census
        init(_ census: Census) {
            self.census = census
            census.madeBody()
        }
        deinit { census.freedBody() }
        private var sent = 0
        var length: UInt64? { 2 }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = min(2 - sent, buffer.count)
            for index in 0..<count { buffer[index] = 0x61 }
            sent += count
            return count
        }
        func rewind() throws { sent = 0 }
    }

    /// Runs `entries` with `options`, NDJSON into a file; returns the status and the lines.
    private func execute(_ entries: [PlanEntry], options: Settings) throws -> (ExitStatus, [String]) {
        let path = directory + "/out.ndjson"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let output = OutputStream(descriptor: descriptor, target: path, closesOnDeinit: true)
        let parallel = options.run.parallel ?? 1
        let plan = RunPlan(
            entries: entries, parallel: parallel, keepGoing: options.run.keepGoing,
            transferSettings: RunTransferSettings(environment: [:]))
        let reporter = RunLineReporter(total: entries.count, directory: nil, output: output, stderrIsTerminal: false)
        let status = try Runner(plan: plan, delivery: .send(try MultiClient(maxConnections: parallel)), reporter: reporter).run()
        try output.flush()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return (status, text.split(separator: "\n").map(String.init))
    }

    func testPreparesEachRequestOnlyWhenItIsAboutToStartSoBodiesNeverPileUp() throws {
        // Given: 300 POSTs to a port where nothing listens, at most 4 at once.
        let census = Census()
        let entries = (0..<300).map { index in
            PlanEntry(name: "r\(index)", origin: "test:\(index)", isKeeper: false) {
                census.madeRequest()
                let request = PreparedRequest(
                    method: "POST", url: "http://127.0.0.1:1/\(index)", headers: [], body: CountedBody(census))
                return PlannedRequest(prepared: request, settings: ResolvedSettings(Settings(), profile: nil))
            }
        }
        var options = Settings()
        options.run.parallel = 4
        options.run.keepGoing = true

        // When
        let (status, lines) = try execute(entries, options: options)

        // Then
        XCTAssertEqual(census.prepared, 300)
        // The requests in flight, at most as many prepared ahead while they were, and at most as
        // many ended but not reported yet (they are, once the requests after them were sent).
        XCTAssertLessThanOrEqual(
            census.mostAlive, 12, "more bodies were alive than three times the requests in flight")
        XCTAssertEqual(census.alive, 0)
        XCTAssertEqual(lines.count, 300)
        XCTAssertEqual(status, .connectionFailed)
    }

    func testAnEntryThatCannotBePreparedFailsAloneWithItsOwnStatus() throws {
        // Given: the first entry's preparation fails; the second goes nowhere.
        struct Broken: Error, CustomStringConvertible { var description: String { "no such file" } }
        let entries = [
            PlanEntry(name: "broken", origin: "test:1", isKeeper: false) { throw Broken() },
            PlanEntry(name: "refused", origin: "test:2", isKeeper: false) {
                PlannedRequest(
                    prepared: PreparedRequest(method: "GET", url: "http://127.0.0.1:1/", headers: []),
                    settings: ResolvedSettings(Settings(), profile: nil))
            },
        ]
        var options = Settings()
        options.run.keepGoing = true

        // When
        let (status, lines) = try execute(entries, options: options)

        // Then: the first failure decides the status; both are reported.
        XCTAssertEqual(status, .failure)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix(#"{"name":"broken","method":"","url":"","status":null,"#), lines[0])
        XCTAssertTrue(lines[0].hasSuffix(#""error":"no such file","exit":1}"#), lines[0])
        XCTAssertTrue(lines[1].contains(#""exit":8}"#), lines[1])
    }

    func testWithoutKeepGoingTheFirstFailureStopsTheRest() throws {
        let census = Census()
        let entries = (0..<5).map { index in
            PlanEntry(name: "r\(index)", origin: "", isKeeper: false) {
                census.madeRequest()
                return PlannedRequest(
                    prepared: PreparedRequest(method: "GET", url: "http://127.0.0.1:1/", headers: []),
                    settings: ResolvedSettings(Settings(), profile: nil))
            }
        }
        let (status, lines) = try execute(entries, options: Settings())
        XCTAssertEqual(status, .connectionFailed)
        XCTAssertEqual(lines.count, 1)
        // The first, and at most the one prepared ahead while it was in flight (never sent).
        XCTAssertLessThanOrEqual(census.prepared, 2)
    }

    func testSecondsAreWrittenWithMicrosecondPrecision() {
        XCTAssertEqual(RunLine.seconds(0), "0.000000")
        XCTAssertEqual(RunLine.seconds(1.5), "1.500000")
        XCTAssertEqual(RunLine.seconds(0.0000125), "0.000013")
        XCTAssertEqual(RunLine.seconds(12.345678), "12.345678")
    }

    func testAReportLineIsOneJSONObjectWithNullsForWhatDidNotHappen() {
        // Given: a response over a reused connection, and a request that got none.
        var metrics = TransferMetrics()
        metrics.queue = 0.25
        metrics.nameLookup = 0.000014
        metrics.startTransfer = 0.001
        metrics.total = 0.002
        metrics.remoteAddress = "::1"
        metrics.remotePort = 8080
        var answered = RunLine(name: "a\"b", method: "GET", url: "http://x/")
        answered.statusCode = 200
        answered.bytes = 12
        answered.metrics = metrics
        answered.httpVersion = "HTTP/2"
        var failed = RunLine(name: "c", method: "POST", url: "http://y/")
        failed.error = "could not connect"
        failed.status = .connectionFailed
        failed.file = "out/c.body"

        // Then
        XCTAssertEqual(
            String(decoding: answered.jsonLine(), as: UTF8.self),
            #"{"name":"a\"b","method":"GET","url":"http://x/","status":200,"bytes":12,"redirects":0,"#
                + #""http_version":"HTTP/2","time":{"queue":0.250000,"namelookup":null,"connect":null,"tls":null,"#
                + #""first_byte":0.001000,"total":0.002000},"reused":true,"remote":"[::1]:8080","error":null,"#
                + #""exit":0}"# + "\n")
        XCTAssertEqual(
            String(decoding: failed.jsonLine(), as: UTF8.self),
            #"{"name":"c","method":"POST","url":"http://y/","status":null,"bytes":0,"redirects":0,"#
                + #""http_version":null,"time":null,"reused":null,"remote":null,"file":"out/c.body","#
                + #""error":"could not connect","exit":8}"# + "\n")
    }

    func testAReportLineFitsTextsThatAreEscapedThroughout() throws {
        // Given: texts of control characters only, each written as \u00XX (6 bytes for 1).
        let controls = String(repeating: "\u{1}", count: 5000)
        var report = RunLine(name: controls, method: controls, url: controls)
        report.error = controls
        report.file = controls
        report.httpVersion = controls
        var metrics = TransferMetrics()
        metrics.remoteAddress = controls + ":"
        metrics.remotePort = 65535
        report.metrics = metrics
        report.bytes = .max
        report.redirects = .max
        report.statusCode = .min

        // Then: the line is whole JSON with every text as given.
        let line = report.jsonLine()
        XCTAssertEqual(line.last, UInt8(ascii: "\n"))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        for key in ["name", "method", "url", "error", "file", "http_version"] {
            XCTAssertEqual(object[key] as? String, controls, key)
        }
        XCTAssertEqual(object["remote"] as? String, "[" + controls + ":]:65535")
    }

    func testAFailedTransfersTimesStopAtTheFailureAndTheCacheFieldComesWithTheCache() {
        // Given: a connection that timed out after connecting, in a run with the cache.
        var metrics = TransferMetrics()
        metrics.queue = 0.001
        metrics.nameLookup = 0.00002
        metrics.connect = 0.0001
        metrics.total = 0.5
        metrics.remoteAddress = "127.0.0.1"
        metrics.remotePort = 9
        metrics.newConnections = 1
        var timedOut = RunLine(name: "t", method: "GET", url: "http://z/")
        timedOut.metrics = metrics
        timedOut.metricsEndAtFailure = true
        timedOut.error = "timed out"
        timedOut.status = .timeout
        timedOut.usesCache = true
        var hit = RunLine(name: "h", method: "GET", url: "http://z/")
        hit.statusCode = 200
        hit.usesCache = true
        hit.cache = .hit(age: 3)

        // Then: phases never reached are null; the cache field says what the cache did.
        XCTAssertEqual(
            String(decoding: timedOut.jsonLine(), as: UTF8.self),
            #"{"name":"t","method":"GET","url":"http://z/","status":null,"bytes":0,"redirects":0,"#
                + #""http_version":null,"time":{"queue":0.001000,"namelookup":0.000020,"connect":0.000100,"#
                + #""tls":null,"first_byte":null,"total":0.500000},"reused":false,"remote":"127.0.0.1:9","#
                + #""cache":null,"error":"timed out","exit":7}"# + "\n")
        XCTAssertEqual(
            String(decoding: hit.jsonLine(), as: UTF8.self),
            #"{"name":"h","method":"GET","url":"http://z/","status":200,"bytes":0,"redirects":0,"#
                + #""http_version":null,"time":null,"reused":null,"remote":null,"cache":"hit","error":null,"#
                + #""exit":0}"# + "\n")
    }

    func testOutputFileNamesAreSafeAndUniqueInTheOrderWritten() {
        XCTAssertEqual(
            BatchOutputDirectory.fileNames(for: ["a", "a", "../etc/passwd", "", "..", "a-2", "é x"]),
            ["a.body", "a-2.body", "_etc_passwd.body", "request.body", "request-2.body", "a-2-2.body", "___x.body"])
    }

    func testSettingsFollowTheOptionsWhetherOrNotTheyComeWithAnIdentity() throws {
        var cache = RunTransferSettings(environment: [:])
        let plain = Settings()
        var timed = Settings()
        timed.transfer.timeout = 7
        let first = NSObject()
        let second = NSObject()
        XCTAssertNil(try cache.settings(for: plain, identity: ObjectIdentifier(first), url: "http://h/").idleTimeout)
        XCTAssertNil(try cache.settings(for: plain, identity: ObjectIdentifier(first), url: "http://h/").idleTimeout)
        XCTAssertEqual(
            try cache.settings(for: timed, identity: ObjectIdentifier(second), url: "http://h/").idleTimeout, 7)
        XCTAssertEqual(try cache.settings(for: timed, url: "http://h/").idleTimeout, 7)
        XCTAssertNil(try cache.settings(for: plain, url: "http://h/").idleTimeout)
    }
}
