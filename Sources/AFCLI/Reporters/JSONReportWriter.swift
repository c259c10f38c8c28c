import AFKit

/// `--report json=FILE`: one JSON document, `{"requests":[…],"summary":{…}}`, each request's
/// record the NDJSON line `afcli run` prints for it, written as requests end.
final class JSONReportWriter: RunReportWriter {
    private let stream: OutputStream
    private var count = 0

    init(stream: OutputStream) {
        self.stream = stream
    }

    func add(_ record: RunRecord) throws {
        try stream.write(count == 0 ? "{\"requests\":[\n" : ",\n")
        count += 1
        var bytes = record.line.jsonLine()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        try stream.write(bytes)
    }

    func finish(_ summary: RunSummary) throws {
        try stream.write(count == 0 ? "{\"requests\":[" : "\n")
        try stream.write(
            "],\"summary\":{\"total\":\(summary.total),\"passed\":\(summary.passed),\"failed\":\(summary.failed),"
                + "\"not_run\":\(summary.notRun),\"seconds\":\(RunLine.seconds(summary.seconds)),"
                + "\"started\":\"\(ISO8601Date.text(unixSeconds: summary.startDate, milliseconds: true))\"}}\n")
        try stream.flush()
    }
}
