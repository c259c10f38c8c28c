/// What afcli was asked to do, as read from argv.
package struct ParsedCommandLine: Equatable, Sendable {
    /// The action to take.
    package var command: Command
    /// The positional arguments in the order typed. For `.request` these are the optional METHOD
    /// word, the URL and the request items, untouched; for subcommands they start with the
    /// subcommand's own word (`completions`, `bash`).
    package var positionals: [String]
    /// The settings from every option given, defaults elsewhere.
    package var options: Settings

    package init(command: Command, positionals: [String], options: Settings) {
        self.command = command
        self.positionals = positionals
        self.options = options
    }
}

/// The action a command line asks for.
package enum Command: Equatable, Sendable {
    /// Build (and unless `--offline`, send) a request from the positionals.
    case request
    /// Print help: `.short` for `--help`, `.long` for `afcli help`.
    case help(HelpLength)
    /// Print the completion script for a shell (`afcli completions bash`).
    case completions(Shell)
    /// Print the manual: the man page's roff source (`afcli man`) or the Markdown reference
    /// (`afcli man markdown`).
    case manPage(ManualFormat)
    /// Download the URLs after the word (`afcli download URL…`).
    case download
    /// Send the requests of a `.http` file or of standard input lines (`afcli run SOURCE`).
    case run
    /// Print the public-key pins of a server's chain (`afcli pin URL`).
    case pin
    /// Report whether and how a host could be reached (`afcli reachability [HOST[:PORT]]`).
    case reachability
    /// Look at or tidy the response cache (`afcli cache ls`).
    case cache
    /// Print the version (`--version`).
    case version
    /// List the config's environments or show one (`afcli env [show NAME]`).
    case environments
    /// Print where the config file is read from (`afcli config path`).
    case configPath
}

/// How much help to print.
package enum HelpLength: Equatable, Sendable {
    /// The one-screen summary of `--help`.
    case short
    /// The whole manual as plain text, `afcli help`.
    case long
    /// `afcli cache --help`: the cache's rules and options.
    case cache
}

/// A format `afcli man` prints the manual in.
package enum ManualFormat: String, Equatable, Sendable {
    /// The man page's roff source, `afcli man`.
    case roff
    /// The reference in `docs/`, `afcli man markdown`.
    case markdown
}

/// A shell afcli generates a completion script for.
package enum Shell: String, CaseIterable, Equatable, Sendable {
    case bash
    case zsh
    case fish
}

