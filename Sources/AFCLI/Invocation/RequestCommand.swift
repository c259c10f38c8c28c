import AFKit

/// Runs a request command line: build, serialize, send (or print offline), print, exit status.
struct RequestCommand {
    var positionals: [String]
    var options: OptionValues
    var environment: [String: String]
    var terminal: Terminal
    /// The config environment in use (`--env`, `AFCLI_ENV`); nil for none.
    var profile: EnvironmentProfile? = nil

    /// Sends the request and prints the exchange; returns the exit status for the final response.
    func run() throws -> ExitStatus {
        try Self.claimStandardOutput(options)
        let metrics = try MetricsOutput(options: options, stdoutIsTerminal: terminal.stdoutIsTerminal)
        let invocation = try InvocationBuilder.build(positionals: positionals, options: options, profile: profile)
        var spec = invocation.spec
        var stores = try RequestStores(options: options, environment: environment, spec: &spec)
        let crypto = CryptoStages(options: options, profile: profile)
        let acceptEncoding = try CacheStage.acceptEncoding(options: options, profile: profile, environment: environment)
        var prepared = try RequestPreparation.serialize(
            &spec, options: options, environment: environment, standardInput: invocation.standardInput,
            profile: profile, crypto: crypto, acceptEncoding: acceptEncoding)
        let toTerminal = options.outputFile == nil && terminal.stdoutIsTerminal
        let parts = crypto.printParts(options.resolvedPrintParts(stdoutIsTerminal: toTerminal))
        let display = ResponseDisplay(options: options, toTerminal: toTerminal, terminal: terminal)
        // `-o -` is standard output (curl, wget, HTTPie), written as an output file is: the body
        // as received, even under --quiet.
        let destination: ExchangePrinter.Destination
        switch options.outputFile {
        case "-"?: destination = .standardOutput
        case let path?: destination = .file(path: path)
        case nil: destination = options.quiet ? .discard : .standardOutput
        }
        let printer = ExchangePrinter(
            parts: parts, destination: destination, colors: display.colors,
            isTerminal: toTerminal, showsEveryHop: options.verbose, requestBody: prepared.bodyBytes)
        let multipartForm = (prepared.builtBody as? MultipartBodySource)?.form
        if prepared.bodyBytes == nil { printer.multipartForm = multipartForm }
        printer.display = display
        printer.sendsChunked = options.chunked

        if options.offline {
            try printer.offline(prepared)
            try printer.finish()
            return .success
        }
        var settings = clientOptions(verbose: parts.contains(.requestHeaders), acceptEncoding: acceptEncoding)
        try SecurityOptions.configure(&settings, options: options, url: prepared.url)
        stores.configure(&settings, locationTrusted: options.locationTrusted)
        if options.curl {
            return try CurlCommandPrinter.print(
                prepared, settings: settings, options: options, spec: spec, stored: stores.curlSecrets)
        }

        if parts.contains(.requestHeaders), multipartForm != nil, let body = prepared.body, body.length == nil {
            ErrorReporter.note(
                "a part is read from standard input or a pipe, so the body's length is unknown: "
                    + "it is sent with Transfer-Encoding: chunked instead of Content-Length")
        }
        let requestLog = try RequestLogger(options: options, spec: spec, prepared: prepared)
        let upload = prepareUpload(&prepared)
        let engine = try CacheStage.wrap(
            EnvironmentTarget.transport(
                options: options, profile: profile, apiPath: invocation.apiPath, settings: settings),
            command: self, log: requestLog)
        let delegate = PrintingDelegate(printer: printer)
        delegate.upload = upload
        delegate.notesHSTSUpgrades = options.verbose
        let judge = OutcomeJudge(options: options)
        // Validation and the metrics count the body's bytes, so they read the body to its end.
        delegate.readsWholeBody = judge.validator != nil || metrics.measuresWholeBody
        let (stages, recorder) = crypto.wrap(delegate)
        recorder.keepsBodyForLog = requestLog != nil
        let result: HTTPClientResult
        let cache: CacheOutcome?
        do {
            // A serial engine: the exchange is complete when `start` returns.
            let completion = try engine.start(ExchangeOrder(prepared, delegate: stages, options: settings))
            guard let completion else { preconditionFailure("a single request's engine completes at once") }
            result = try completion.result.get()
            cache = completion.cache
        } catch {
            upload?.fail()
            try? printer.transferFailed(error)
            metrics.failed(error, request: prepared)
            requestLog?.failed(statusCode: recorder.finalHead?.statusCode)
            throw error
        }
        upload?.responseStarted()
        printer.cacheStatus = cache?.text
        // An answer from the cache had no cookie engine: saving its "none" would drop the
        // session's or jar's cookies.
        if cache?.isStoredAnswer == true {
            requestLog?.answeredFromCache()
        } else {
            try stores.save(result)
        }
        let enveloped = try crypto.concludeEnvelope()
        do {
            try printer.metadata(
                metrics.metadataBlock(result, colors: display.syntaxColors, everyHop: options.verbose))
            try printer.finish()
        } catch {
            // The end of a small body is written here (a closed stdout, a full disk): the log
            // says the request failed, as it does when the body fails mid-transfer.
            requestLog?.failed(statusCode: result.statusCode)
            throw error
        }
        let outcome = recorder.outcome(.success(result), envelope: enveloped)
        requestLog?.responded(
            statusCode: result.statusCode, accepted: judge.accepts(outcome), body: recorder.loggedBody)
        let status = report(judge.verdict(outcome), toTerminal: toTerminal)
        try metrics.finished(
            result, request: prepared, printsMetadata: parts.contains(.metadata), status: status,
            bodyBytes: outcome.bodyBytes)
        return status
    }

