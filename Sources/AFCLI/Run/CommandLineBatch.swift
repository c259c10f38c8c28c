import AFKit
import Glibc

/// Reads `afcli run -`: one afcli request per line of standard input, in afcli's own grammar
/// (`get :8080/users/1 X-A:b`, `post :8080/users name=Ann --form`).
///
/// Each line is split like a shell line (`CommandLineSplitter`: quotes and backslashes, no
/// expansion) and parsed by afcli's own `ArgumentParser` over the run's options, so a line's
/// options override the run's for that request. Blank lines and `#` comments are skipped; the
/// comment lines `# @name NAME` and `# @first` name the next request or make it a keeper, and
/// `# @no-cookie-jar` keeps it out of the run's cookie engine (as in a `.http` file). A
/// request is named `line-N` after its line unless named. Options that belong to the run (output,
/// sessions, `--offline`…) are refused with the line's number, and so is a body from standard
/// input, which carries the requests.
///
/// Every line is parsed and checked as it is read (its words, options, METHOD, URL and the
/// syntax of its items), so a mistake stops the run before anything is sent; the files items name
/// are read only by `prepare`.
enum CommandLineBatch {
    /// The most requests one run reads.
    static let maximumRequests = 100_000

    /// What every entry of one run shares, held once rather than copied into each entry.
    final class Context {
        /// The run's settings, which a line without options of its own is sent with.
        let shared: SharedOptions
        let environment: [String: String]
        /// The default Accept-Language, made from `environment` once for every request.
        let acceptLanguage: String

        init(settings: ResolvedSettings, environment: [String: String]) {
            shared = SharedOptions(settings)
            self.environment = environment
            acceptLanguage = DefaultHeaders.acceptLanguage(environment: environment)
        }
    }

    /// The entries of the lines read from `descriptor`, in order; at most `limit` of them.
    static func load(
        descriptor: Int32, settings: ResolvedSettings, environment: [String: String],
        limit: Int = Self.maximumRequests
    ) throws -> (entries: [PlanEntry], archive: ExchangeArchive) {
        // A terminal holds no list of requests: reading it would wait for typing, then run none.
        if isatty(descriptor) == 1 { throw BatchError.terminalInput(source: "-") }
        var runOptions = try BatchCredentials.resolvingPassword(settings.options)
        // Standard input is the list of requests: never peek at it for a body.
        runOptions.request.ignoreStdin = true
        let context = Context(settings: settings.overriding(runOptions), environment: environment)
        // Read once: a line's check borrows it (read through the context, each line copied it).
        let runSettings = context.shared.settings
        var reader = LineReader(descriptor: descriptor)
        var entries: [PlanEntry] = []
        let references = RequestReferences(maximumDepth: runOptions.output.maximumDepth)
        var pendingName: (name: String, line: Int)?
        var pendingFirst: Int?
        var pendingNoCookies: Int?
        while true {
            let next = reader.lineNumber + 1
            guard var line = try LocatedError.locating(origin(next), { try reader.next() }) else { break }
            // A byte order mark (an editor's UTF-8 file) starts no request, as in a .http file.
            if next == 1, line.unicodeScalars.first == "\u{FEFF}" { line.unicodeScalars.removeFirst() }
            let number = reader.lineNumber
            let origin = origin(number)
            let words = try LocatedError.locating(origin) { try CommandLineSplitter.split(line) }
            if words.isEmpty {
                try LocatedError.locating(origin) {
                    try readDirective(
                        line, name: &pendingName, first: &pendingFirst, noCookies: &pendingNoCookies, number: number)
                }
                continue
            }
            guard entries.count < limit else {
                throw LocatedError(origin: origin, underlying: BatchError.tooManyRequests(limit: limit))
            }
            // Values from earlier requests' responses name a request before this line.
            // Most lines take nothing from others: one scan of the line for `{{` spares the rest.
            let takesValues = line.containsVariableOpening()
            if takesValues {
                references.checkingRequest(entries.count)
                for word in words {
                    do throws(RequestReferenceError) {
                        _ = try references.substitute(word)
                    } catch {
                        throw LocatedError(origin: origin, underlying: error)
                    }
                }
            }
            // The line is parsed once, here: the entry keeps its positionals, and its settings only
            // when it gave options (the others share the run's).
            let (positionals, settings) = try LocatedError.locating(origin) {
                try check(words, over: runSettings)
            }
            let shared = settings.map(SharedOptions.init) ?? context.shared
            let entryContext = context
            let sendsCookies = pendingNoCookies == nil
            entries.append(
                PlanEntry(
                    name: pendingName?.name ?? "line-" + String(number), origin: origin,
                    isKeeper: pendingFirst != nil,
                    prepare: {
                        try LocatedError.locating(origin) {
                            let words = takesValues ? try positionals.map { try references.substitute($0) } : positionals
                            var request = try prepare(words, options: shared, context: entryContext)
                            request.sendsCookies = sendsCookies
                            return request
                        }
                    }, written: { InvocationBuilder.written(positionals, options: shared.values) }))
            if let name = pendingName?.name { references.checked(entries.count - 1, name: name) }
            pendingName = nil
            pendingFirst = nil
            pendingNoCookies = nil
        }
        if let pendingName {
            throw LocatedError(origin: origin(pendingName.line), underlying: BatchError.danglingDirective("# @name"))
        }
        if let pendingFirst {
            throw LocatedError(origin: origin(pendingFirst), underlying: BatchError.danglingDirective("# @first"))
        }
        if let pendingNoCookies {
            throw LocatedError(
                origin: origin(pendingNoCookies), underlying: BatchError.danglingDirective("# @no-cookie-jar"))
        }
        references.startRun()
        references.annotate(&entries)
        return (entries, references.archive)
    }

