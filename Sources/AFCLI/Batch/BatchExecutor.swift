import AFKit
import Glibc

/// Runs the entries of a batch on one `MultiClient` (behind a `CachingEngine` when the run
/// caches): starts them as the `BatchScheduler` allows, preparing each only when it is about to
/// start (so 10,000 queued entries hold no prepared bodies), writes one NDJSON line per request
/// in completion order, and keeps the live status on stderr.
///
/// Building a request overlaps the network wait instead of following it. One after the other
/// (`--parallel 1`), the request that starts next is prepared while the current one is in
/// flight: at most 2 are prepared at any time. In parallel, a worker thread prepares requests in
/// the order they start, at most `--parallel` ahead, while this thread drives the transfers: at
/// most twice `--parallel` are prepared at any time.
///
/// Ctrl-C stops new starts and cancels the transfers in flight, each reported as interrupted; the
/// summary is printed and the run exits 130.
final class BatchExecutor {
    /// A request in flight: what its report needs besides the engine's completion.
    private struct InFlight {
        let sink: BatchBodySink
        /// What its events recorded: the final head, the body's size and start.
        let recorder: OutcomeRecorder
        /// The envelope stage before the sink (`--envelope`), read once the answer is in.
        let envelope: EnvelopeDelegate?
        let method: String
        let url: String
        /// How its outcome is judged: `--accept-status`/`--accept-type`, else `--check-status`.
        let judge: OutcomeJudge
        /// The options it is sent with.
        let options: SharedOptions
        /// What its request log block says of the request; nil when the run does not log.
        let logFields: RequestLogFields?
    }

    private let entries: [BatchEntry]
    private let directory: BatchOutputDirectory?
    private let output: OutputStream
    private var scheduler: BatchScheduler
    private var status: BatchStatus
    private var inFlight: [Int: InFlight] = [:]
    /// The request that starts next, prepared while others were in flight (or its failure).
    private var preparedAhead: (index: Int, request: Result<BatchRequest, any Error>)?
    /// In parallel, the thread preparing the requests ahead, in the order they start.
    private var worker: AheadWorker<(index: Int, request: Result<BatchRequest, any Error>)>?
    /// The transfer settings, made once per distinct set of options.
    private var settingsCache: BatchClientSettings
    /// The response cache stage of the run (`--cache`), nil when off: put in front of the multi
    /// handle as a `CachingEngine` when the run starts.
    private let cache: ResponseCache?
    /// Where the request log goes (`--log=cj`, `--log-file`); nil when the run does not log.
    private let logDescriptor: Int32?
    /// The exit status of the first request that failed, in completion order.
    private var firstFailure: ExitStatus?
    /// Whether standard output shares the terminal with the live line, which must then be
    /// cleared before lines are written there.
    private let stdoutIsTerminal: Bool
    /// Whether lines were written since the last flush.
    private var wroteLines = false
    /// What the run's cookie engine starts from and is written back to; nil for neither.
    private var cookieStore: RunCookieStore?
    /// When the entries were ready and the multi handle created: the start of every request's
    /// queue time.
    private var readyAt: Double

    init(
        entries: [BatchEntry], options: OptionValues, environment: [String: String],
        directory: BatchOutputDirectory?, output: OutputStream, stderrIsTerminal: Bool, stdoutIsTerminal: Bool = false,
        cache: ResponseCache? = nil, logDescriptor: Int32? = nil, cookieStore: RunCookieStore? = nil
    ) {
        self.cookieStore = cookieStore
        settingsCache = BatchClientSettings(environment: environment)
        self.cache = cache
        self.logDescriptor = logDescriptor
        self.stdoutIsTerminal = stdoutIsTerminal
        self.entries = entries
        self.directory = directory
        self.output = output
        scheduler = BatchScheduler(
            isKeeper: entries.map(\.isKeeper), parallel: options.parallel ?? 1, keepGoing: options.keepGoing)
        readyAt = FileIO.monotonicSeconds()
        status = BatchStatus(total: entries.count, isLive: stderrIsTerminal, startedAt: readyAt)
    }