    /// Checks the options that may name standard output as `-` besides `-o -` (`--log-file`,
    /// `--cache-transition-output`): standard output carries the response unless `-o FILE` or
    /// `--quiet` sends it elsewhere, and the two must not mix into one stream.
    static func claimStandardOutput(_ options: OptionValues) throws {
        let carrying = options.outputFile == "-" || (options.outputFile == nil && !options.quiet) ? "the response" : nil
        if RequestLogger.isWanted(options) {
            try StandardStreams.claim(
                options.logFile, for: "--log-file", carrying: carrying,
                instead: "-o FILE or --quiet sends it elsewhere; without --log-file the log goes to standard error")
        }
        try StandardStreams.claim(
            options.cache.transitionOutput, for: "--cache-transition-output", carrying: carrying,
            instead: "-o FILE takes the network's answer")
    }

    /// Tells the verdict on the exchange and returns its exit status: a failure as an error, a
    /// failing status (`--check-status`) as a warning, and only when the exchange is not on the
    /// terminal, where it would be seen.
    private func report(_ verdict: OutcomeJudge.Verdict, toTerminal: Bool) -> ExitStatus {
        guard let message = verdict.message else { return verdict.status }
        if !verdict.isStatusCheck {
            ErrorReporter.error(message, detail: verdict.detail)
        } else if !options.quiet, !toTerminal || options.outputFile != nil {
            ErrorReporter.warn(message)
        }
        return verdict.status
    }

    /// Paces the body (`--throttle`) and, for a body streamed from files or standard input,
    /// shows its progress (`--progress`); returns the progress display, if any.
    private func prepareUpload(_ prepared: inout PreparedRequest) -> UploadProgress? {
        guard var body = prepared.body else { return nil }
        if let throttle = options.throttle { body = ThrottledBodySource(body, throttle: throttle) }
        var upload: UploadProgress?
        // `auto` stays quiet under --quiet; an explicit bar or percent is still shown.
        let style = options.quiet && options.progress == .auto ? ProgressStyle.none : options.progress
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

    private func clientOptions(verbose: Bool, acceptEncoding: String) -> ClientOptions {
        var client = options.clientOptions
        client.verbose = verbose
        client.acceptEncoding = acceptEncoding
        return client
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

    init(printer: ExchangePrinter) {
        self.printer = printer
    }

    func willSend(hop: Int, request: SentRequest) throws {
        try printer.requestWillBeSent(rawHead: request.rawHead, method: request.method, hop: hop)
    }

    func didReceive(hop: Int, head: ResponseHead, isFinal: Bool) throws {
        upload?.responseStarted()
        try printer.responseHead(head, isFinal: isFinal)
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