/// The hand-written command-line parser driven by `OptionTable`.
///
/// It follows getopt_long's conventions: `--opt value`, `--opt=value`, `-o value`, `-ovalue`,
/// clustered short flags (`-vF`), a lone `-` as a positional, `--` ending options, and options
/// anywhere among positionals. A value-taking option always consumes the next argument, even one
/// starting with `-`, so `--raw -x` sends `-x`. Unlike HTTPie (argparse), long options are never
/// abbreviated: scripts keep working when an option is added; a prefix only earns a suggestion.
package enum ArgumentParser {
    /// The first positional words that are subcommands rather than a METHOD or URL (`CommandTable`).
    package static var subcommands: [String] { CommandTable.words }

    /// Parses the arguments after the program name.
    ///
    /// `--help` anywhere before `--` wins over everything, including mistakes elsewhere on the line,
    /// so that a user stuck on an error can always ask for help; then `--version`; then a
    /// subcommand given as the first positional before `--` (`afcli -- help` requests `http://help`).
    /// Every error thrown is a `UsageError` (exit status 2); the signature stays untyped so that
    /// callers can mix it with other throwing calls in one `do` block.
    package static func parse(_ argv: [String]) throws -> ParsedCommandLine {
        try parse(argv, over: Settings()).parsed
    }

    /// Parses `argv` applying its options over `base` rather than the defaults (a line of
    /// `afcli run -` over the run's options); also returns the long names of the options given.
    package static func parse(
        _ argv: [String], over base: Settings
    ) throws -> (parsed: ParsedCommandLine, given: Set<String>) {
        let (parsed, scan) = try scanned(argv, over: base)
        return (parsed, scan?.given ?? ["help"])
    }

    /// Parses `argv` whose first `defaults` words are the config's `default_options`; also
    /// returns the long names of the options applied by the words after them, in the order typed
    /// (not those undone with `--no-X`), for `OptionScopes.check`.
    ///
    /// A default option outside the command's scope (`--retry` for a plain request) is passed
    /// over: the line is read again without it. That second reading happens only when the config
    /// holds such an option, so a plain GET pays nothing for it.
    package static func parse(
        _ argv: [String], defaults: Int
    ) throws -> (parsed: ParsedCommandLine, typed: [String]) {
        var (parsed, scan) = try scanned(argv, over: Settings())
        if let found = scan, defaults > 0, let command = CommandScope(parsed.command) {
            let passOver = Set(found.defaultsGiven(before: defaults).filter { !OptionScopes.applies($0, to: command) })
            if !passOver.isEmpty {
                (parsed, scan) = try scanned(argv, over: Settings(), passingOver: passOver, before: defaults)
            }
        }
        return (parsed, scan?.applied.filter { $0.end > defaults }.map(\.long) ?? [])
    }

    /// The command line and the scan it came from; no scan when a mistake gave way to `--help`.
    /// The options named in `passOver` are read but not applied among the first `before` words.
    private static func scanned(
        _ argv: [String], over base: Settings, passingOver passOver: Set<String> = [], before: Int = 0
    ) throws -> (ParsedCommandLine, Scan?) {
        let scan: Scan
        do {
            scan = try Scan(argv, base: base, passingOver: passOver, before: before)
        } catch {
            let beforeDoubleDash = argv.prefix(while: { $0 != "--" })
            if beforeDoubleDash.contains("--help") {
                var options = Settings()
                options.showHelp = true
                return (ParsedCommandLine(command: .help(.short), positionals: [], options: options), nil)
            }
            throw error
        }
        let command = try command(for: scan)
        return (ParsedCommandLine(command: command, positionals: scan.positionals, options: scan.options), scan)
    }

    /// Reads `argv` as options alone (the config file's `default_options`): throws the usage
    /// error for the first option the parser refuses, and returns the words that are no options.
    package static func positionalsAmongOptions(_ argv: [String]) throws(UsageError) -> [String] {
        try Scan(argv, base: Settings()).positionals
    }

    /// Chooses the action once every argument has been read.
    private static func command(for scan: Scan) throws(UsageError) -> Command {
        if scan.options.showHelp {
            let isCache = scan.firstPositionalIsBeforeDoubleDash && scan.positionals.first == "cache"
            return .help(isCache ? .cache : .short)
        }
        if scan.options.showVersion { return .version }
        guard let first = scan.positionals.first else { throw UsageError.missingURL }
        guard scan.firstPositionalIsBeforeDoubleDash, let spec = CommandTable.spec(for: first) else { return .request }
        let arguments = scan.positionals.dropFirst()
        try CommandTable.checkArguments(arguments, of: spec)
        switch spec.word {
        case "download": return .download
        case "run": return .run
        case "pin": return .pin
        case "reachability": return .reachability
        case "cache": return .cache
        case "completions":
            let name = arguments.first ?? ""
            guard let shell = Shell(rawValue: name) else { throw UsageError.unknownShell(name) }
            return .completions(shell)
        case "man":
            guard let word = arguments.first else { return .manPage(.roff) }
            guard let format = ManualFormat(rawValue: word) else {
                throw UsageError.unexpectedArgument(command: "man", argument: word)
            }
            return .manPage(format)
        case "env": return .environments
        case "config": return .configPath
        default: return .help(.long)
        }
    }
}

/// One left-to-right pass over argv that applies options and collects positionals.
private struct Scan {
    var options: Settings
    var positionals: [String] = []
    /// The long names of the options applied or reset, in any spelling.
    var given: Set<String> = []
    /// The options applied (not reset), in order, each with the index just past the words it
    /// read (its value included).
    var applied: [(long: String, end: Int)] = []
    /// The options reset with `--no-X`, each with the index just past its word.
    var reset: [(long: String, end: Int)] = []
    var firstPositionalIsBeforeDoubleDash = false
    private var arguments: [String]
    private var index = 0
    /// Options read but not applied (nor reset) while they lie within the first `passOverEnd` words.
    private let passOver: Set<String>
    private let passOverEnd: Int

