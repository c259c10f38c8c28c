import Glibc

/// Where afcli keeps libcurl's HSTS cache: `$XDG_STATE_HOME/afcli/hsts.txt`, else
/// `~/.local/state/afcli/hsts.txt` (XDG Base Directory: state that should persist between runs
/// but is not worth backing up). libcurl reads and writes the file; afcli only names it and
/// creates its directory (0700) the first time there is a policy to save.
package enum HSTSLocation {
    /// The variables the location depends on, read with getenv.
    package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["HOME", UserDirectories.Base.state.variable] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// The cache file for `environment`; nil when the user has no home directory and
    /// `XDG_STATE_HOME` is not absolute (a relative one is ignored, as the XDG specification says).
    package static func defaultFile(environment: [String: String]) -> String? {
        UserDirectories.afcliDirectory(.state, environment).map { FileIO.join($0, "hsts.txt") }
    }
}
