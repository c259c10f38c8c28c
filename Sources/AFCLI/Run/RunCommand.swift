import AFKit
import Glibc

/// `afcli run SOURCE`: sends the requests of a `.http` file, or of afcli command lines on
/// standard input (`-`), up to `--parallel` at once, keepers first, and reports each in NDJSON.
struct RunCommand {
    /// `run` and SOURCE.
    var positionals: [String]
    /// The settings the run and, with their own laid over them, its entries read, resolved once.
    let settings: ResolvedSettings
    var environment: [String: String]
    var terminal: Terminal

    /// The options as parsed.
    var options: Settings { settings.options }

    /// The SOURCE word: a `.http` file, or `-` for command lines on standard input.
    var source: String { Self.source(of: positionals) }

    /// The SOURCE word of `positionals` (`run` and SOURCE).
    static func source(of positionals: [String]) -> String { positionals.dropFirst().first ?? "" }

    /// Loads the batch and runs it (its options checked by `OptionScopes` against the run's
    /// scope and its `RunSource`); returns the run's exit status.
    func run() throws -> ExitStatus {
        // Standard output carries the run's JSON lines, which a log there would break apart.
        if RequestLogger.isWanted(options) {
            try StandardStreams.claim(
                options.pipeline.logFile, for: "--log-file", carrying: "the run's JSON lines",
                instead: "without --log-file the log goes to standard error")
        }
        // Where the reports go is checked first: nothing is sent, or created, for a refused one.
        let logFile = RequestLogger.isWanted(options) ? options.pipeline.logFile : nil
        let reportTargets = try RunReportTarget.plan(options.run.reports, source: source, logFile: logFile)
        let parallel = affordableParallel() ?? 1
        var (entries, archive) = try BatchLoader.load(
            source: source, settings: settings, environment: environment)
        try RunCommand.markKeepers(&entries, names: options.run.firstNames)
        // The session and jar are read before anything is sent, and written when the run ends.
        let cookieStore =
            options.session.name != nil || options.session.cookieJar != nil
            ? try RunCookieStore(
                options: options, environment: environment,
                firstURL: (try? entries.first?.prepare().prepared.url) ?? "") : nil
        let directory = try options.run.outputDirectory.map {
            try BatchOutputDirectory(path: $0, names: entries.map(\.name))
        }
        let cache = try EngineStack.runCache(settings, environment: environment)
        // The log file is opened before anything is sent, and closed when the run ends.
        let logDescriptor = try RequestLogger.openTarget(options)
        defer { if let logDescriptor, logDescriptor > STDERR_FILENO { close(logDescriptor) } }
        // libcurl's own bound matches the run's: it never opens more connections than requests may
        // be in flight. Every transfer runs on this thread's one multi handle, as curl -Z's do.
        let client = try MultiClient(maxConnections: parallel, cookies: cookieStore?.seed ?? CookieSettings())
        let stack = try EngineStack.run(over: client, cache: cache, options: options, environment: environment)
        // Reports are created before anything is sent, and written as requests end.
        let reports = try reportTargets.map { try $0.makeWriter() }
        // Tests run to the end: every request is a test case.
        let plan = RunPlan(
            entries: entries, parallel: parallel, keepGoing: options.run.keepGoing || options.run.testMode,
            logDescriptor: logDescriptor, archive: archive, retryInterval: options.run.retryInterval)
        let readable = options.run.testMode || terminal.stdoutIsTerminal
        let colors = (terminal.stdoutIsTerminal && terminal.colorsStdout) || terminal.forcesColor
        let reporter = RunLineReporter(
            total: entries.count, directory: directory,
            output: OutputStream(descriptor: STDOUT_FILENO, target: "standard output"),
            stderrIsTerminal: terminal.stderrIsTerminal, stdoutIsTerminal: terminal.stdoutIsTerminal,
            usesCache: cache != nil, style: readable ? .readable(Palette(enabled: colors)) : .ndjson, reports: reports)
        let status = try stack.runner(plan, reporter: reporter).run()
        if var cookieStore {
            let lines = client.cookieLines
            try cookieStore.save(lines: lines, changed: client.cookiesChanged(lines))
        }
        return status
    }

    /// `--parallel N`, or fewer with a warning when N requests at once would need more descriptors
    /// than the open-file limit (`ulimit -n`) allows; nil for 1, the default.
    func affordableParallel() -> Int? {
        guard let requested = options.run.parallel, requested > 1 else { return options.run.parallel }
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return requested
        }
        let openFiles = Int(clamping: limit.rlim_cur)
        let affordable = BatchScheduler.affordable(
            requested, openFileLimit: openFiles,
            perRequest: BatchScheduler.descriptorsPerRequest(
                savesBodies: options.run.outputDirectory != nil, resends: options.retry.count > 0))
        if affordable < requested {
            ErrorReporter.warn(
                "--parallel \(requested) needs more files open at once than the limit of \(openFiles) "
                    + "(ulimit -n) allows: sending up to \(affordable) at once")
        }
        return affordable
    }

    /// Makes every entry named in `names` (`--first`) a keeper; a name that matches no entry is a
    /// usage error, before anything is sent.
    static func markKeepers(_ entries: inout [PlanEntry], names: [String]) throws(UsageError) {
        for name in names {
            var found = false
            for index in entries.indices where entries[index].name == name {
                entries[index].isKeeper = true
                found = true
            }
            guard found else {
                throw UsageError.invalidValue(option: "--first", value: name, reason: "names no request of the batch")
            }
        }
    }
}
