import AFKit
import Glibc

/// Shows a download on standard error: the progress meter while data flows (`--progress`),
/// warnings (restarts, retries, renames), and one line per saved file; `--quiet` keeps only
/// errors.
final class DownloadReporter: DownloadObserver {
    /// How progress is drawn, `--quiet` already applied.
    private let style: ProgressStyle
    /// Whether standard error is a terminal (for `auto`).
    private let stderrIsTerminal: Bool
    /// Whether to print nothing but errors.
    private let quiet: Bool
    /// The meter of the transfer under way.
    private var meter: ProgressMeter?
    /// The last percent line printed for the current file: a retry, or a restart from zero,
    /// prints no line until it passes it, so the lines of one file never go back.
    private var percentPrinted = -1

    init(style: ProgressStyle, stderrIsTerminal: Bool, quiet: Bool) {
        self.style = style
        self.stderrIsTerminal = stderrIsTerminal
        self.quiet = quiet
    }

    func downloadDidStart(name: String, total: Int64?, alreadyDone: Int64) {
        endMeter(completed: false)
        meter = ProgressMeter(
            style: style, stderrIsTerminal: stderrIsTerminal, label: FileIO.baseName(of: name), total: total,
            alreadyDone: alreadyDone, percentPrinted: percentPrinted)
    }

    /// A new file starts: its percent lines start again from 0.
    func startFile() {
        endMeter(completed: false)
        percentPrinted = -1
    }

    /// Ends the meter under way, keeping the last percent it printed.
    private func endMeter(completed: Bool) {
        guard let meter else { return }
        if completed { meter.finish() } else { meter.fail() }
        percentPrinted = meter.lastPercent
        self.meter = nil
    }

    func downloadDidProgress(done: Int64) {
        meter?.update(done: done)
    }

    func downloadDidStop(completed: Bool) {
        endMeter(completed: completed)
    }

    func downloadWarning(_ message: String) {
        // A warning in the middle of a bar would share its line: end the bar first.
        endMeter(completed: false)
        guard !quiet else { return }
        ErrorReporter.warn(message)
    }

    /// Reports a finished download: `afcli: saved NAME (SIZE)`, with what resuming saved; nothing
    /// for standard output, which may be feeding a pipeline (`| tar x`).
    func saved(_ result: DownloadResult) {
        guard !quiet, result.path != nil else { return }
        StandardError.write("afcli: " + Self.describe(result).escapingControlsOnOneLine + "\n")
    }

    /// The one-line account of a result, shared with the summary.
    static func describe(_ result: DownloadResult) -> String {
        let name = result.path ?? "standard output"
        let size = ByteCountText.size(result.size)
        if result.alreadyComplete {
            return "\(name) was already complete (\(size)\(result.sha256 == nil ? "" : ", SHA-256 verified"))"
        }
        var details = [size]
        if result.resumedFrom > 0 { details.append("resumed at \(ByteCountText.size(result.resumedFrom))") }
        if result.retries > 0 { details.append("\(result.retries) \(result.retries == 1 ? "retry" : "retries")") }
        if result.sha256 != nil { details.append("SHA-256 verified") }
        let verb = result.path == nil ? "wrote" : "saved"
        return "\(verb) \(name) (\(details.joined(separator: ", ")))"
    }
}

/// The account of several downloads printed at the end of `afcli download URL1 URL2 …`.
struct DownloadSummary {
    /// One line per URL, in order.
    private var lines: [(ok: Bool, text: String)] = []

    /// Records a download that finished.
    mutating func add(url: String, result: DownloadResult) {
        lines.append((true, DownloadReporter.describe(result)))
    }

    /// Records a download that failed.
    mutating func add(url: String, failure message: String) {
        lines.append((false, "failed \(url): \(message)"))
    }

    /// The summary text: a count, then a line per URL.
    var text: String {
        let failed = lines.filter { !$0.ok }.count
        var text = "afcli: \(lines.count) downloads, \(lines.count - failed) complete, \(failed) failed\n"
        for line in lines { text += "  \(line.text.escapingControlsOnOneLine)\n" }
        return text
    }

    /// Prints the summary on standard error.
    func print() {
        StandardError.write(text)
    }
}
