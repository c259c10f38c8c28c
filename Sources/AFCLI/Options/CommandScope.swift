/// The commands options are given to: the three that send requests (a single request, `afcli
/// download`, `afcli run`), and `afcli pin`, `afcli reachability`, `afcli cache` and the config's
/// own commands (`afcli env`, `afcli config path`).
struct CommandScope: OptionSet, Sendable {
    let rawValue: UInt8

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

/// Which commands each option does something for. An option typed on the command line of a
/// command it would do nothing for is refused (exit status 2, nothing sent) instead of being
/// silently ignored: `afcli run - --pretty=all` must not look as if bodies were formatted. The config's
/// `default_options` are defaults for every command and apply wherever they mean something.
///
/// Every option of `OptionTable.all` has an entry: a unit test fails for an option without one,
/// so a new option is placed in this table when it is added.
enum OptionScopes {
    /// Option long names, each with the commands it does something for.
    static let table: [String: CommandScope] = [
        // Request
        "method": [.request, .run], "json": [.request, .run, .pin, .reachability], "form": [.request, .run],
        "multipart": [.request, .run], "plist": [.request, .run], "raw": [.request, .run],
        "base-url": .sending, "ignore-stdin": .sending, "offline": .request, "curl": .request,
        "show-secrets": [.request, .config], "boundary": [.request, .run], "env": .sending, "simulate": .sending,
        "local": .request, "encrypt-cmd": [.request, .run], "decrypt-cmd": [.request, .run],
        "encrypt": [.request, .run], "encrypted-type": [.request, .run],
        // Authentication
        "auth": .sending, "auth-type": .sending, "session": .request, "session-read-only": .request,
        "session-store-auth": .request, "cookie-jar": .request, "ignore-netrc": .sending,
        // Output
        "print": .request, "verbose": .request, "headers": .request, "body": .request,
        "quiet": [.request, .download, .pin], "output": [.request, .download], "pretty": .request,
        "style": .request, "indent": .request, "sorted": .request, "drop-nulls": .request, "plist-as": .request,
        "stream": .request, "log": [.request, .run], "log-file": [.request, .run],
        "progress": [.request, .download], "resume": .download, "overwrite": .download, "sha256": .download,
        "envelope": .request,
        "envelope-success": .request, "common-failure": .request, "write-out": .request, "meta": .request,
        // Network
        "follow": .sending, "max-redirects": .sending, "timeout": .handshaking, "max-time": .sending,
        "max-filesize": .sending, "max-expansion": .sending, "connect-timeout": .handshaking,
        "proxy": [.request, .download, .run, .pin], "check-status": .sending, "http1.1": .sending,
        "http2": .sending, "http2-prior-knowledge": .sending, "http3": .sending, "connect-to": .sending,
        "ipv4": .sending, "ipv6": .sending, "unix-socket": .sending, "interface": .sending, "noproxy": .sending,
        "compress": [.request, .run], "chunked": [.request, .run], "limit-rate": .sending, "hsts": .sending,
        "accept-status": [.request, .run], "accept-type": [.request, .run], "throttle": .request,
        "retry": .download, "retry-delay": .download, "verify": .handshaking, "insecure": .handshaking,
        "verify-host": .handshaking, "pin-key": .handshaking, "pin-cert": .handshaking, "cert": .handshaking,
        "cert-key": .handshaking, "tls-min": .handshaking, "resolve": .handshaking, "probe": .reachability,
        "watch": .reachability, "location-trusted": .sending, "cache": [.request, .run],
        "cache-ttl": [.request, .run], "cache-namespace": [.request, .run], "cache-transition-output": .request,
        // General
        "help": .every, "version": .every, "config": .every, "cache-max-size": .cache, "all": .cache, "verify-bodies": .cache,
        "parallel": .run, "first": .run, "keep-going": .run, "output-dir": .run,
    ]

    /// Options that shape a body sent, which a download never has.
    private static let bodyOptions: Set<String> = [
        "method", "json", "form", "multipart", "plist", "raw", "boundary", "encrypt-cmd", "encrypt",
        "encrypted-type", "compress", "chunked", "throttle",
    ]

    /// The options typed on `command`'s command line that it refuses, as `--long`, in table order
    /// of `OptionTable.all`: for the manual.
    static func refused(by command: CommandScope) -> [String] {
        OptionTable.all.compactMap { spec in
            guard let scope = table[spec.long], !scope.contains(command) else { return nil }
            return spec.longFlag
        }
    }

    /// Refuses the first option in `typed` (long names, as given on the command line) that does
    /// nothing for `command`; `word` names the command in the message (`config path`).
    static func check(_ typed: [String], command: CommandScope, word: String? = nil) throws(UsageError) {
        for long in typed {
            guard let scope = table[long], !scope.contains(command) else { continue }
            throw UsageError.notForCommand(
                option: "--" + long, command: word ?? command.word, reason: reason(long, command))
        }
    }

    /// Why `long` does nothing for `command`, as a clause.
    static func reason(_ long: String, _ command: CommandScope) -> String {
        let scope = table[long] ?? []
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
            if long.hasPrefix("session") || long == "cookie-jar" {
                return "the requests of a batch do not share a session or cookies"
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
