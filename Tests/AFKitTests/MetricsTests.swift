import AFKit
import XCTest

/// Task metrics: curl's write-out language, the `-L` view of several hops, the phase table's
/// durations and fixed-point numbers, with expected values written out here.
final class MetricsTests: XCTestCase {
    /// A hop with curl-style cumulative times (seconds from its start).
    private func hop(
        lookup: Double, connect: Double, tls: Double = 0, pre: Double, start: Double, total: Double,
        connections: Int = 1, header: Int64 = 100, request: Int64 = 50, body: Int64 = 10
    ) -> TransferMetrics {
        var metrics = TransferMetrics()
        metrics.nameLookup = lookup
        metrics.connect = connect
        metrics.appConnect = tls
        metrics.preTransfer = pre
        metrics.startTransfer = start
        metrics.total = total
        metrics.newConnections = connections
        metrics.remoteAddress = "127.0.0.1"
        metrics.remotePort = 8080
        metrics.headerBytes = header
        metrics.requestBytes = request
        metrics.bodyBytesReceived = body
        metrics.startDate = 1_000
        return metrics
    }

    private func render(_ format: String, _ context: WriteOutContext) throws -> String {
        let chunks = WriteOutFormatter.render(try WriteOutFormat(parsing: format), context)
        return String(decoding: chunks.flatMap(\.bytes), as: UTF8.self)
    }

    private var context: WriteOutContext {
        WriteOutContext(
            metrics: TaskMetrics(transactions: [
                hop(lookup: 0.001, connect: 0.002, pre: 0.003, start: 0.01, total: 0.0125)
            ]),
            url: "http://h.test/", method: "GET",
            head: ResponseHead(
                statusCode: 204, reasonPhrase: "No Content", httpVersion: "HTTP/1.1",
                headers: [("X-A", "1"), ("x-a", "2"), ("Server", "s")]),
            exitCode: 0)
    }

    func testFixedDecimalsAsCurlsPercentF() {
        XCTAssertEqual(DecimalText.fixed(0), "0.000000")
        XCTAssertEqual(DecimalText.fixed(0.0125), "0.012500")
        XCTAssertEqual(DecimalText.fixed(12.3456789), "12.345679")
        XCTAssertEqual(DecimalText.fixed(1.5, digits: 3), "1.500")
        XCTAssertEqual(DecimalText.fixed(-0.25, digits: 2), "-0.25")
        XCTAssertEqual(DecimalText.fixed(.nan), "0.000000")
    }

    func testVariablesEscapesAndQuirks() throws {
        XCTAssertEqual(try render("%{http_code}|%{RESPONSE_CODE}|%{time_total}", context), "204|204|0.012500")
        XCTAssertEqual(try render("a\\tb\\nc\\rd\\\\e\\x%%f", context), "a\tb\nc\rd\\\\e\\x%f")
        XCTAssertEqual(try render("%q %{open %header{x", context), "%q %{open %header{x")
        XCTAssertEqual(try render("end%", context), "end%")
        XCTAssertEqual(try render("end\\", context), "end\\")
        XCTAssertEqual(try render("%header{X-A}/%header{server}/%header{none}", context), "1, 2/s/")
        XCTAssertEqual(
            try render("%{num_headers} %{remote_ip}:%{remote_port} %{url_effective}", context),
            "3 127.0.0.1:8080 http://h.test/")
    }

    func testUnknownVariablesPrintNothingAndAreListed() throws {
        let format = try WriteOutFormat(parsing: "[%{nope}%{Other}]")
        XCTAssertEqual(format.unknownVariables, ["nope", "Other"])
        XCTAssertEqual(WriteOutFormatter.render(format, context).flatMap(\.bytes), Array("[]".utf8))
    }

    func testStreamSwitches() throws {
        let chunks = WriteOutFormatter.render(try WriteOutFormat(parsing: "a%{stderr}b%{stdout}c%{stdout}d"), context)
        XCTAssertEqual(
            chunks,
            [
                WriteOutFormatter.Chunk(toStandardError: false, bytes: Array("a".utf8)),
                WriteOutFormatter.Chunk(toStandardError: true, bytes: Array("b".utf8)),
                WriteOutFormatter.Chunk(toStandardError: false, bytes: Array("cd".utf8)),
            ])
    }

