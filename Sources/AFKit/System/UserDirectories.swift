import Glibc

/// Where the user's own files live: the home directory and the XDG base directories that afcli
/// keeps its config, sessions, HSTS cache, tokens and response cache under.
///
/// The home is `$HOME`, else the password database's entry for the effective user (as curl and
/// HTTPie do: `env -i`, systemd units and containers run without HOME). A relative path is never
/// used, so the working directory's `.config/afcli` can never pass for the user's config. A
/// relative `$XDG_CONFIG_HOME`, `$XDG_STATE_HOME` or `$XDG_CACHE_HOME` is ignored, as the XDG
/// Base Directory specification says.
package enum UserDirectories {
    /// One of the XDG base directories: its variable and where it is under the home without it.
    package enum Base: Sendable {
        /// `$XDG_CONFIG_HOME`, else `~/.config`: the config file and sessions.
        case config
        /// `$XDG_STATE_HOME`, else `~/.local/state`: the HSTS cache and OAuth tokens.
        case state
        /// `$XDG_CACHE_HOME`, else `~/.cache`: the response cache.
        case cache

        /// The environment variable that names it.
        package var variable: String {
            switch self {
            case .config: return "XDG_CONFIG_HOME"
            case .state: return "XDG_STATE_HOME"
            case .cache: return "XDG_CACHE_HOME"
            }
        }

        /// Where it is below the home directory when the variable is unset or relative.
        var belowHome: String {
            switch self {
            case .config: return ".config"
            case .state: return ".local/state"
            case .cache: return ".cache"
            }
        }
    }

    /// The home directory: an absolute `$HOME`, else the password database's home for the
    /// effective user when that is absolute; nil when neither is.
    package static func home(_ environment: [String: String]) -> String? {
        if let home = environment["HOME"].flatMap(absolute) { return home }
        return passwordDatabaseHome()
    }

    /// `afcli`'s directory below `base`: an absolute `$XDG_*_HOME/afcli`, else
    /// `HOME/<default>/afcli`; nil when there is no home directory either.
    package static func afcliDirectory(_ base: Base, _ environment: [String: String]) -> String? {
        if let root = environment[base.variable].flatMap(absolute) { return FileIO.join(root, "afcli") }
        guard let home = home(environment) else { return nil }
        return FileIO.join(FileIO.join(home, base.belowHome), "afcli")
    }

    /// `~` and `~/x` with the home directory (how HTTPie expands a session path, and a config's
    /// `local_dir`); anything else, or no home, unchanged.
    package static func expandingTilde(_ path: String, _ environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = home(environment) else { return path }
        return path == "~" ? home : FileIO.join(home, String(path.dropFirst(2)))
    }

    /// The home directory recorded for the effective user in the password database, when absolute.
    /// Only read when `$HOME` is not usable, so a plain request pays nothing for it.
    private static func passwordDatabaseHome() -> String? {
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        return absolute(String(cString: directory))
    }

    /// `path` without trailing slashes when it is absolute; nil for an empty or relative path.
    private static func absolute(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
