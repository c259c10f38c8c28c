import Glibc

/// Where afcli keeps libcurl's HSTS cache: `$XDG_STATE_HOME/afcli/hsts.txt`, else
/// `~/.local/state/afcli/hsts.txt` (XDG Base Directory: state that should persist between runs
/// but is not worth backing up). libcurl reads and writes the file; afcli only names it and
/// creates its directory (0700) the first time there is a policy to save.
package enum HSTSLocation {
    /// The variables the location depends on, read with getenv.
    package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["XDG_STATE_HOME", "HOME"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// The cache file for `environment`; nil when neither an absolute `XDG_STATE_HOME` nor an
    /// absolute `HOME` is set (a relative one is ignored, as the XDG specification says).
    package static func defaultFile(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return trimmingSlashes(state) + "/afcli/hsts.txt"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return trimmingSlashes(home) + "/.local/state/afcli/hsts.txt"
        }
        return nil
    }

    /// `path` without trailing slashes (`/` becomes empty, so appending still gives `/afcli`).
    private static func trimmingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
