import AFKit
import Glibc

/// Runs `afcli env` (each environment's name and base URL), `afcli env show NAME` (one
/// environment, secrets redacted unless `--show-secrets`) and `afcli config path`.
struct EnvironmentCommand {
    var positionals: [String]
    var options: Settings
    var config: ConfigSetup

    /// Lists the environments, or shows the one named after `show`.
    func runEnvironments() throws -> ExitStatus {
        let words = Array(positionals.dropFirst())
        guard let file = config.file else {
            if !words.isEmpty {
                throw EnvironmentUsageError.noConfigToShow(config.shownPath, skipped: !config.readsConfig)
            }
            ErrorReporter.warn(
                config.readsConfig
                    ? "there is no config file at \(config.shownPath)" : "--no-config skips the config file")
            return .success
        }
        switch words.count {
        case 0:
            let width = file.environments.map(\.name.count).max() ?? 0
            let lines = file.environments.map { profile in
                let padding = String(repeating: " ", count: width - profile.name.count)
                let base = profile.baseURL.map { Self.shown(url: $0, showSecrets: options.request.showSecrets) } ?? "-"
                return Self.visible(profile.name + padding + "  " + base) + "\n"
            }
            try Self.printOut(lines.joined())
        case 2 where words[0] == "show":
            guard let profile = file.environment(named: words[1]) else {
                throw ConfigError.unknownEnvironment(
                    name: words[1], file: config.shownPath, known: file.environments.map(\.name))
            }
            try Self.printOut(Self.describe(profile, showSecrets: options.request.showSecrets))
        case 1 where words[0] == "show":
            throw EnvironmentUsageError.showNeedsName(file: config.shownPath, known: file.environments.map(\.name))
        default:
            throw EnvironmentUsageError.envUsage(words.joined(separator: " "))
        }
        return .success
    }

    /// Prints the config file's path; a note says when it does not exist or is skipped.
    func runConfigPath() throws -> ExitStatus {
        let words = positionals.dropFirst()
        guard words.first == "path" else { throw EnvironmentUsageError.configUsage(words.first ?? "") }
        guard let path = config.path else {
            ErrorReporter.note("there is none: HOME is unset and the password database has no home for this user")
            return .failure
        }
        try Self.printOut(path + "\n")
        if !config.readsConfig {
            ErrorReporter.note("--no-config skips it")
        } else if let problem = config.problem {
            ErrorReporter.note("it cannot be used: \(problem)")
        } else if !FileIO.exists(path) {
            ErrorReporter.note("it does not exist")
        }
        return .success
    }

    /// One environment as `key: value` lines, in the config's terms; secrets as `<redacted>`.
    static func describe(_ profile: EnvironmentProfile, showSecrets: Bool) -> String {
        var lines = ["name: " + profile.name]
        if let base = profile.baseURL { lines.append("base_url: " + shown(url: base, showSecrets: showSecrets)) }
        if !profile.parameters.isEmpty {
            lines.append("params:")
            for parameter in profile.parameters {
                if !showSecrets, SecretRedaction.isSecretParameter(name: parameter.name) {
                    lines.append("  \(parameter.name): \(SecretRedaction.placeholder)")
                    continue
                }
                switch parameter.value {
                case .text(let text): lines.append("  \(parameter.name): \(text)")
                case .json(let json): lines.append("  \(parameter.name): \(json) (JSON)")
                }
            }
        }
        if !profile.headers.isEmpty {
            lines.append("headers:")
            for header in profile.headers {
                let value =
                    showSecrets ? header.value : SecretRedaction.headerValue(name: header.name, value: header.value)
                lines.append("  \(header.name): \(value)")
            }
        }
        if let envelope = profile.envelope {
            lines.append("envelope:")
            lines.append("  status: " + envelope.statusKey)
            lines.append("  message: " + envelope.messageKey)
            lines.append("  result: " + envelope.resultKey)
            if !envelope.success.isEmpty { lines.append("  success: " + envelope.success.joined(separator: ", ")) }
            if !envelope.commonFailure.isEmpty {
                lines.append("  common_failure: " + envelope.commonFailure.joined(separator: ", "))
            }
        }
        let commands = [("encrypt", profile.encryptCommand), ("decrypt", profile.decryptCommand)]
        for case (let key, let command?) in commands {
            lines.append("\(key): " + (showSecrets ? command : SecretRedaction.command(command)))
        }
        let rest = [
            ("simulate_domain", profile.simulateDomain.map { shown(url: $0, showSecrets: showSecrets) }),
            ("local_dir", profile.localDirectory),
            ("cache", profile.cachePolicy), ("cache_namespace", profile.cacheNamespace),
        ]
        for case (let key, let value?) in rest { lines.append("\(key): \(value)") }
        // Names and values come from a file: control characters must not reach the terminal raw.
        return lines.map { visible($0) + "\n" }.joined()
    }

    /// A URL from the config: its user information hidden as the request log hides it
    /// (`ann:***@`) unless `--show-secrets`.
    static func shown(url: String, showSecrets: Bool) -> String {
        showSecrets ? url : SecretRedaction.url(url)
    }

    /// `text` with C0 controls (but tab), DEL and C1 controls written as `\xHH`.
    static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value) {
                let hex = String(value, radix: 16)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func printOut(_ text: String) throws {
        let stream = OutputStream(descriptor: STDOUT_FILENO, target: "standard output")
        try stream.write(text)
        try stream.flush()
    }
}

/// Environment command lines that cannot work; reported with exit status 2, nothing sent.
enum EnvironmentUsageError: ClassifiedError, CustomStringConvertible {
    /// `afcli env` with words other than `show NAME`.
    case envUsage(String)
    /// `afcli env show` without a NAME: the file's environments are listed to pick from.
    case showNeedsName(file: String, known: [String])
    /// `afcli config` without `path`.
    case configUsage(String)
    /// `afcli env show NAME` without a config file.
    case noConfigToShow(String, skipped: Bool)
    /// `--simulate` together with `--local`.
    case simulateWithLocal
    /// `--simulate` with an absolute request URL.
    case simulateAbsolute(String)
    /// `--local` without an environment that has `local_dir`.
    case localNeedsDirectory(environment: String?)
    /// `--local` with `--session` or `--cookie-jar`, which a local answer would overwrite.
    case localWithStore(String)

    var failureClass: FailureClass { .badInput }

    var description: String {
        switch self {
        case .envUsage(let words):
            return "afcli env takes nothing or show NAME, not \"\(words)\""
        case .showNeedsName(let file, let known):
            let list = known.isEmpty ? "it defines none" : "known: " + known.joined(separator: ", ")
            return "afcli env show needs an environment NAME from \(file) (\(list))"
        case .configUsage(let word):
            return word.isEmpty ? "afcli config needs a word: path" : "afcli config knows only path, not \"\(word)\""
        case .noConfigToShow(let path, let skipped):
            return skipped ? "--no-config skips the config file" : "there is no config file at \(path)"
        case .simulateWithLocal:
            return "--simulate and --local cannot be combined: one sends to another origin, the other sends nothing"
        case .simulateAbsolute(let url):
            return "--simulate needs a URL relative to the environment's base, not \(url)"
        case .localNeedsDirectory(let name?):
            return "--local needs local_dir in the environment \(name)"
        case .localWithStore(let option):
            return "--local and \(option) cannot be combined: a local answer sets no cookies to keep"
        case .localNeedsDirectory(nil):
            return "--local needs an environment with local_dir (--env NAME)"
        }
    }
}
