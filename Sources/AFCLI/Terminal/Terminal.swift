import Glibc

/// What afcli knows about where its output goes: terminals, colour, and the environment.
package struct Terminal: Sendable {
    /// Whether standard output is a terminal.
    package var stdoutIsTerminal: Bool
    /// Whether standard error is a terminal.
    package var stderrIsTerminal: Bool
    /// Whether colour escapes may be written to standard output.
    package var colorsStdout: Bool

    /// Reads the process's descriptors and the environment (`NO_COLOR`, `TERM=dumb`).
    package static func current(environment: [String: String]) -> Terminal {
        let stdoutTTY = isatty(STDOUT_FILENO) == 1
        let stderrTTY = isatty(STDERR_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        return Terminal(
            stdoutIsTerminal: stdoutTTY, stderrIsTerminal: stderrTTY, colorsStdout: stdoutTTY && !noColor && !dumb)
    }

    /// The environment variables afcli reads itself (libcurl reads the proxy variables on its
    /// own): the locale for Accept-Language, and colour switches.
    package static let variablesRead = [
        "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR", "TERM", "COLUMNS",
        // Sessions and netrc (RequestStores).
        "HOME", "AFCLI_CONFIG_DIR", "XDG_CONFIG_HOME", "NETRC",
        // The config file's environment (ConfigSetup).
        "AFCLI_ENV",
        // The response cache: its directory, and the fixed clock its tests set.
        "XDG_CACHE_HOME", "AFCLI_TEST_NOW",
    ]

    /// The variables in `variablesRead` that are set, looked up one by one with getenv: copying
    /// the whole environment into a dictionary costs more than a tenth of a local request.
    package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        for name in variablesRead {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
