import AFKit

/// The reporter of a single request: the exchange printer (what a terminal or a pipe gets), the
/// upload's progress, the metrics (`m`, `--meta`, `--write-out`), the session and cookie jar
/// written back, and the verdict told as a message. A transfer that failed is thrown, as any
/// error of a single request is, after the printer and `--write-out` had their say.
final class ExchangeReporter: RunReporter {
    private let options: Settings
    /// The config environment in force, whose secrets the printed heads hide.
    private let profile: EnvironmentProfile?
    private let terminal: Terminal
    private let printer: ExchangePrinter
    private let metrics: MetricsOutput
    private var stores: RequestStores
    /// Whether the response goes to the terminal, where a failed status is seen without a warning.
    private let toTerminal: Bool
    /// Whether the printer shows the request's head (`-v`, `--print=H`).
    private let printsRequestHeaders: Bool
    /// Whether the printer shows the metrics part.
    private let printsMetadata: Bool
    private var upload: UploadProgress?
    /// The request as sent, for `--write-out`.
    private var request: PreparedRequest?

    init(
        settings: ResolvedSettings, terminal: Terminal, printer: ExchangePrinter, metrics: MetricsOutput,
        stores: RequestStores, toTerminal: Bool, parts: Settings.PrintParts
    ) {
        options = settings.options
        profile = settings.profile
        self.terminal = terminal
        self.printer = printer
        self.metrics = metrics
        self.stores = stores
        self.toTerminal = toTerminal
        printsRequestHeaders = parts.contains(.requestHeaders)
        printsMetadata = parts.contains(.metadata)
    }

    func begin(_ index: Int, entry: PlanEntry, request: inout PlannedRequest) throws -> ReportedExchange {
        if printsRequestHeaders, printer.multipartForm != nil, let body = request.prepared.body, body.length == nil {
            ErrorReporter.note(
                "a part is read from standard input or a pipe, so the body's length is unknown: "
                    + "it is sent with Transfer-Encoding: chunked instead of Content-Length")
        }
        upload = prepareUpload(&request.prepared)
        self.request = request.prepared
        let delegate = PrintingDelegate(printer: printer)
        if printsRequestHeaders || printer.printsResponseHeaders {
            delegate.redaction = HeaderRedaction(
                revealing: options.request.showSecrets, request: request.prepared, profile: profile)
        }
        delegate.upload = upload
        delegate.notesHSTSUpgrades = options.output.verbose
        // Validation and the metrics count the body's bytes, so they read the body to its end.
        delegate.readsWholeBody = OutcomeJudge(options: options).validator != nil || metrics.measuresWholeBody
        return ReportedExchange(delegate: delegate, printer: printer)
    }

    func completed(_ exchange: ExchangeInFlight, _ completion: ExchangeCompletion) throws {
        switch completion.result {
        case .failure(let error):
            upload?.fail()
            try? printer.transferFailed(error)
            if let request { metrics.failed(error, request: request) }
        case .success(let result):
            upload?.responseStarted()
            printer.cacheStatus = completion.cache?.text
            // An answer from the cache had no cookie engine: saving its "none" would drop the
            // session's or jar's cookies.
            if completion.cache?.isStoredAnswer != true { try stores.save(result) }
            try printer.metadata(
                metrics.metadataBlock(result, colors: printer.display.syntaxColors, everyHop: options.output.verbose))
            try printer.finish()
        }
    }

    func report(_ finished: FinishedExchange) throws {
        // The error of a single request is told by `ErrorReporter`, with its exit status.
        if let error = finished.outcome.transferError { throw error }
        guard case .success(let result) = finished.completion.result, let request else { return }
        let verdict = finished.verdict
        if let message = verdict.message {
            if !verdict.isStatusCheck {
                ErrorReporter.error(message, detail: verdict.detail)
            } else if !options.output.quiet, !toTerminal || options.output.outputFile != nil {
                // A failing status is told only when the exchange is not on the terminal, where
                // it would be seen.
                ErrorReporter.warn(message)
            }
        }
        try metrics.finished(
            result, request: request, printsMetadata: printsMetadata, status: verdict.status,
            bodyBytes: finished.outcome.bodyBytes)
    }