    /// Runs every entry the schedule allows and returns the run's exit status: 0 when all
    /// succeeded, 130 when interrupted, else the status of the first failure.
    func run() throws -> ExitStatus {
        // libcurl's own bound matches the run's: never more connections open than requests in flight.
        let client = try MultiClient(
            maxConnections: scheduler.parallel, cookies: cookieStore?.seed ?? CookieSettings())
        // The cache's decorator only when the run caches: the plain path pays nothing for it.
        let engine: any ExchangeEngine =
            cache.map { CachingEngine(wrapping: client, cache: $0, revalidatesLater: false) } ?? client
        readyAt = FileIO.monotonicSeconds()
        status = BatchStatus(total: entries.count, isLive: status.isLive, startedAt: readyAt)
        if scheduler.parallel > 1 && entries.count > 1 {
            let order = scheduler.order
            let entries = entries
            worker = AheadWorker(count: order.count, capacity: scheduler.parallel) { position in
                (order[position], Result { try entries[order[position]].prepare() })
            }
        }
        defer { worker?.stop() }
        var interrupted = false
        while !scheduler.isDone {
            if Interruption.isInterrupted {
                interrupted = true
                scheduler.stop()
                for each in engine.cancelAll() { try cancelled(each) }
                break
            }
            while let index = scheduler.next() { try start(index, on: engine) }
            if engine.inFlight > 0 {
                // Drives the transfers first (the new requests go out), then builds the next
                // request while the servers answer, then waits.
                var finished = try engine.run()
                if finished.isEmpty {
                    prepareAhead()
                    try engine.poll(timeoutMilliseconds: 100)
                    finished = try engine.run()
                }
                for each in finished { try report(each) }
            }
            if wroteLines && stdoutIsTerminal { status.clear() }
            try output.flush()
            wroteLines = false
            status.running = engine.inFlight
            status.draw(now: FileIO.monotonicSeconds())
        }
        // Transfers may have ended on the interrupt themselves, stopping the run before the loop saw it.
        if Interruption.isInterrupted { interrupted = true }
        try output.flush()
        status.clear()
        let summary = status.summary(
            notStarted: scheduler.notStarted, now: FileIO.monotonicSeconds(), interrupted: interrupted)
        if status.isLive || interrupted { StandardError.write(summary + "\n") }
        if var cookieStore {
            let lines = client.cookieLines
            try cookieStore.save(lines: lines, changed: client.cookiesChanged(lines))
        }
        if interrupted { return .interrupted }
        return firstFailure ?? .success
    }

    /// Prepares the request that starts next, unless one is prepared already or a worker does.
    private func prepareAhead() {
        guard worker == nil, preparedAhead == nil, let index = scheduler.upcoming else { return }
        preparedAhead = (index, Result { try entries[index].prepare() })
    }

    /// The request of entry `index`: the worker's, the one prepared ahead, or one prepared now.
    private func request(_ index: Int) throws -> BatchRequest {
        if let worker {
            if let made = worker.next(), made.index == index { return try made.request.get() }
            // The schedule starts requests in the worker's order; should that ever differ, the
            // rest are prepared here.
            worker.stop()
            self.worker = nil
        }
        if let ahead = preparedAhead, ahead.index == index {
            preparedAhead = nil
            return try ahead.request.get()
        }
        return try entries[index].prepare()
    }

    /// Prepares entry `index` and hands it to `engine`; a failure to build or start it is
    /// reported as that request's failure.
    private func start(_ index: Int, on engine: any ExchangeEngine) throws {
        let entry = entries[index]
        var method = ""
        var url = ""
        let sink = BatchBodySink(name: entry.name, index: index, directory: directory)
        do {
            let request = try request(index)
            method = request.prepared.method
            url = request.prepared.targetURI
            let settings = try settingsCache.settings(
                for: request.shared.values, identity: request.optionsIdentity, url: url)
            let logFields = logDescriptor == nil ? nil : request.logFields
            let envelope = request.envelope.map { EnvelopeDelegate(next: sink, spec: $0) }
            let recorder = OutcomeRecorder(next: envelope ?? sink)
            recorder.keepsBodyForLog = logFields != nil
            inFlight[index] = InFlight(
                sink: sink, recorder: recorder, envelope: envelope, method: method, url: url,
                judge: OutcomeJudge(options: request.shared.values), options: request.shared, logFields: logFields)
            // A final 2xx body is decrypted on its way to the recorder, the envelope and the sink,
            // stored ones included.
            let delegate: HTTPClientDelegate =
                request.decryptCommand.map { DecryptingDelegate(next: recorder, command: $0) } ?? recorder
            let order = ExchangeOrder(
                request.prepared, delegate: delegate, options: settings, tag: index, readyAt: readyAt,
                sendsCookies: request.sendsCookies)
            // Answered at once (from the cache): nothing goes to the network.
            if let completed = try engine.start(order) { try report(completed) }
        } catch {
            inFlight[index] = nil
            var report = BatchReport(name: entry.name, method: method, url: url)
            report.apply(OutcomeJudge.Verdict(failure: error))
            try finish(index, report)
        }
    }

