import AFKit
import Glibc

/// Runs a request command line: build, serialize, send (or print offline), print, exit status.
struct RequestCommand {
    var positionals: [String]
    /// The settings every stage, engine and reporter of the request reads, resolved once.
    let settings: ResolvedSettings
    var environment: [String: String]
    var terminal: Terminal

    /// The options as parsed.
    var options: Settings { settings.options }

    /// Sends the request and prints the exchange; returns the exit status for the final response.
    ///
    /// The request is resolved and prepared here; sending it is a run of one: a `RunPlan` of one
    /// entry on the serial engine (libcurl's easy handle, or `--local`'s answer files, with the
    /// decorators `EngineStack` puts over it), told by an `ExchangeReporter`; `--offline` and
    /// `--curl` show it instead.
    func run() throws -> ExitStatus {
        try Self.claimStandardOutput(options)
        let metrics = try MetricsOutput(options: options, stdoutIsTerminal: terminal.stdoutIsTerminal)
        let invocation = try InvocationBuilder.build(positionals: positionals, settings: settings)
        try RetryStage.check(options, standardInput: invocation.standardInput)
        var spec = invocation.spec
        let stores = try RequestStores(options: options, environment: environment, spec: &spec)
        let crypto = CryptoStages(settings)
        let acceptEncoding = try CacheStage.acceptEncoding(settings, environment: environment)
        let prepared = try RequestPreparation.serialize(
            &spec, settings: settings, environment: environment, standardInput: invocation.standardInput,
            crypto: crypto, acceptEncoding: acceptEncoding)
        let toTerminal = options.output.outputFile == nil && terminal.stdoutIsTerminal
        let parts = crypto.printParts(options.resolvedPrintParts(stdoutIsTerminal: toTerminal))
        let reporter = ExchangeReporter(
            settings: settings, terminal: terminal,
            printer: makePrinter(prepared, parts: parts, toTerminal: toTerminal), metrics: metrics, stores: stores,
            toTerminal: toTerminal, parts: parts)
        var request = PlannedRequest(prepared: prepared, settings: settings)
        var plan = RunPlan(entries: [PlanEntry(name: "request", origin: "", isKeeper: false) { request }])
        // --offline shows the request before any transfer setting is made or checked.
        if options.request.offline {
            return try Runner(plan: plan, delivery: .show(reporter), reporter: reporter).run()
        }

        let transferSettings = try EngineStack.requestSettings(
            options: options, stores: stores, verbose: parts.contains(.requestHeaders), acceptEncoding: acceptEncoding,
            url: prepared.url)
        plan.transferSettings = FixedTransferSettings(settings: transferSettings)
        if options.request.curl {
            let previewer = CurlCommandPreviewer(options: options, spec: spec, stored: stores.curlSecrets)
            return try Runner(plan: plan, delivery: .show(previewer), reporter: reporter).run()
        }

        // The log file is opened before anything is sent, and closed when the request ends.
        plan.logDescriptor = try RequestLogger.openTarget(options)
        defer { if let descriptor = plan.logDescriptor, descriptor > STDERR_FILENO { close(descriptor) } }
        if plan.logDescriptor != nil { request.logFields = RequestLogFields(spec: spec, prepared: prepared) }
        plan.entries = [PlanEntry(name: "request", origin: "", isKeeper: false) { request }]
        let transitionLog = plan.logDescriptor.flatMap { descriptor in
            request.logFields.map { RequestLogger(descriptor: descriptor, owning: false, fields: $0) }
        }
        let stack = try EngineStack.request(
            settings: transferSettings, apiPath: invocation.apiPath, resolved: settings, environment: environment,
            terminal: terminal, log: transitionLog, oauth2Tokens: stores.oauth2Tokens)
        return try stack.runner(plan, reporter: reporter).run()
    }

    /// The printer of the exchange: to standard output, `-o FILE`, or nowhere (`--quiet`).
    private func makePrinter(
        _ prepared: PreparedRequest, parts: Settings.PrintParts, toTerminal: Bool
    ) -> ExchangePrinter {
        let display = ResponseDisplay(options: options, toTerminal: toTerminal, terminal: terminal)
        // `-o -` is standard output (curl, wget, HTTPie), written as an output file is: the body
        // as received, even under --quiet.
        let destination: ExchangePrinter.Destination
        switch options.output.outputFile {
        case "-"?: destination = .standardOutput
        case let path?: destination = .file(path: path)
        case nil: destination = options.output.quiet ? .discard : .standardOutput
        }
        let printer = ExchangePrinter(
            parts: parts, destination: destination, colors: display.colors,
            isTerminal: toTerminal, showsEveryHop: options.output.verbose, requestBody: prepared.bodyBytes)
        if prepared.bodyBytes == nil { printer.multipartForm = (prepared.builtBody as? MultipartBodySource)?.form }
        printer.display = display
        printer.sendsChunked = options.transfer.chunked
        return printer
    }

    /// Checks the options that may name standard output as `-` besides `-o -` (`--log-file`,
    /// `--cache-transition-output`): standard output carries the response unless `-o FILE` or
    /// `--quiet` sends it elsewhere, and the two must not mix into one stream.
    static func claimStandardOutput(_ options: Settings) throws {
        let carrying =
            options.output.outputFile == "-" || (options.output.outputFile == nil && !options.output.quiet)
            ? "the response" : nil
        if RequestLogger.isWanted(options) {
            try StandardStreams.claim(
                options.pipeline.logFile, for: "--log-file", carrying: carrying,
                instead: "-o FILE or --quiet sends it elsewhere; without --log-file the log goes to standard error")
        }
        try StandardStreams.claim(
            options.pipeline.cache.transitionOutput, for: "--cache-transition-output", carrying: carrying,
            instead: "-o FILE takes the network's answer")
    }
}
