import AFKit

/// The readable line of one request of a run, for `--test` and for a run on a terminal (where
/// NDJSON would wrap into walls of text): PASS or FAIL, the name, method, URL, status, size and
/// time, then what failed, one line each. Everything from the network or the file is escaped.
enum RunTestLine {
    /// The lines for `line` (ending in a line feed), coloured with `palette`.
    static func text(_ line: RunLine, palette: Palette) -> String {
        var text = line.succeeded ? palette.success + "PASS" + palette.reset : palette.failure + "FAIL" + palette.reset
        text += "  " + line.name.escapingTerminalControls
        if !line.method.isEmpty {
            text += "  " + palette.requestMethod + line.method.escapingTerminalControls + palette.reset + " "
                + palette.requestTarget + line.url.escapingTerminalControls + palette.reset
        }
        if let status = line.statusCode {
            text += "  " + palette.status(status) + String(status) + palette.reset + "  " + ByteCountText.size(line.bytes)
        }
        if let metrics = line.metrics { text += "  " + milliseconds(metrics.total) }
        text += "\n"
        let failed = line.assertions.filter { !$0.passed }
        for result in failed {
            text += "      " + palette.failure + "✗" + palette.reset + " " + result.failureText.escapingTerminalControls + "\n"
        }
        if !line.succeeded, failed.isEmpty, let error = line.error {
            text += "      " + error.escapingTerminalControls + "\n"
        }
        return text
    }

    /// The summary: `3 passed, 1 failed, 2 not run (6 requests) in 0.31 s`.
    static func summary(_ summary: RunSummary, palette: Palette) -> String {
        var parts = [
            (summary.failed == 0 ? palette.success : "") + "\(summary.passed) passed" + (summary.failed == 0 ? palette.reset : "")
        ]
        parts.append((summary.failed > 0 ? palette.failure : "") + "\(summary.failed) failed" + (summary.failed > 0 ? palette.reset : ""))
        if summary.notRun > 0 { parts.append("\(summary.notRun) not run") }
        let requests = summary.total == 1 ? "1 request" : "\(summary.total) requests"
        return parts.joined(separator: ", ") + " (\(requests)) in " + milliseconds(summary.seconds) + "\n"
    }

    /// A time as `13 ms`, `1.2 s` from a second up, `2:05` from a minute up.
    private static func milliseconds(_ seconds: Double) -> String {
        if seconds < 1 { return String(Int((seconds * 1000).rounded())) + " ms" }
        if seconds < 60 { return String(Int(seconds)) + "." + String(Int(seconds * 10) % 10) + " s" }
        return ByteCountText.duration(seconds)
    }
}
