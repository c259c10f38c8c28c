import AFKit

/// The reporter of `afcli run`: one line per request on standard output, in completion order
/// (`RunLine`): NDJSON for pipes and files, or the readable `RunTestLine` with `--test` and on a
/// terminal; each final body streamed into its file with `--output-dir` and otherwise dropped as
/// it arrives; the `--report` files; the live status line on standard error while the run goes,
/// and the summary at the end.
final class RunLineReporter: RunReporter {
    /// What standard output gets for each request.
    enum Style {
        /// One NDJSON record a line.
        case ndjson
        /// `RunTestLine`s and a summary, coloured with the palette.
        case readable(Palette)
    }

    private let style: Style
    /// The `--report` files, told each request as it ends.
    private let reports: [any RunReportWriter]
    private let directory: BatchOutputDirectory?
    private let output: OutputStream
    private var status: RunStatusLine
    /// Whether the run caches, so every line tells what the cache did.
    private let usesCache: Bool
    /// Whether standard output shares the terminal with the live line, which must then be
    /// cleared before lines are written there.
    private let stdoutIsTerminal: Bool
    /// Whether lines were written since the last flush.
    private var wroteLines = false
    /// When the run started, in seconds since 1970, for the reports.
    private let startDate = WallClock.now()

    init(
        total: Int, directory: BatchOutputDirectory?, output: OutputStream, stderrIsTerminal: Bool,
        stdoutIsTerminal: Bool = false, usesCache: Bool = false, style: Style = .ndjson,
        reports: [any RunReportWriter] = []
    ) {
        self.style = style
        self.reports = reports
        self.directory = directory
        self.output = output
        self.usesCache = usesCache
        self.stdoutIsTerminal = stdoutIsTerminal
        status = RunStatusLine(total: total, isLive: stderrIsTerminal, startedAt: FileIO.monotonicSeconds())
    }

    var showsRequestHeads: Bool { !reports.isEmpty }

    func begin(_ index: Int, entry: PlanEntry, request: inout PlannedRequest) throws -> ReportedExchange {
        ReportedExchange(delegate: BodyFileSink(name: entry.name, index: index, directory: directory), printer: nil)
    }

    func completed(_ exchange: ExchangeInFlight, _ completion: ExchangeCompletion) throws {
        guard let sink = exchange.receiver as? BodyFileSink else { return }
        let recorder = exchange.recorder
        guard case .success = completion.result else {
            try? sink.finish()
            return
        }
        // Warned of only when a body passed through (not for a HEAD, a 204 or a 304).
        if let kept = recorder.finalHead?.keptCoding, recorder.bodyBytes > 0, !exchange.options.values.output.quiet {
            status.clear()
            ErrorReporter.warn(
                "\(exchange.entry.name): \(kept.field) \(kept.coding) is not a coding afcli can decode: "
                    + "the body is kept as received")
        }
        try sink.finish()
    }

    func report(_ finished: FinishedExchange) throws {
        let running = finished.exchange
        let sink = running.receiver as? BodyFileSink
        var line = RunLine(name: running.entry.name, method: running.method, url: running.url)
        let recorder = running.recorder
        line.statusCode = recorder.finalHead?.statusCode
        line.bytes = recorder.bodyBytes
        line.usesCache = usesCache
        line.cache = finished.completion.cache
        line.retry = finished.completion.retry
        line.file = sink?.path
        switch finished.completion.result {
        case .success(let exchange):
            line.statusCode = exchange.statusCode
            line.redirects = exchange.redirectCount
            // An answer from the store had no transfer: no times, no connection.
            if line.cache?.isStoredAnswer != true { line.metrics = exchange.outcome.metrics }
            line.httpVersion = exchange.head.httpVersion
        case .failure:
            // A request that was sent keeps its measured times, whatever failed after (its
            // decryption, a redirect refused); a cache hit had no transfer.
            if let metrics = finished.completion.metrics {
                line.metrics = metrics
                line.metricsEndAtFailure = finished.completion.transferFailed
            }
        }
        line.assertions = finished.outcome.assertions
        line.assertionTries = finished.tries
        line.apply(finished.verdict)
        try write(line, origin: running.entry.origin)
        guard !reports.isEmpty else { return }
        var record = RunRecord(line: line, origin: running.entry.origin)
        record.responseHead = recorder.finalHead
        let resolved = running.options.settings
        record.redaction = HeaderRedaction(
            revealing: resolved.options.request.showSecrets, request: running.request, profile: resolved.profile)
        if let request = running.request {
            record.requestHeaders = request.headers
            record.requestBodySize = request.bodyBytes.map { Int64($0.count) } ?? request.body?.length.map(Int64.init)
            let settings = running.settings ?? TransferSettings()
            let secrets = CurlSecrets(redaction: record.redaction)
            record.curlCommand = { (try? CurlCommand(request: request, options: settings, secrets: secrets))?.shellLine }
        }
        try tell(record)
    }

