import AFKit
import Glibc

/// What a `Runner` runs: the entries of a source (the command line's one request, the lines of
/// `run -`, the requests of a `.http` file) and how the run goes.
struct RunPlan {
    var entries: [PlanEntry]
    /// Requests in flight at most (`--parallel`).
    var parallel = 1
    /// Whether the requests after a failed one still run (`--keep-going`).
    var keepGoing = false
    /// Where each request's transfer settings come from (`EngineStack.runner` gives its own).
    var transferSettings: any TransferSettingsSource = FixedTransferSettings(settings: TransferSettings())
    /// Where the request log goes (`--log=cj`, `--log-file`); nil when nothing is logged.
    var logDescriptor: Int32?
    /// Where the exchanges later entries take values from are kept (`PlanEntry.archivedAs`).
    var archive: ExchangeArchive? = nil
    /// Seconds between the tries of a request whose assertions failed (`--retry-interval`).
    var retryInterval = 1.0
}

/// How a runner delivers its plan's requests: sent on an exchange engine, or shown instead
/// (`--offline`, `--curl`).
enum RunDelivery {
    case send(any ExchangeEngine)
    case show(any RequestPreviewer)
}

/// The one runner (DESIGN §3): drives the entries of a `RunPlan` over an exchange engine, the
/// same for a single request (a plan of one, on the serial easy-handle engine), for `afcli
/// download` (one entry per URL, on the serial engine) and for `afcli run` (on the multi handle),
/// with the cache a decorator of the engine when it is on.
///
/// For each entry it prepares the request (only when it is about to start, so 10,000 queued
/// entries hold no prepared bodies), wraps the reporter's receiver in the event stages
/// (decryption → outcome recorder → envelope), starts it, and when the engine completes it, has
/// the `OutcomeJudge` decide its verdict, writes its request log block and tells the reporter.
///
/// Building a request and telling how the last one ended overlap the network wait instead of
/// following it: an exchange is judged as soon as it ends (the next may depend on its verdict),
/// but reported once the requests that could then start were sent. The request that starts next
/// is prepared while the others are in flight: at most one more than are in flight is prepared at
/// any time. Everything runs on the calling thread: the engine's transfers (one multi handle for
/// a run, as curl -Z drives its), their event stages, and the preparing, judging and reporting.
///
/// Ctrl-C stops new starts and cancels the exchanges in flight, each reported as interrupted; the
/// run then returns 130.
final class Runner {
    private let entries: [PlanEntry]
    private var plan: RunPlan
    /// The engine the requests are sent on; nil when they are shown instead.
    private let engine: (any ExchangeEngine)?
    private let previewer: (any RequestPreviewer)?
    private let reporter: any RunReporter
    private var scheduler: BatchScheduler
    private var inFlight: [Int: ExchangeInFlight] = [:]
    /// The request that starts next, prepared while others were in flight (or its failure).
    private var preparedAhead: (index: Int, request: Result<PlannedRequest, any Error>)?
    /// The exit status of the first request that failed, in completion order.
    private var firstFailure: ExitStatus?
    /// When the run started: the start of every request's queue time.
    private var readyAt = 0.0
    /// How many times each entry sent again so far has been sent.
    private var tries: [Int: Int] = [:]
    /// Entries whose assertions failed, to be sent again at `due` (monotonic seconds).
    private var retries: [(due: Double, index: Int)] = []
    /// Exchanges judged but not reported yet: the reporter is told once the requests their end
    /// let start are on their way.
    private var unreported: [FinishedExchange] = []

    init(plan: RunPlan, delivery: RunDelivery, reporter: any RunReporter) {
        entries = plan.entries
        self.plan = plan
        switch delivery {
        case .send(let engine):
            self.engine = engine
            previewer = nil
        case .show(let previewer):
            engine = nil
            self.previewer = previewer
        }
        self.reporter = reporter
        let dependencies = plan.entries.contains { !$0.dependencies.isEmpty } ? plan.entries.map(\.dependencies) : []
        scheduler = BatchScheduler(
            isKeeper: plan.entries.map(\.isKeeper), parallel: plan.parallel, keepGoing: plan.keepGoing,
            dependencies: dependencies)
    }

