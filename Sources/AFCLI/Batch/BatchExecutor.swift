import AFKit
import Glibc

/// Runs the entries of a batch on one `MultiClient`: starts them as the `BatchScheduler` allows,
/// preparing each only when it is about to start (so 10,000 queued entries hold no prepared
/// bodies), writes one NDJSON line per request in completion order, and keeps the live status on
/// stderr.
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
    /// A request in flight: what its report needs besides the client's result.
    private struct InFlight {
        let sink: BatchBodySink
        let method: String
        let url: String
        /// How its final response is judged: `--accept-status`/`--accept-type`, else `--check-status`.
        let validator: ResponseValidator?
        let checkStatus: Bool
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
    /// The exit status of the first request that failed, in completion order.
    private var firstFailure: ExitStatus?
    /// Whether standard output shares the terminal with the live line, which must then be
    /// cleared before lines are written there.
    private let stdoutIsTerminal: Bool
    /// Whether lines were written since the last flush.
    private var wroteLines = false
    /// When the entries were ready and the multi handle created: the start of every request's
    /// queue time.
    private var readyAt: Double

    init(
        entries: [BatchEntry], options: OptionValues, environment: [String: String],
        directory: BatchOutputDirectory?, output: OutputStream, stderrIsTerminal: Bool, stdoutIsTerminal: Bool = false
    ) {
        settingsCache = BatchClientSettings(environment: environment)
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
        let client = try MultiClient(maxConnections: scheduler.parallel)
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
                for index in client.cancelAll() { try cancelled(index) }
                break
            }
            while let index = scheduler.next() { try start(index, on: client) }
            if client.inFlight > 0 {
                // Drives the transfers first (the new requests go out), then builds the next
                // request while the servers answer, then waits.
                var finished = try client.run()
                if finished.isEmpty {
                    prepareAhead()
                    try client.poll(timeoutMilliseconds: 100)
                    finished = try client.run()
                }
                for each in finished { try report(each.tag, result: each.result) }
            }
            if wroteLines && stdoutIsTerminal { status.clear() }
            try output.flush()
            wroteLines = false
            status.running = client.inFlight
            status.draw(now: FileIO.monotonicSeconds())
        }
        // Transfers may have ended on the interrupt themselves, stopping the run before the loop saw it.
        if Interruption.isInterrupted { interrupted = true }
        try output.flush()
        status.clear()
        let summary = status.summary(
            notStarted: scheduler.notStarted, now: FileIO.monotonicSeconds(), interrupted: interrupted)
        if status.isLive || interrupted { StandardError.write(summary + "\n") }
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

    /// Prepares entry `index` and hands it to `client`; a failure to build or start it is
    /// reported as that request's failure.
    private func start(_ index: Int, on client: MultiClient) throws {
        let entry = entries[index]
        var method = ""
        var url = ""
        let sink = BatchBodySink(name: entry.name, index: index, directory: directory)
        do {
            let request = try request(index)
            method = request.prepared.method
            url = request.prepared.url
            let settings = try settingsCache.settings(
                for: request.shared.values, identity: request.optionsIdentity, url: url)
            inFlight[index] = InFlight(
                sink: sink, method: method, url: url, validator: ResponseChecks.validator(request.shared.values),
                checkStatus: request.shared.values.checkStatus)
            try client.start(request.prepared, options: settings, delegate: sink, tag: index, readyAt: readyAt)
        } catch {
            inFlight[index] = nil
            var report = BatchReport(name: entry.name, method: method, url: url)
            fail(&report, error)
            try finish(index, report)
        }
    }

    /// Reports the end of request `index`.
    private func report(_ index: Int, result: Result<HTTPClientResult, any Error>) throws {
        guard let running = inFlight.removeValue(forKey: index) else { return }
        var report = BatchReport(name: entries[index].name, method: running.method, url: running.url)
        report.statusCode = running.sink.finalHead?.statusCode
        report.bytes = running.sink.bytes
        switch result {
        case .success(let exchange):
            report.statusCode = exchange.statusCode
            report.redirects = exchange.redirectCount
            report.metrics = exchange.outcome.metrics
            report.httpVersion = exchange.head.httpVersion
            do {
                try running.sink.finish()
                report.file = running.sink.path
                judge(&report, exchange, validator: running.validator, checkStatus: running.checkStatus)
            } catch {
                fail(&report, error)
            }
        case .failure(let error):
            try? running.sink.finish()
            report.file = running.sink.path
            if let metrics = (error as? CurlError)?.metrics {
                report.metrics = metrics
                report.metricsEndAtFailure = true
            }
            fail(&report, error)
        }
        try finish(index, report)
    }

    /// Reports request `index` as interrupted (Ctrl-C cancelled its transfer).
    private func cancelled(_ index: Int) throws {
        guard let running = inFlight.removeValue(forKey: index) else { return }
        try? running.sink.finish()
        var report = BatchReport(name: entries[index].name, method: running.method, url: running.url)
        report.statusCode = running.sink.finalHead?.statusCode
        report.bytes = running.sink.bytes
        report.error = "interrupted"
        report.status = .interrupted
        try finish(index, report)
    }

    /// Decides whether a response counts as a success: AF validation when `--accept-status` or
    /// `--accept-type` was given, else `--check-status` (on by default: 3xx, 4xx, 5xx fail).
    private func judge(
        _ report: inout BatchReport, _ exchange: HTTPClientResult, validator: ResponseValidator?, checkStatus: Bool
    ) {
        let code = exchange.statusCode
        if let validator {
            let contentType = exchange.head.value(for: "Content-Type")
            if let failure = validator.validate(
                statusCode: code, contentType: contentType, bodyLength: Int(clamping: report.bytes))
            {
                report.status = ResponseChecks.exitStatus(for: failure)
                report.error = failure.description
            }
            return
        }
        report.status = ExitStatus.forFinalResponse(code: code, checkStatus: checkStatus)
        if report.status != .success { report.error = "HTTP \(code) \(exchange.reasonPhrase)" }
    }

    /// Records `error` as the request's failure, in afcli's wording and with its exit status.
    private func fail(_ report: inout BatchReport, _ error: any Error) {
        let (exit, message, _) = ErrorReporter.classify(error)
        report.status = exit == .success ? .failure : exit
        report.error = message
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
        StandardError.write("afcli: error: \(report.name)\(place): \(message)\n")
    }
}