    /// Tells every report of a request that ended.
    private func tell(_ record: RunRecord) throws {
        for report in reports { try report.add(record) }
    }

    func didNotStart(_ index: Int, entry: PlanEntry, method: String, url: String, error: any Error) throws {
        var line = RunLine(name: entry.name, method: method, url: url)
        line.apply(OutcomeJudge.Verdict(failure: error))
        try write(line, origin: entry.origin)
        try tell(RunRecord(line: line, origin: entry.origin))
    }

    func cancelled(_ exchange: ExchangeInFlight, _ completion: ExchangeCompletion) throws {
        try? (exchange.receiver as? BodyFileSink)?.finish()
        var line = RunLine(name: exchange.entry.name, method: exchange.method, url: exchange.url)
        line.statusCode = exchange.recorder.finalHead?.statusCode
        line.bytes = exchange.recorder.bodyBytes
        line.metrics = completion.metrics
        line.metricsEndAtFailure = true
        line.error = "interrupted"
        line.status = .interrupted
        try write(line, origin: exchange.entry.origin)
        try tell(RunRecord(line: line, origin: exchange.entry.origin))
    }

    func tick(running: Int) throws {
        if wroteLines && stdoutIsTerminal { status.clear() }
        try output.flush()
        wroteLines = false
        status.running = running
        status.draw(now: FileIO.monotonicSeconds())
    }

    func ended(notStarted: Int, interrupted: Bool) throws {
        let now = FileIO.monotonicSeconds()
        let counts = RunSummary(
            passed: status.succeeded, failed: status.failed, notRun: notStarted, seconds: now - status.startedAt,
            startDate: startDate)
        // The live line goes first: the summary may share its terminal.
        status.clear()
        if case .readable(let palette) = style { try output.write(RunTestLine.summary(counts, palette: palette)) }
        try output.flush()
        let summary = status.summary(notStarted: notStarted, now: now, interrupted: interrupted)
        // The readable summary said it already, unless an interrupt is to be told.
        if case .readable = style, !interrupted {
        } else if status.isLive || interrupted {
            StandardError.write(summary + "\n")
        }
        for report in reports { try report.finish(counts) }
    }

    /// Writes a request's line, counts it, and tells a failure on standard error (a readable
    /// line tells it itself).
    private func write(_ line: RunLine, origin: String) throws {
        wroteLines = true
        status.count(succeeded: line.succeeded)
        if case .readable(let palette) = style {
            if stdoutIsTerminal { status.clear() }
            try output.write(RunTestLine.text(line, palette: palette))
            return
        }
        try output.write(line.jsonLine())
        // An interrupt is told once, by the summary.
        guard !line.succeeded, line.status != .interrupted else { return }
        status.clear()
        let message = line.error ?? "failed"
        // A preparation error already names where in the source it was written.
        let source = origin.split(separator: ":").first.map { String($0) + ":" } ?? origin
        let place = origin.isEmpty || message.hasPrefix(source) ? "" : " (\(origin))"
        ErrorReporter.error("\(line.name)\(place): \(message)")
    }
}
