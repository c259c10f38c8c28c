import AFKit

/// `--report tap=FILE`: TAP version 13, as `prove` reads it: `ok N - name` or `not ok N - name`
/// with a YAML block saying what failed, and the plan (`1..N`) at the end.
final class TAPReportWriter: RunReportWriter {
    private let stream: OutputStream
    private var number = 0

    init(stream: OutputStream) {
        self.stream = stream
    }

    func add(_ record: RunRecord) throws {
        if number == 0 { try stream.write("TAP version 13\n") }
        number += 1
        let line = record.line
        // `#` starts a directive in TAP and a line end would end the line: neither in a name.
        let name = line.name.map { $0 == "#" || $0 == "\n" || $0 == "\r" ? "_" : $0 }
        var text = (line.succeeded ? "ok " : "not ok ") + "\(number) - " + String(name) + "\n"
        if !line.succeeded {
            text += "  ---\n"
            text += "  message: " + Self.quoted(line.error ?? "failed") + "\n"
            text += "  severity: fail\n"
            text += "  at: " + Self.quoted(record.origin) + "\n"
            if !line.method.isEmpty { text += "  request: " + Self.quoted(line.method + " " + line.url) + "\n" }
            if let status = line.statusCode { text += "  status: \(status)\n" }
            let failed = line.assertions.filter { !$0.passed }
            if !failed.isEmpty {
                text += "  assertions:\n"
                for result in failed {
                    text += "    - assert: " + Self.quoted(result.assertion.text) + "\n"
                    text += "      actual: " + Self.quoted(result.problem ?? result.actual ?? "none") + "\n"
                }
            }
            text += "  ...\n"
        }
        try stream.write(text)
    }

    func finish(_ summary: RunSummary) throws {
        if number == 0 { try stream.write("TAP version 13\n") }
        for _ in 0..<summary.notRun {
            number += 1
            try stream.write("ok \(number) - not run # SKIP the run stopped before it\n")
        }
        try stream.write("1..\(number)\n")
        try stream.flush()
    }

    /// A YAML double-quoted scalar: a JSON string is one (YAML 1.2 is a superset of JSON).
    private static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.writeString(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
