import AFKit
import Glibc

/// `--report junit=FILE`: JUnit XML as Jenkins, GitLab and GitHub test reporters read it, valid
/// against the schema Jenkins' xUnit plugin checks reports with (junit-10.xsd). One
/// `testsuite` per source file; a `testcase` per request, with a `failure` (a failed assertion
/// or status: the assertions, the curl command line and the timings in its text) or an `error`
/// (the request was not sent or its transfer failed); requests that never ran are `skipped`.
///
/// The test cases are kept in an unlinked temporary file until the counts the suite's element
/// carries are known, so a long run holds none of them in memory.
final class JUnitReportWriter: RunReportWriter {
    private let stream: OutputStream
    private let cases: TemporaryFileBodySource
    private var suiteName = "afcli run"
    private var counts = (tests: 0, failures: 0, errors: 0)
    private var seconds = 0.0

    init(stream: OutputStream, path: String) throws {
        self.stream = stream
        do {
            cases = try TemporaryFileBodySource(holding: "the JUnit report's test cases")
        } catch {
            throw RunReportError(path: path, reason: "\(error)", beforeSending: true)
        }
    }

    func add(_ record: RunRecord) throws {
        let line = record.line
        suiteName = String(record.origin.split(separator: ":").first ?? "afcli run")
        let time = line.metrics.map { $0.queue + $0.total } ?? 0
        seconds += time
        counts.tests += 1
        var text = "    <testcase name=\"\(xmlEscaped(line.name))\" classname=\"\(xmlEscaped(suiteName))\" "
            + "time=\"\(decimalSeconds(time))\">\n"
        if !line.succeeded {
            let element = record.isError ? "error" : "failure"
            if record.isError { counts.errors += 1 } else { counts.failures += 1 }
            let message = line.error ?? "failed"
            text += "      <\(element) message=\"\(xmlEscaped(message))\" type=\"\(Self.type(line))\">"
            text += xmlEscaped(Self.details(record)) + "</\(element)>\n"
        }
        text += "    </testcase>\n"
        try Array(text.utf8).withUnsafeBytes { try cases.append($0) }
    }

    func finish(_ summary: RunSummary) throws {
        let skipped = summary.notRun
        try stream.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        let totals = "tests=\"\(counts.tests + skipped)\" failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" "
        let time = "time=\"\(decimalSeconds(summary.seconds))\""
        // Jenkins' xUnit schema (junit-10.xsd) allows `skipped` on a testsuite only.
        try stream.write("<testsuites name=\"afcli run\" \(totals)\(time)>\n")
        let started = ISO8601Date.text(unixSeconds: summary.startDate)
        try stream.write(
            "  <testsuite name=\"\(xmlEscaped(suiteName))\" \(totals)skipped=\"\(skipped)\" \(time) "
                + "timestamp=\"\(started)\">\n")
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try cases.read(into: $0) }
            if count == 0 { break }
            try stream.write(Array(chunk[0..<count]))
        }
        for index in 0..<skipped {
            try stream.write("    <testcase name=\"not run \(index + 1)\" classname=\"\(xmlEscaped(suiteName))\" time=\"0.000\">"
                + "<skipped message=\"not run: the run stopped before it\"/></testcase>\n")
        }
        try stream.write("  </testsuite>\n</testsuites>\n")
        try stream.flush()
    }

    /// What kind of failure: an assertion, a status, a transfer.
    private static func type(_ line: RunLine) -> String {
        if line.assertions.contains(where: { !$0.passed }) { return "assertion" }
        if line.statusCode == nil { return "transfer" }
        return "status"
    }

    /// The failure's text: each assertion, the curl command and the timings.
    private static func details(_ record: RunRecord) -> String {
        let line = record.line
        var text = line.method.isEmpty ? "\(record.origin)\n" : "\(line.method) \(line.url) (\(record.origin))\n"
        if let status = line.statusCode { text += "status: \(status)\n" }
        for result in line.assertions {
            text += (result.passed ? "passed: " : "FAILED: ") + result.assertion.text
            text += " (" + (result.problem ?? "actual " + (result.actual ?? "none")) + ")\n"
        }
        if let command = record.curlCommand() { text += "curl: " + command + "\n" }
        if let metrics = line.metrics {
            text += "times (s): queue \(RunLine.seconds(metrics.queue)), connect \(RunLine.seconds(metrics.connect)), "
                + "tls \(RunLine.seconds(metrics.appConnect)), first byte \(RunLine.seconds(metrics.startTransfer)), "
                + "total \(RunLine.seconds(metrics.total))\n"
        }
        return text
    }
}