    func testOnErrorEndsTheOutputOfARequestThatDidNotFail() throws {
        let format = try WriteOutFormat(parsing: "done%{OnError} failed: %{errormsg}")
        XCTAssertEqual(format.unknownVariables, [])
        XCTAssertEqual(WriteOutFormatter.render(format, context).flatMap(\.bytes), Array("done".utf8))
        var failed = context
        failed.errorMessage = "timed out"
        XCTAssertEqual(
            WriteOutFormatter.render(format, failed).flatMap(\.bytes), Array("done failed: timed out".utf8))
    }

    func testFormatLengthIsLimited() {
        // The longest format is one literal, appended byte by byte in place (not copied each time).
        XCTAssertEqual(
            try WriteOutFormat(parsing: String(repeating: "x", count: WriteOutFormat.maximumLength)).segments,
            [.literal([UInt8](repeating: 0x78, count: WriteOutFormat.maximumLength))])
        XCTAssertThrowsError(
            try WriteOutFormat(parsing: String(repeating: "x", count: WriteOutFormat.maximumLength + 1)))
    }

    func testFailedTransferHasNoCodeAndTheMessage() throws {
        let failed = WriteOutContext(
            metrics: nil, url: "http://h.test/", method: "PUT", head: nil, exitCode: 7, errorMessage: "timed out")
        XCTAssertEqual(
            try render("%{http_code} %{exitcode} %{errormsg} %{method} %{num_connects} %{time_total}", failed),
            "000 7 timed out PUT 0 0.000000")
        XCTAssertEqual(
            try render("%{json}", failed).prefix(57),
            #"{"content_type":null,"errormsg":"timed out","exitcode":7,"#)
    }

    func testRedirectsAreCombinedAsCurlLocationReportsThem() throws {
        let first = hop(lookup: 0.001, connect: 0.002, pre: 0.003, start: 0.004, total: 0.005, header: 80, request: 40)
        let second = hop(lookup: 0.0005, connect: 0, pre: 0.001, start: 0.002, total: 0.003, connections: 0)
        let combined = try XCTUnwrap(TaskMetrics(transactions: [first, second])).combined
        XCTAssertEqual(combined.redirect, 0.005)
        XCTAssertEqual(combined.total, 0.008, accuracy: 1e-12)
        XCTAssertEqual(combined.nameLookup, 0.0055, accuracy: 1e-12)
        XCTAssertEqual(combined.connect, 0, "a phase the final hop skipped stays 0")
        XCTAssertEqual(combined.headerBytes, 180)
        XCTAssertEqual(combined.requestBytes, 90)
        XCTAssertEqual(combined.newConnections, 1)
        XCTAssertEqual(combined.bodyBytesReceived, 10)
        XCTAssertNil(TaskMetrics(transactions: []))
    }

    func testPhaseDurationsAddUpToTheTotal() {
        let phases = MetricsPhase.phases(
            of: hop(lookup: 0.001, connect: 0.003, tls: 0.006, pre: 0.007, start: 0.01, total: 0.015))
        XCTAssertEqual(
            phases.map(\.name),
            [
                "queue", "DNS lookup", "TCP connect", "TLS handshake", "request sent", "first byte", "body received",
            ])
        let durations = phases.dropFirst().map { $0.duration ?? -1 }
        for (actual, expected) in zip(durations, [0.001, 0.002, 0.003, 0.001, 0.003, 0.005]) {
            XCTAssertEqual(actual, expected, accuracy: 1e-12)
        }
        let plain = MetricsPhase.phases(of: hop(lookup: 0.001, connect: 0.002, pre: 0.003, start: 0.004, total: 0.005))
        XCTAssertNil(plain[3].duration)
        XCTAssertEqual(plain[4].duration ?? -1, 0.001, accuracy: 1e-12)
    }

    func testJSONUsesAFNamesAndNullsForAReusedConnection() throws {
        var reused = hop(lookup: 0.0001, connect: 0, pre: 0.0002, start: 0.001, total: 0.002, connections: 0)
        reused.startDate = 1_700_000_000.5
        let text = try XCTUnwrap(TaskMetrics(transactions: [reused])).jsonText
        XCTAssertTrue(
            text.hasPrefix(#"{"taskInterval":{"start":1700000000.500000,"duration":0.002000},"redirectCount":0,"#), text
        )
        XCTAssertTrue(text.contains(#""fetchStartDate":1700000000.500000,"domainLookupStartDate":null,"#), text)
        XCTAssertTrue(text.contains(#""requestStartDate":1700000000.500200,"requestEndDate":1700000000.500200,"#), text)
        XCTAssertTrue(text.contains(#""isReusedConnection":true,"resourceFetchType":"networkLoad""#), text)
    }
}
