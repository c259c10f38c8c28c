/// The commands options are given to: the three that send requests (a single request, `afcli
/// download`, `afcli run`), and `afcli pin`, `afcli reachability`, `afcli cache` and the config's
/// own commands (`afcli env`, `afcli config path`).
package struct CommandScope: OptionSet, Sendable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    static let request = CommandScope(rawValue: 1)
    static let download = CommandScope(rawValue: 2)
    static let run = CommandScope(rawValue: 4)
    static let pin = CommandScope(rawValue: 8)
    static let reachability = CommandScope(rawValue: 16)
    static let cache = CommandScope(rawValue: 32)
    static let config = CommandScope(rawValue: 64)

    /// The commands that send requests.
    static let sending: CommandScope = [.request, .download, .run]
    /// The commands that make a TLS handshake, and take its settings and timeouts.
    static let handshaking: CommandScope = [.request, .download, .run, .pin, .reachability]
    /// Every command.
    static let every: CommandScope = [.request, .download, .run, .pin, .reachability, .cache, .config]
    /// Each command alone, in the order messages name them.
    static let each: [CommandScope] = [.request, .download, .run, .pin, .reachability, .cache, .config]

    /// The command `command` names; nil for those that take no options of their own (help, the
    /// version, the manual and completions), where every option is accepted and none matters.
    init?(_ command: Command) {
        switch command {
        case .request: self = .request
        case .download: self = .download
        case .run: self = .run
        case .pin: self = .pin
        case .reachability: self = .reachability
        case .cache: self = .cache
        case .environments, .configPath: self = .config
        case .help, .completions, .manPage, .version: return nil
        }
    }

    /// The word afcli's messages name the command by (`afcli env` for the config's commands).
    var word: String {
        switch self {
        case .download: return "download"
        case .run: return "run"
        case .pin: return "pin"
        case .reachability: return "reachability"
        case .cache: return "cache"
        case .config: return "env"
        default: return "request"
        }
    }
}

/// Refuses options where they would do nothing, from the scope each option's own `OptionSpec`
/// entry names and what a run's source declares it can carry (`RunSource`). An option typed on
/// the command line of a command it would do nothing for is refused (exit status 2, nothing sent)
/// instead of being silently ignored: `afcli run - --pretty=all` must not look as if bodies were
/// formatted. The config's `default_options` are defaults for every command: the parser passes
/// over those outside the command's scope, so they never reach this check.
enum OptionScopes {
    /// The commands the option named `long` does something for; empty for no option.
    static func scope(of long: String) -> CommandScope {
        OptionTable.byLong[long]?.scope ?? []
    }

    /// Whether the option named `long` does something for `command`.
    static func applies(_ long: String, to command: CommandScope) -> Bool {
        scope(of: long).contains(command)
    }

    /// Options that shape a body sent, which a download never has.
    private static let bodyOptions: Set<String> = [
        "method", "json", "form", "multipart", "plist", "raw", "boundary", "encrypt-cmd", "encrypt",
        "encrypted-type", "compress", "chunked", "throttle",
    ]

    /// The options typed on `command`'s command line that it refuses, as `--long`, in table order
    /// of `OptionTable.all`: for the manual.
    static func refused(by command: CommandScope) -> [String] {
        OptionTable.all.compactMap { spec in spec.scope.contains(command) ? nil : spec.longFlag }
    }

    /// Refuses the first option in `typed` (long names, as given on the command line) that
    /// `source` refuses or that does nothing for `command`; `word` names the command in the
    /// message (`config path`). This is the one place afcli refuses an option for where it is
    /// given; combinations of values (`--resume` with `-o -`) are checked by their commands.
    static func check(
        _ typed: [String], command: CommandScope, word: String? = nil, source: RunSource? = nil
    ) throws {
        for long in typed {
            if let source, let refusal = source.refusals[long] {
                switch refusal {
                case .doesNotApply(let reason):
                    throw UsageError.notForCommand(option: "--" + long, command: source.word, reason: reason)
                case .belongsToTheRun:
                    throw BatchError.runOption("--" + long)
                }
            }
            let scope = scope(of: long)
            guard !scope.isEmpty, !scope.contains(command) else { continue }
            throw UsageError.notForCommand(
                option: "--" + long, command: word ?? command.word, reason: reason(long, command))
        }
    }

    /// Refuses, as `check` does, the options typed on `parsed`'s command line that its command
    /// (and for `afcli run`, its source) cannot use.
    static func check(_ typed: [String], for parsed: ParsedCommandLine) throws {
        guard !typed.isEmpty, let command = CommandScope(parsed.command) else { return }
        let word = parsed.command == .configPath ? "config path" : nil
        let source = command == .run ? RunSource.of(parsed.positionals.dropFirst().first ?? "") : nil
        try check(typed, command: command, word: word, source: source)
        // One value of an option a run takes: refused when typed; from default_options or the
        // environment a run passes it over (`RunCommand.responseCache`), as other defaults.
        if command == .run, parsed.options.pipeline.cache.mode == .cjThenNetwork, typed.contains("cache") {
            throw cjThenNetworkInARun
        }
    }

    /// `--cache=cj-then-network` typed for a run: it gives two answers to one request, which a
    /// run's one line per request cannot report.
    static let cjThenNetworkInARun = UsageError.notForCommand(
        option: "--cache=cj-then-network", command: "run",
        reason: "a run reports one answer per request; --cache=cj-first answers from the cache alone")

    /// Why `long` does nothing for `command`, as a clause.
    static func reason(_ long: String, _ command: CommandScope) -> String {
        let scope = scope(of: long)
        // An option of one command alone is named after it.
        if scope != .request, let owner = CommandScope.each.first(where: { $0 == scope }) {
            return "it is an option of afcli \(owner.word)"
        }
        if long == "cache-transition-output", command == .run {
            return "it is for --cache=cj-then-network, whose two answers a run cannot report"
        }
        if long.hasPrefix("cache") { return "the response cache serves requests and runs" }
        if long == "log" || long == "log-file" { return "the request log is written for requests and runs" }
        switch command {
        case .download:
            if bodyOptions.contains(long) { return "a download sends no body" }
            if long == "local" { return "a download always goes to the network" }
            if long == "offline" || long == "curl" || long == "show-secrets" {
                return "a download always sends its request"
            }
            if long.hasPrefix("session") || long == "cookie-jar" { return "a download keeps no session or cookies" }
            return "a download saves the body as received"
        case .run:
            if long == "local" { return "a run sends every request over the network" }
            if long == "throttle" { return "a run sends bodies unpaced" }
            if long == "offline" || long == "curl" || long == "show-secrets" {
                return "a batch always sends its requests"
            }
            if long == "session-store-auth" {
                return "a run writes only cookies back to its session: credentials stay where they are typed"
            }
            return "a run prints one JSON line per request; --output-dir saves the bodies as received"
        case .pin:
            return "it sends no request, only makes a TLS handshake"
        case .reachability:
            return "it sends no request; it looks up the route, and connects only with --probe"
        case .cache:
            return "it only lists, shows, removes or prunes stored responses"
        case .config:
            return "it only reads the config file"
        default:
            return "it does nothing for a single request"
        }
    }
}