    func didNotStart(_ index: Int, entry: PlanEntry, method: String, url: String, error: any Error) throws {
        throw error
    }

    func cancelled(_ exchange: ExchangeInFlight, _ completion: ExchangeCompletion) throws {}

    func tick(running: Int) throws {}

    func ended(notStarted: Int, interrupted: Bool) throws {}

    var showsRequestHeads: Bool { false }

    /// Paces the body (`--throttle`) and, for a body streamed from files or standard input,
    /// shows its progress (`--progress`); returns the progress display, if any.
    private func prepareUpload(_ prepared: inout PreparedRequest) -> UploadProgress? {
        guard var body = prepared.body else { return nil }
        if let throttle = options.request.throttle { body = ThrottledBodySource(body, throttle: throttle) }
        var upload: UploadProgress?
        // `auto` stays quiet under --quiet; an explicit bar or percent is still shown.
        let style =
            options.output.quiet && options.output.progress == .auto ? ProgressStyle.none : options.output.progress
        if prepared.bodyBytes == nil, style != .none {
            let progress = UploadProgress(
                style: style, stderrIsTerminal: terminal.stderrIsTerminal, label: Self.uploadLabel(prepared.builtBody))
            body = progress.wrap(body)
            upload = progress
        }
        prepared.body = body
        return upload
    }

    /// The progress label: the file's name for a single file, else `upload`.
    private static func uploadLabel(_ body: BodySource?) -> String {
        if let file = body as? FileBodySource {
            return file.path.split(separator: "/").last.map(String.init) ?? file.path
        }
        if let form = (body as? MultipartBodySource)?.form {
            let files = form.parts.compactMap(\.filename)
            if files.count == 1 { return files[0] == "-" ? "stdin" : files[0] }
        }
        return "upload"
    }
}

/// `--offline`: the request is printed as it would be sent, and not sent.
extension ExchangeReporter: RequestPreviewer {
    func show(_ request: PlannedRequest, settings: TransferSettings) throws {
        try printer.offline(request.prepared)
        try printer.finish()
    }
}

/// Forwards the client's per-hop events to the printer.
final class PrintingDelegate: HTTPClientDelegate {
    let printer: ExchangePrinter
    /// The progress display of a streamed request body, ended when a response starts.
    var upload: UploadProgress?
    /// Whether the final body is read to its end even when nothing more of it is printed.
    var readsWholeBody = false
    /// Whether an HSTS upgrade is noted on standard error (`-v`).
    var notesHSTSUpgrades = false
    /// What the printed heads hide (`--show-secrets` shows it).
    var redaction = HeaderRedaction()

    init(printer: ExchangePrinter) {
        self.printer = printer
    }

    func willSend(hop: Int, request: SentRequest) throws {
        try printer.requestWillBeSent(rawHead: request.rawHead.map(redaction.head), method: request.method, hop: hop)
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        upload?.responseStarted()
        // Only a printed head is worth hiding credentials in (reading its fields decodes them all).
        try printer.responseHead(printer.printsResponseHeaders ? redaction.responseHead(head) : head, isFinal: isFinal)
    }

    func didProgressUpload(hop: Int, uploaded: Int64, expected: Int64) {
        upload?.tick()
    }

    func didReceiveBody(hop: Int, chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        try printer.responseBody(chunk, isFinal: isFinal)
    }

    func didFinishResponse(hop: Int, isFinal: Bool) throws {
        try printer.responseEnded()
    }

    /// Stops reading a body that nothing will print (`-h`, `--quiet`, the binary notice).
    func needsMoreFinalBody() -> Bool {
        readsWholeBody || printer.needsMoreFinalBody
    }

    func willFollowInsecureRedirect(hop: Int, to: String) {
        ErrorReporter.warn("following a redirect from https to http: \(to) is not encrypted")
    }

    func didUpgradeByHSTS(hop: Int, requested: String) {
        guard notesHSTSUpgrades else { return }
        ErrorReporter.note("\(requested) was \(HSTSUpgrade.explanation)")
    }
}
