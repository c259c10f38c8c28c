import AFKit
import Glibc

/// `afcli run SOURCE`: sends the requests of a `.http` file, or of afcli command lines on
/// standard input (`-`), up to `--parallel` at once, keepers first, and reports each in NDJSON.
struct RunCommand {
    /// `run` and SOURCE.
    var positionals: [String]
    var options: OptionValues
    var environment: [String: String]
    var terminal: Terminal
    /// The config environment for command lines on standard input (`afcli --env NAME run -`);
    /// nil for none and for a `.http` file, whose `--env` names its own environment.
    var profile: EnvironmentProfile? = nil

    /// The SOURCE word: a `.http` file, or `-` for command lines on standard input.
    var source: String { positionals.dropFirst().first ?? "" }

    /// Loads the batch and runs it (its options checked by `rejectUnsupportedOptions` and
    /// `OptionScopes`); returns the run's exit status.
    func run() throws -> ExitStatus {
        // Standard output carries the run's JSON lines, which a log there would break apart.
        if RequestLogger.isWanted(options) {
            try StandardStreams.claim(
                options.logFile, for: "--log-file", carrying: "the run's JSON lines",
                instead: "without --log-file the log goes to standard error")
        }
        var entries = try BatchLoader.load(
            source: source, options: options, environment: environment, profile: profile)
        try RunCommand.markKeepers(&entries, names: options.firstNames)
        let directory = try options.outputDirectory.map {
            try BatchOutputDirectory(path: $0, names: entries.map(\.name))
        }
        let cache = try responseCache()
        // The log file is opened before anything is sent, and closed when the run ends.
        let logDescriptor = try RequestLogger.openTarget(options)
        defer { if let logDescriptor, logDescriptor > STDERR_FILENO { close(logDescriptor) } }
        let executor = BatchExecutor(
            entries: entries, options: options, environment: environment, directory: directory,
            output: OutputStream(descriptor: STDOUT_FILENO, target: "standard output"),
            stderrIsTerminal: terminal.stderrIsTerminal, stdoutIsTerminal: terminal.stdoutIsTerminal,
            cache: cache, logDescriptor: logDescriptor)
        return try executor.run()
    }

    /// The run's cache stage: `--cache`, else the config environment's policy (for command lines
    /// on standard input); nil when off. cj-then-network gives two answers to one request, which a
    /// run's one line per request cannot report: refused.
    func responseCache() throws -> ResponseCache? {
        if try CacheStage.mode(options: options, profile: profile) == .cjThenNetwork {
            throw UsageError.notForCommand(
                option: "--cache=cj-then-network", command: "run",
                reason: "a run reports one answer per request; --cache=cj-first answers from the cache alone")
        }
        return try CacheStage.responseCache(options: options, profile: profile, environment: environment)
    }

    /// Makes every entry named in `names` (`--first`) a keeper; a name that matches no entry is a
    /// usage error, before anything is sent.
    static func markKeepers(_ entries: inout [BatchEntry], names: [String]) throws(UsageError) {
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

    /// Refuses options that have no meaning for a batch: it prints NDJSON, not exchanges.
    static func rejectUnsupportedOptions(_ options: OptionValues) throws(UsageError) {
        let given: [(Bool, String, String)] = [
            (options.offline, "--offline", "a batch always sends its requests"),
            (options.curl, "--curl", "a batch always sends its requests"),
            (options.outputFile != nil, "--output", "use --output-dir to save each body"),
            (options.session != nil, "--session", "the requests of a batch do not share a session"),
        ]
        if let (_, name, reason) = given.first(where: { $0.0 }) {
            throw UsageError.notForCommand(option: name, command: "run", reason: reason)
        }
    }

    /// Options a `.http` file cannot honour, each with why: the file writes each request's method,
    /// headers and body itself, and its URLs do not go through a config environment.
    static let optionsNotForHTTPFiles: [String: String] = {
        let written = "the file writes each request's method, headers and body"
        let itemBody = ["method", "json", "form", "multipart", "plist", "raw", "boundary"]
        var reasons = Dictionary(uniqueKeysWithValues: itemBody.map { ($0, written) })
        reasons["simulate"] = "its URLs are its own; --base-url joins the paths it writes"
        return reasons
    }()

    /// Refuses, for a `.http` file, the options typed on the command line (`typed`, long names)
    /// that would do nothing for its requests; a line of `run -` is built from items, and takes them.
    static func rejectOptions(_ typed: [String], source: String) throws(UsageError) {
        guard source != "-", !source.isEmpty, let long = typed.first(where: { optionsNotForHTTPFiles[$0] != nil }),
            let reason = optionsNotForHTTPFiles[long]
        else { return }
        throw UsageError.notForCommand(option: "--" + long, command: "run with a .http file", reason: reason)
    }

    /// Refuses the options of `afcli run` on any other command.
    static func rejectRunOptions(_ options: OptionValues, command: String) throws(UsageError) {
        let given: [(Bool, String)] = [
            (options.parallel != nil, "--parallel"), (!options.firstNames.isEmpty, "--first"),
            (options.keepGoing, "--keep-going"), (options.outputDirectory != nil, "--output-dir"),
        ]
        if let (_, name) = given.first(where: { $0.0 }) {
            throw UsageError.notForCommand(option: name, command: command, reason: "it is an option of afcli run")
        }
    }
}