    /// Runs every entry the schedule allows and returns the run's exit status: 0 when all
    /// succeeded, 130 when interrupted, else the status of the first failure.
    func run() throws -> ExitStatus {
        readyAt = FileIO.monotonicSeconds()
        var interrupted = false
        while !scheduler.isDone {
            if Interruption.isInterrupted {
                interrupted = true
                scheduler.stop()
                try reportEnded()
                for each in engine?.cancelAll() ?? [] { try cancelled(each) }
                for retry in retries {
                    let written = entries[retry.index].written()
                    try didNotStart(
                        retry.index, entry: entries[retry.index], method: written.method, url: written.url,
                        error: CurlError.interrupted(signal: Interruption.signal ?? SIGINT))
                }
                retries = []
                break
            }
            try startDueRetries()
            // A serial engine completes each start at once: Ctrl-C stops the starts that would follow.
            while !Interruption.isInterrupted, let index = scheduler.next() { try start(index) }
            if engine?.inFlight ?? 0 == 0, let due = retries.map(\.due).min() {
                // Nothing in flight: wait for the next try, a tenth of a second at a time (Ctrl-C).
                let wait = min(0.1, max(0, due - FileIO.monotonicSeconds()))
                if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            }
            if let engine, engine.inFlight > 0 {
                // Drives the transfers first (the new requests go out), then tells what ended
                // before and builds the next request while the servers answer, then waits.
                var finished = try engine.run()
                try reportEnded()
                try reporter.tick(running: engine.inFlight)
                if finished.isEmpty {
                    prepareAhead()
                    try engine.poll(timeoutMilliseconds: 100)
                    finished = try engine.run()
                }
                for each in finished { try complete(each) }
            } else {
                try reportEnded()
                try reporter.tick(running: 0)
            }
        }
        try reportEnded()
        try reporter.tick(running: engine?.inFlight ?? 0)
        // What the engine still runs for itself (the cache refreshing a stale answer it gave,
        // stale-while-revalidate) ends before the run does, as it does for a single request.
        while !interrupted, let engine, engine.inFlight > 0, !Interruption.isInterrupted {
            for each in try engine.run() { try complete(each) }
            try reportEnded()
            if engine.inFlight > 0 { try engine.poll(timeoutMilliseconds: 100) }
        }
        // Transfers may have ended on the interrupt themselves, stopping the run before the loop saw it.
        if Interruption.isInterrupted { interrupted = true }
        try reporter.ended(notStarted: scheduler.notStarted, interrupted: interrupted)
        if interrupted { return .interrupted }
        return firstFailure ?? .success
    }

    /// Sends again the entries whose assertions failed and whose wait is over, as slots allow
    /// (a due one waits on while every slot is taken), before any new entry starts.
    private func startDueRetries() throws {
        guard !retries.isEmpty else { return }
        let now = FileIO.monotonicSeconds()
        var position = 0
        while position < retries.count {
            let retry = retries[position]
            guard retry.due <= now, scheduler.wake(retry.index) else {
                position += 1
                continue
            }
            retries.remove(at: position)
            try start(retry.index)
        }
    }

    /// Prepares ahead, while the servers answer: the request that starts next, unless one is
    /// prepared already; one that takes values from others only once those have ended.
    private func prepareAhead() {
        guard preparedAhead == nil else { return }
        let index =
            scheduler.upcoming.flatMap { entries[$0].dependencies.isEmpty ? $0 : nil }
            ?? scheduler.upcoming(limit: 1) { !self.entries[$0].dependencies.isEmpty }
        guard let index, tries[index] == nil else { return }
        preparedAhead = (index, Result { try entries[index].prepare() })
    }

    /// The request of entry `index`: the one prepared ahead, or one prepared now (a request sent
    /// again is built again, its body from the start).
    private func request(_ index: Int) throws -> PlannedRequest {
        if let ahead = preparedAhead, ahead.index == index {
            preparedAhead = nil
            return try ahead.request.get()
        }
        return try entries[index].prepare()
    }

