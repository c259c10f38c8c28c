/// Why the config file cannot be used; every case names the file, and a syntax error its line and
/// column. The CLI reports all of them with exit status 2, before anything is sent.
package enum ConfigError: ClassifiedError, Equatable, CustomStringConvertible {
    /// The file exists but cannot be read (permissions, a directory, an I/O error).
    case unreadable(file: String, reason: String)
    /// The file is larger than `ConfigLoader.maximumBytes`.
    case tooLarge(file: String, limit: Int)
    /// The file is not JSON: where (1-based line and column, in characters) and why.
    case syntax(file: String, line: Int, column: Int, reason: String)
    /// A key holds a value of the wrong kind; `path` is the key's dotted path (`environments.dev.params`).
    case invalidValue(file: String, path: String, reason: String)
    /// A `default_options` entry the option parser refuses; `reason` is the parser's message.
    case invalidDefaultOption(file: String, reason: String)
    /// `--env NAME` (or `AFCLI_ENV`) names no environment of the file.
    case unknownEnvironment(name: String, file: String, known: [String])
    /// An environment was asked for but there is no config file (or `--no-config` skips it).
    case noConfig(name: String, file: String, skipped: Bool)

    /// A config file that cannot be used stops the command before anything is sent.
    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "cannot read the config file \(file): \(reason)"
        case .tooLarge(let file, let limit):
            return "the config file \(file) is larger than \(limit / 1024) KiB"
        case .syntax(let file, let line, let column, let reason):
            return "\(file):\(line):\(column): the config file is not valid JSON: \(reason)"
        case .invalidValue(let file, let path, let reason):
            return "\(file): \(path) \(reason)"
        case .invalidDefaultOption(let file, let reason):
            return "\(file): default_options: \(reason)"
        case .unknownEnvironment(let name, let file, let known):
            let list = known.isEmpty ? "it defines none" : "known: " + known.joined(separator: ", ")
            return "no environment named \(name) in \(file) (\(list))"
        case .noConfig(let name, let file, let skipped):
            if skipped { return "the environment \(name) needs the config file, which --no-config skips" }
            return "the environment \(name) needs a config file, and there is none at \(file)"
        }
    }
}