    /// Where line `number` was written, for messages: `stdin:3`.
    private static func origin(_ number: Int) -> String {
        "stdin:" + String(number)
    }

    /// Reads `# @name NAME`, `# @first` and `# @no-cookie-jar` from a comment line; other
    /// comments are skipped.
    private static func readDirective(
        _ line: String, name: inout (name: String, line: Int)?, first: inout Int?, noCookies: inout Int?,
        number: Int
    ) throws {
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        guard trimmed.hasPrefix("#") else { return }
        let words = trimmed.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" })
        switch words.first {
        case "@name":
            guard words.count >= 2 else { throw BatchError.missingName }
            name = (words.dropFirst().joined(separator: " "), number)
        case "@first":
            first = number
        case "@no-cookie-jar":
            noCookies = number
        default:
            break
        }
    }

    /// Parses a line's words over the run's options and refuses what a line cannot say: a run's
    /// option, a missing URL, an unknown METHOD word, a URL that is none (joined in the config
    /// environment of `run`).
    /// Returns the line's positionals, and its settings (the run's with its options laid over
    /// them, never reading standard input) when it gave options (nil when it gave none: the run's
    /// settings are its settings).
    static func check(
        _ words: [String], over run: ResolvedSettings
    ) throws -> (positionals: [String], settings: ResolvedSettings?) {
        // Most lines are a method, a URL and items: with no word that looks like an option and no
        // subcommand word, parsing would give these positionals and the run's options.
        if words.allSatisfy({ $0.utf8.first != UInt8(ascii: "-") }), CommandTable.spec(for: words[0]) == nil {
            try checkRequest(words, settings: run)
            return (words, nil)
        }
        let (parsed, given) = try ArgumentParser.parse(words, over: run.options)
        // What belongs to the run, and what a run refuses on its command line, a line cannot
        // bring in either.
        try OptionScopes.check(given.sorted(), command: .run, source: .line)
        guard parsed.command == .request else {
            throw BatchError.notARequest(parsed.positionals.first ?? words[0])
        }
        var options = parsed.options
        // A line's --no-ignore-stdin cannot make it read the list of requests as a body.
        options.request.ignoreStdin = true
        let line = run.overriding(options)
        try checkRequest(parsed.positionals, settings: line)
        return (parsed.positionals, given.isEmpty ? nil : line)
    }

    /// Refuses a line without a URL, with an unknown METHOD word, a URL that is none, an item
    /// that is none or a body from standard input, as `prepare` would: a mistake in the list stops
    /// the run before anything is sent. The URL is resolved again by `prepare` (holding it would
    /// cost every entry more memory than the second resolution costs time); the files items name
    /// are read by `prepare` alone.
    private static func checkRequest(
        _ positionals: [String], settings: ResolvedSettings
    ) throws {
        let (_, url, items) = try InvocationBuilder.split(positionals)
        for item in items where try ItemResolver.checkSyntax(item) == "-" { throw BatchError.standardInputBody }
        _ = try EnvironmentTarget.resolve(url, settings: settings)
    }

    /// Builds the request of one line from its positionals and options (the line's applied over
    /// the run's, as `check` parsed them, with `request.ignoreStdin` set): its items read now, its
    /// body ready to stream. Every request of the line's options carries the same `options`.
    static func prepare(
        _ positionals: [String], options: SharedOptions, context: Context
    ) throws -> PlannedRequest {
        let invocation = try InvocationBuilder.build(
            positionals: positionals, settings: options.settings)
        var spec = invocation.spec
        if spec.rawBody == .standardInput || spec.files.contains(where: { $0.path == "-" }) {
            throw BatchError.standardInputBody
        }
        let prepared = try RequestPreparation.serialize(
            &spec, settings: options.settings, environment: context.environment, standardInput: nil,
            acceptLanguage: context.acceptLanguage)
        var request = PlannedRequest(prepared: prepared, shared: options, isShared: true)
        if RequestLogger.isWanted(options.values) {
            request.logFields = RequestLogFields(spec: spec, prepared: prepared)
        }
        return request
    }
}
