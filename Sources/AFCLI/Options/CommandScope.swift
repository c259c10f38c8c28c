/// The commands that send requests: a single request (`afcli URL`), `afcli download` and
/// `afcli run`.
struct CommandScope: OptionSet, Sendable {
    let rawValue: UInt8

    static let request = CommandScope(rawValue: 1)
    static let download = CommandScope(rawValue: 2)
    static let run = CommandScope(rawValue: 4)
    static let sending: CommandScope = [.request, .download, .run]

    /// The word afcli's messages name the command by.
    var word: String {
        switch self {
        case .download: return "download"
        case .run: return "run"
        default: return "request"
        }
    }
}

/// Which sending commands each option does something for. An option typed on the command line of
/// a command it would do nothing for is refused (exit status 2, nothing sent) instead of being
/// silently ignored: `afcli run - --cache` must not look as if the run were cached. The config's
/// `default_options` are defaults for every command and apply wherever they mean something.
///
/// Every option of `OptionTable.all` has an entry: a unit test fails for an option without one,
/// so a new option is placed in this table when it is added.
enum OptionScopes {
    /// Option long names, each with the commands it does something for.
    static let table: [String: CommandScope] = [
        // Request
        "method": [.request, .run], "json": [.request, .run], "form": [.request, .run],
        "multipart": [.request, .run], "plist": [.request, .run], "raw": [.request, .run],
        "base-url": .sending, "ignore-stdin": .sending, "offline": .request, "curl": .request,
        "show-secrets": .request, "boundary": [.request, .run], "env": .sending, "simulate": .sending,
        "local": .request, "encrypt-cmd": [.request, .run], "decrypt-cmd": .request,
        "encrypt": [.request, .run], "encrypted-type": [.request, .run],
        // Authentication
        "auth": .sending, "auth-type": .sending, "session": .request, "session-read-only": .request,
        "session-store-auth": .request, "cookie-jar": .request, "ignore-netrc": .sending,
        // Output
        "print": .request, "verbose": .request, "headers": .request, "body": .request,
        "quiet": [.request, .download], "output": [.request, .download], "pretty": .request, "style": .request,
        "indent": .request, "sorted": .request, "drop-nulls": .request, "plist-as": .request, "stream": .request,
        "log": .request, "log-file": .request, "progress": [.request, .download], "resume": .download,
        "overwrite": .download, "sha256": .download, "envelope": .request, "envelope-success": .request,
        "common-failure": .request, "write-out": .request, "meta": .request,
        // Network
        "follow": .sending, "max-redirects": .sending, "timeout": .sending, "max-time": .sending,
        "max-filesize": .sending, "max-expansion": .sending, "connect-timeout": .sending, "proxy": .sending,
        "check-status": .sending, "http1.1": .sending, "http2": .sending, "http2-prior-knowledge": .sending,
        "http3": .sending, "connect-to": .sending, "ipv4": .sending, "ipv6": .sending, "unix-socket": .sending,
        "interface": .sending, "noproxy": .sending, "compress": [.request, .run], "chunked": [.request, .run],
        "limit-rate": .sending, "hsts": .sending, "accept-status": [.request, .run],
        "accept-type": [.request, .run], "throttle": .request, "retry": .download, "retry-delay": .download,
        "verify": .sending, "insecure": .sending, "verify-host": .sending, "pin-key": .sending,
        "pin-cert": .sending, "cert": .sending, "cert-key": .sending, "tls-min": .sending, "resolve": .sending,
        "probe": [], "watch": [], "location-trusted": .sending, "cache": .request, "cache-ttl": .request,
        "cache-namespace": .request, "cache-transition-output": .request,
        // General
        "help": .sending, "version": .sending, "config": .sending, "cache-max-size": [], "all": [],
        "parallel": .run, "first": .run, "keep-going": .run, "output-dir": .run,
    ]

    /// The command other than the sending ones that owns an option none of them takes.
    static let owners: [String: String] = [
        "probe": "reachability", "watch": "reachability", "cache-max-size": "cache", "all": "cache",
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
    /// nothing for `command`.
    static func check(_ typed: [String], command: CommandScope) throws(UsageError) {
        for long in typed {
            guard let scope = table[long], !scope.contains(command) else { continue }
            throw UsageError.notForCommand(option: "--" + long, command: command.word, reason: reason(long, command))
        }
    }

    /// Why `long` does nothing for `command`, as a clause.
    static func reason(_ long: String, _ command: CommandScope) -> String {
        if let owner = owners[long] { return "it is an option of afcli \(owner)" }
        let scope = table[long] ?? []
        if scope == .download { return "it is an option of afcli download" }
        if scope == .run { return "it is an option of afcli run" }
        if long.hasPrefix("cache") { return "the response cache serves single requests" }
        if long == "log" || long == "log-file" { return "the request log is written for single requests" }
        switch command {
        case .download:
            if bodyOptions.contains(long) { return "a download sends no body" }
            if long == "local" { return "a download always goes to the network" }
            if long == "offline" || long == "curl" || long == "show-secrets" { return "a download always sends its request" }
            if long.hasPrefix("session") || long == "cookie-jar" { return "a download keeps no session or cookies" }
            return "a download saves the body as received"
        case .run:
            if long == "local" { return "a run sends every request over the network" }
            if long == "throttle" { return "a run sends bodies unpaced" }
            if long == "offline" || long == "curl" || long == "show-secrets" { return "a batch always sends its requests" }
            if long.hasPrefix("session") || long == "cookie-jar" { return "the requests of a batch do not share a session or cookies" }
            if long == "decrypt-cmd" { return "a run saves bodies as received" }
            return "a run prints one JSON line per request; --output-dir saves the bodies as received"
        default:
            return "it does nothing for a single request"
        }
    }
}
