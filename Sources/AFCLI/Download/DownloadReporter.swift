import AFKit
import Glibc

/// Tells a download's runner plan on standard error: the progress meter while data flows
/// (`--progress`), warnings (restarts, retries, renames), one line per saved file, each failure
/// (with its URL when there are several), and a summary at the end when there are several;
/// `--quiet` keeps only errors. Each entry's events go to its `DownloadExchange`, which plans its
/// tries.
final class DownloadReporter: DownloadObserver, RunReporter {
    /// The download of each entry, and its URL as given.
    private let jobs: [DownloadJob]
    private let urls: [String]
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
    /// The warnings about files on disk given so far.
    private var warned: Set<String> = []
    /// The download under way.
    private var current: DownloadExchange?
    private var summary = DownloadSummary()

    init(jobs: [DownloadJob], urls: [String], style: ProgressStyle, stderrIsTerminal: Bool, quiet: Bool) {
        self.jobs = jobs
        self.urls = urls
        self.style = style
        self.stderrIsTerminal = stderrIsTerminal
        self.quiet = quiet
    }

    // MARK: - RunReporter

    func begin(_ index: Int, entry: PlanEntry, request: inout PlannedRequest) throws -> ReportedExchange {
        // A new file starts: its percent lines start again from 0.
        endMeter(completed: false)
        percentPrinted = -1
        let exchange = DownloadExchange(job: jobs[index], observer: self)
        current = exchange
        return ReportedExchange(delegate: exchange, printer: nil, tries: exchange)
    }

    /// Tells at once how a download ended (before the next one starts, which the runner's serial
    /// engine completes before it reports this one).
    func completed(_ exchange: ExchangeInFlight, _ completion: ExchangeCompletion) throws {
        if case .failure(let error) = completion.result { return failed(exchange.index, error) }
        guard let result = current?.result else { return }
        if !quiet, result.path != nil {
            // Nothing for standard output, which may be feeding a pipeline (`| tar x`).
            StandardError.write("afcli: " + Self.describe(result).escapingControlsOnOneLine + "\n")
        }
        summary.add(url: urls[exchange.index], result: result)
    }

    func report(_ finished: FinishedExchange) throws {}

    func didNotStart(_ index: Int, entry: PlanEntry, method: String, url: String, error: any Error) throws {
        failed(index, error)
    }

    func cancelled(_ exchange: ExchangeInFlight, _ completion: ExchangeCompletion) throws {
        if case .failure(let error) = completion.result { failed(exchange.index, error) }
    }

    func tick(running: Int) throws {}

    func ended(notStarted: Int, interrupted: Bool) throws {
        if !interrupted, jobs.count > 1, !quiet { summary.print() }
    }

    var showsRequestHeads: Bool { false }

    /// Reports the failure of download `index`: as any command's error for one URL or an
    /// interrupt (which stops them all), else saying which URL failed (the summary repeats it).
    private func failed(_ index: Int, _ error: any Error) {
        let (code, message, _) = ErrorReporter.classify(error)
        if jobs.count == 1 || code == .interrupted {
            _ = ErrorReporter.report(error)
            return
        }
        _ = ErrorReporter.report(LocatedError(origin: urls[index], underlying: error))
        summary.add(url: urls[index], failure: message)
    }

    // MARK: - DownloadObserver

    func downloadDidStart(name: String, total: Int64?, alreadyDone: Int64) {
        endMeter(completed: false)
        meter = ProgressMeter(
            style: style, stderrIsTerminal: stderrIsTerminal, label: FileIO.baseName(of: name), total: total,
            alreadyDone: alreadyDone, percentPrinted: percentPrinted)
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

    func downloadWarningOnce(_ message: String) {
        if warned.insert(message).inserted { downloadWarning(message) }
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
