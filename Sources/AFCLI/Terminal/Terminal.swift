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
        return Terminal(stdoutIsTerminal: stdoutTTY, stderrIsTerminal: stderrTTY, colorsStdout: stdoutTTY && !noColor && !dumb)
    }

    /// The process environment as a dictionary.
    package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