    /// Prepares entry `index` and hands it to the engine. A failure to build it is reported as
    /// that request's failure; a failure to start it, as the failure of its exchange.
    private func start(_ index: Int) throws {
        let entry = entries[index]
        var method = ""
        var url = ""
        let running: ExchangeInFlight
        var order: ExchangeOrder
        do {
            var request = try request(index)
            method = request.prepared.method
            url = request.prepared.targetURI
            let settings = try plan.transferSettings.settings(for: request)
            guard engine != nil else {
                try previewer?.show(request, settings: settings)
                scheduler.finished(index, succeeded: true)
                return
            }
            // The request as sent is kept only when a report or a later reference shows it.
            let keepsRequest = reporter.showsRequestHeads || entry.archivedAs != nil
            var shown: PreparedRequest?
            if request.sendsCookies, let engine {
                // A Cookie field joins the run's cookie engine, bound to the request's host, as a
                // Cookie item joins a single request's jar: one Cookie field goes out.
                try engine.adoptCookieFields(of: &request.prepared)
                if keepsRequest {
                    shown = Self.withCookies(request.prepared, engine.cookieHeader(for: request.prepared.url))
                }
            }
            let receiver = try reporter.begin(index, entry: entry, request: &request)
            let logFields = plan.logDescriptor == nil ? nil : request.logFields
            let stages = EventStages(
                receiver: receiver, decryptCommand: request.decryptCommand, envelope: request.envelope)
            stages.recorder.keepsBodyForLog = logFields != nil
            if !request.assertions.isEmpty || entry.archivedAs != nil {
                stages.recorder.keptBodyLimit = max(stages.recorder.keptBodyLimit, ResponseCheck.bodyLimit)
            }
            running = ExchangeInFlight(
                index: index, entry: entry, method: method, url: url, recorder: stages.recorder,
                envelope: stages.envelope, judge: OutcomeJudge(options: request.shared.values), options: request.shared,
                logFields: logFields, receiver: receiver.delegate, assertions: request.assertions,
                request: keepsRequest ? shown ?? request.prepared : nil, settings: keepsRequest ? settings : nil,
                conditionRetries: request.conditionRetries)
            order = ExchangeOrder(
                request.prepared, delegate: stages.first, options: settings, tag: index, readyAt: readyAt,
                sendsCookies: request.sendsCookies)
            order.tries = receiver.tries
        } catch {
            let written = method.isEmpty ? entry.written() : (method: method, url: url)
            try didNotStart(index, entry: entry, method: written.method, url: written.url, error: error)
            return
        }
        inFlight[index] = running
        let completed: ExchangeCompletion?
        do {
            completed = try engine?.start(order)
        } catch {
            // Nothing is in flight for it: its exchange failed at the start.
            completed = ExchangeCompletion(tag: index, result: .failure(error))
        }
        // Answered at once: a serial engine, or the cache's stored answer.
        if let completed { try complete(completed) }
    }

    /// `request` as sent with the cookies the engine sends it (`cookies`, a `Cookie` value).
    private static func withCookies(_ request: PreparedRequest, _ cookies: String?) -> PreparedRequest {
        guard let cookies else { return request }
        var sent = request
        sent.headers.append(HTTPField(name: "Cookie", value: cookies))
        return sent
    }