    /// Reads every argument, throwing at the first mistake; the options in `passOver` are read
    /// but not applied among the first `before` words.
    init(_ argv: [String], base: Settings, passingOver passOver: Set<String> = [], before: Int = 0)
        throws(UsageError)
    {
        options = base
        arguments = argv
        self.passOver = passOver
        passOverEnd = before
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                if positionals.isEmpty { firstPositionalIsBeforeDoubleDash = !optionsEnded }
                positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                try readLong(argument)
            } else {
                try readShortCluster(argument)
            }
        }
    }

    /// Reads `--name`, `--name=value`, `--name value` or `--no-name`.
    private mutating func readLong(_ argument: String) throws(UsageError) {
        let body = argument.dropFirst(2)
        let name: String
        let inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
            inlineValue = nil
        }
        let spelling = "--" + name
        if let spec = OptionTable.byLong[name] {
            try apply(spec, spelling: spelling, inlineValue: inlineValue)
        } else if name.hasPrefix("no-"), let spec = OptionTable.byLong[String(name.dropFirst(3))] {
            guard inlineValue == nil else { throw UsageError.unexpectedValue(option: spelling) }
            given.insert(spec.long)
            reset.append((spec.long, index))
            if !passesOver(spec) { spec.reset(&options) }
        } else {
            let suggestion = ForeignSpellings.advice[spelling] ?? OptionSuggester.suggestion(for: spelling)
            throw UsageError.unknownOption(spelling, suggestion: suggestion)
        }
    }

    /// Reads `-a`, a cluster such as `-vF`, or a short option with its value attached (`-ofile`,
    /// `-o=file`, as argparse accepts) or in the next argument.
    private mutating func readShortCluster(_ argument: String) throws(UsageError) {
        var rest = Substring(argument.dropFirst())
        while let letter = rest.first {
            rest = rest.dropFirst()
            let spelling = "-" + String(letter)
            guard let spec = OptionTable.byShort[letter] else {
                let advice = ForeignSpellings.advice[spelling]
                throw UsageError.unknownOption(
                    spelling,
                    suggestion: argument.count == 2
                        ? advice : Self.longSuggestion(forSingleDash: argument) ?? advice)
            }
            if spec.takesValue {
                let attached = rest.hasPrefix("=") ? rest.dropFirst() : rest
                try apply(spec, spelling: spelling, inlineValue: rest.isEmpty ? nil : String(attached))
                return
            }
            if rest.hasPrefix("=") { throw UsageError.unexpectedValue(option: spelling) }
            try apply(spec, spelling: spelling, inlineValue: nil)
        }
    }

    /// Applies one option, taking its value from `inlineValue` or the next argument.
    private mutating func apply(_ spec: OptionSpec, spelling: String, inlineValue: String?) throws(UsageError) {
        guard let valueName = spec.valueName else {
            guard inlineValue == nil || (spec.optionalValueName != nil && spelling == spec.longFlag) else {
                throw UsageError.unexpectedValue(option: spelling)
            }
            try run(spec, spelling: spelling, value: inlineValue)
            return
        }
        if let inlineValue {
            try run(spec, spelling: spelling, value: inlineValue)
        } else if index < arguments.count {
            let value = arguments[index]
            index += 1
            try run(spec, spelling: spelling, value: value)
        } else {
            throw UsageError.missingValue(option: spelling, valueName: valueName)
        }
    }

    /// Runs the option's `apply`, naming the option and value in any error.
    private mutating func run(_ spec: OptionSpec, spelling: String, value: String?) throws(UsageError) {
        given.insert(spec.long)
        applied.append((spec.long, index))
        if passesOver(spec) { return }
        do {
            try spec.apply(&options, value)
        } catch let error as OptionValueError {
            if value == nil, spec.valueName == nil {
                throw UsageError.refusedFlag(option: spelling, reason: error.reason)
            }
            // `-s` typed for curl's silent mode reaches --style: say whose letter it is.
            let note = ForeignSpellings.sharedLetters[spelling].map { " (\($0))" } ?? ""
            throw UsageError.invalidValue(option: spelling, value: value ?? "", reason: error.reason + note)
        } catch {
            throw UsageError.invalidValue(option: spelling, value: value ?? "", reason: "is not valid (\(error))")
        }
    }

    /// Whether `spec`, just read, is a default option this reading passes over.
    private func passesOver(_ spec: OptionSpec) -> Bool {
        index <= passOverEnd && passOver.contains(spec.long)
    }

    /// The long names of the options applied or reset by the first `count` words.
    func defaultsGiven(before count: Int) -> [String] {
        (applied + reset).filter { $0.end <= count }.map(\.long)
    }

    /// For `-follow` or `-no-follow` typed with one dash: the long spelling it resembles, if any.
    private static func longSuggestion(forSingleDash argument: String) -> String? {
        guard argument.count > 2 else { return nil }
        return OptionSuggester.suggestion(for: "-" + argument)
    }
}
