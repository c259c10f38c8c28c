import Glibc

/// What afcli knows about where its output goes: terminals, colour, and the environment.
package struct Terminal: Sendable {
    /// Whether standard output is a terminal.
    package var stdoutIsTerminal: Bool
    /// Whether standard error is a terminal.
    package var stderrIsTerminal: Bool
    /// Whether colour escapes may be written to standard output when it is a terminal.
    package var colorsStdout: Bool
    /// Whether the environment asks for colour on output that is no terminal (CI logs):
    /// `FORCE_COLOR` or `CLICOLOR_FORCE`, unless `NO_COLOR` says otherwise.
    package var forcesColor = false

    /// Reads the process's descriptors and the colour switches of the environment.
    ///
    /// The order, from strongest: an explicit `--pretty` (applied later, by `ResponseDisplay`);
    /// `NO_COLOR` (non-empty) off, as CPython reads it, since a user's "never" outranks a CI
    /// system's "always"; `FORCE_COLOR` or `CLICOLOR_FORCE` (non-empty, not `0`) on, for pipes,
    /// files and `TERM=dumb` (the force-color and CLICOLOR conventions); else colour on a terminal
    /// whose `TERM` is not `dumb`.
    package static func current(environment: [String: String]) -> Terminal {
        let stdoutTTY = isatty(STDOUT_FILENO) == 1
        let stderrTTY = isatty(STDERR_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        let forced = !noColor && ["FORCE_COLOR", "CLICOLOR_FORCE"].contains { isOn(environment[$0]) }
        return Terminal(
            stdoutIsTerminal: stdoutTTY, stderrIsTerminal: stderrTTY,
            colorsStdout: stdoutTTY && !noColor && (!dumb || forced), forcesColor: forced)
    }

    /// Whether a force-colour variable is set to something other than empty or `0`.
    static func isOn(_ value: String?) -> Bool {
        guard let value else { return false }
        return !value.isEmpty && value != "0"
    }

    /// The environment variables afcli reads itself (libcurl reads the proxy variables on its
    /// own): the locale for Accept-Language, and colour switches.
    package static let variablesRead = [
        "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "TERM", "COLUMNS",
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