    /// Judges the end of an exchange, logs it and has the reporter tell it.
    private func complete(_ ended: ExchangeCompletion) throws {
        guard let running = inFlight.removeValue(forKey: ended.tag) else { return }
        var outcome = running.recorder.outcome(ended.result, cache: ended.cache)
        // What the reporter could not write (its file, the end of the printed body) fails the
        // request, though its exchange succeeded; the envelope's result is read first, since
        // the printer renders it before its last bytes.
        var saving: (any Error)?
        if case .success = ended.result {
            do {
                outcome.envelope = try running.envelope?.conclude()
            } catch {
                saving = error
            }
        }
        do {
            try reporter.completed(running, ended)
        } catch {
            saving = saving ?? error
        }
        if let saving { outcome.transferError = saving }
        if !running.assertions.isEmpty, outcome.transferError == nil, case .success(let result) = ended.result {
            let body = running.recorder.keptBody
            let checked = CheckedResponse(
                statusCode: result.statusCode, head: running.recorder.finalHead ?? result.head, body: body.bytes,
                bodyTruncated: body.truncated, metrics: ended.cache?.isStoredAnswer == true ? nil : result.outcome.metrics,
                maximumDepth: running.options.values.output.maximumDepth)
            outcome.assertions = ResponseCheck.check(running.assertions, against: checked)
        }
        let verdict = running.judge.verdict(outcome)
        // Every try is logged: each was sent.
        log(running, outcome)
        // Assertions that failed send the request again while it has tries left (`# @retry`),
        // for polling a job until it is done; it is told once, when it passed or ran out.
        let sent = tries.isEmpty ? 1 : tries[running.index, default: 1]
        if verdict.status == .assertionFailed, sent <= running.conditionRetries, !Interruption.isInterrupted {
            tries[running.index] = sent + 1
            retries.append((FileIO.monotonicSeconds() + plan.retryInterval, running.index))
            scheduler.rest(running.index)
            return
        }
        // Any response is kept, a failed one too: later requests may take values from it.
        if let name = running.entry.archivedAs, outcome.transferError == nil, case .success(let result) = ended.result {
            keep(running, result, as: name)
        }
        if verdict.status != .success, firstFailure == nil { firstFailure = verdict.status }
        scheduler.finished(running.index, succeeded: verdict.status == .success)
        unreported.append(
            FinishedExchange(exchange: running, completion: ended, outcome: outcome, verdict: verdict, tries: sent))
    }

    /// Tells the reporter the exchanges judged since it was last told, in the order they ended.
    /// The run loop calls it once the requests their ends let start were sent: one after the
    /// other, writing a request's line does not delay the next request.
    private func reportEnded() throws {
        guard !unreported.isEmpty else { return }
        let finished = unreported
        unreported.removeAll(keepingCapacity: true)
        for each in finished { try reporter.report(each) }
    }

    /// Keeps the exchange of `running`, which later entries take values from.
    private func keep(_ running: ExchangeInFlight, _ result: HTTPClientResult, as name: String) {
        let body = running.recorder.keptBody
        plan.archive?.keep(
            ExchangeArchive.Record(
                requestHeaders: running.request?.headers.map { ($0.name, $0.value) } ?? [],
                requestBody: running.request?.bodyBytes, responseHead: running.recorder.finalHead ?? result.head,
                responseBody: body.bytes, responseTruncated: body.truncated),
            as: name)
    }

    /// Writes the request log block of `running`, when the run logs: the response (its body when
    /// the judge accepts it, else the failure text for its status), or the failure of a request
    /// that got none.
    private func log(_ running: ExchangeInFlight, _ outcome: ExchangeOutcome) {
        guard let descriptor = plan.logDescriptor, let fields = running.logFields else { return }
        let logger = RequestLogger(descriptor: descriptor, owning: false, fields: fields)
        if outcome.cache?.isStoredAnswer == true { logger.answeredFromCache() }
        let head = running.recorder.finalHead
        guard outcome.transferError == nil, head != nil, let statusCode = outcome.statusCode else {
            logger.failed(statusCode: head?.statusCode)
            return
        }
        logger.responded(
            statusCode: statusCode, accepted: running.judge.accepts(outcome), body: running.recorder.loggedBody)
    }

    /// Reports entry `index` as not started.
    private func didNotStart(_ index: Int, entry: PlanEntry, method: String, url: String, error: any Error) throws {
        let status = OutcomeJudge.Verdict(failure: error).status
        if firstFailure == nil { firstFailure = status }
        scheduler.finished(index, succeeded: false)
        try reportEnded()
        try reporter.didNotStart(index, entry: entry, method: method, url: url, error: error)
    }

    /// Reports an exchange that Ctrl-C cancelled.
    private func cancelled(_ ended: ExchangeCompletion) throws {
        guard let running = inFlight.removeValue(forKey: ended.tag) else { return }
        if firstFailure == nil { firstFailure = .interrupted }
        scheduler.finished(running.index, succeeded: false)
        try reportEnded()
        try reporter.cancelled(running, ended)
    }
}

/// The run's slots, lent by an exchange that `RetryingEngine` holds back until its next try
/// (`--retry`), as `# @retry` waits lend theirs: `BatchScheduler` decides.
extension Runner: SlotKeeper {
    func rest(_ tag: Int) -> Bool { scheduler.rest(tag) }

    func resume(_ tag: Int) -> Bool { scheduler.wake(tag) }
}