    /// Reports the end of an exchange; `ended` carries the times of its last transfer and what
    /// the cache did.
    private func report(_ ended: ExchangeCompletion) throws {
        let index = ended.tag
        guard let running = inFlight.removeValue(forKey: index) else { return }
        let result = ended.result
        var report = BatchReport(name: entries[index].name, method: running.method, url: running.url)
        let recorder = running.recorder
        report.statusCode = recorder.finalHead?.statusCode
        report.bytes = recorder.bodyBytes
        report.usesCache = cache != nil
        report.cache = ended.cache
        var outcome = recorder.outcome(result, cache: report.cache)
        // A body file that cannot be written fails the request, though its exchange succeeded.
        var saving: (any Error)?
        switch result {
        case .success(let exchange):
            report.statusCode = exchange.statusCode
            // Warned of only when a body passed through (not for a HEAD, a 204 or a 304).
            if let kept = recorder.finalHead?.keptCoding, recorder.bodyBytes > 0, !running.options.values.quiet {
                status.clear()
                ErrorReporter.warn(
                    "\(report.name): \(kept.field) \(kept.coding) is not a coding afcli can decode: "
                        + "the body is kept as received")
            }
            report.redirects = exchange.redirectCount
            // An answer from the store had no transfer: no times, no connection.
            if report.cache?.isStoredAnswer != true { report.metrics = exchange.outcome.metrics }
            report.httpVersion = exchange.head.httpVersion
            do {
                outcome.envelope = try running.envelope?.conclude()
            } catch {
                saving = error
            }
            do {
                try running.sink.finish()
                report.file = running.sink.path
            } catch {
                saving = saving ?? error
            }
        case .failure:
            try? running.sink.finish()
            report.file = running.sink.path
            // A request that was sent keeps its measured times, whatever failed after (its
            // decryption, a redirect refused); a cache hit had no transfer.
            if let metrics = ended.metrics {
                report.metrics = metrics
                report.metricsEndAtFailure = ended.transferFailed
            }
        }
        var judged = outcome
        if let saving { judged.transferError = saving }
        report.apply(running.judge.verdict(judged))
        log(running, outcome)
        try finish(index, report)
    }

    /// Writes request `running`'s block of the request log, when the run logs: the response
    /// (its body when the judge accepts it, else the failure text for its status), or the
    /// failure of a request that got none.
    private func log(_ running: InFlight, _ outcome: ExchangeOutcome) {
        guard let logDescriptor, let fields = running.logFields else { return }
        let logger = RequestLogger(descriptor: logDescriptor, owning: false, fields: fields)
        if outcome.cache?.isStoredAnswer == true { logger.answeredFromCache() }
        let head = running.recorder.finalHead
        guard outcome.transferError == nil, head != nil, let statusCode = outcome.statusCode else {
            logger.failed(statusCode: head?.statusCode)
            return
        }
        logger.responded(
            statusCode: statusCode, accepted: running.judge.accepts(outcome), body: running.recorder.loggedBody)
    }

    /// Reports a request as interrupted (Ctrl-C cancelled its transfer), with its times so far.
    private func cancelled(_ ended: ExchangeCompletion) throws {
        let index = ended.tag
        guard let running = inFlight.removeValue(forKey: index) else { return }
        try? running.sink.finish()
        var report = BatchReport(name: entries[index].name, method: running.method, url: running.url)
        report.statusCode = running.recorder.finalHead?.statusCode
        report.bytes = running.recorder.bodyBytes
        report.metrics = ended.metrics
        report.metricsEndAtFailure = true
        report.error = "interrupted"
        report.status = .interrupted
        try finish(index, report)
    }

    /// Writes the request's line, counts it and tells the schedule.
    private func finish(_ index: Int, _ report: BatchReport) throws {
        try output.write(report.jsonLine())
        wroteLines = true
        status.count(succeeded: report.succeeded)
        scheduler.finished(index, succeeded: report.succeeded)
        guard !report.succeeded else { return }
        if firstFailure == nil { firstFailure = report.status }
        // An interrupt is told once, by the summary.
        guard report.status != .interrupted else { return }
        status.clear()
        let origin = entries[index].origin
        let message = report.error ?? "failed"
        // A preparation error already names where the request was written.
        let place = origin.isEmpty || message.hasPrefix(origin + ":") ? "" : " (\(origin))"
        ErrorReporter.error("\(report.name)\(place): \(message)")
    }
}
