import AFKit

/// Reads the config file once, before the command line is parsed: its `default_options` are
/// prepended to argv (so the same parser reads them and a later `--no-X` undoes one), and its
/// environments are kept for `--env` / `$AFCLI_ENV`.
///
/// `--no-config` anywhere before `--` skips the file (the last of `--config` and `--no-config`
/// wins). A broken file stops every command that could use it, but not `--help`, `--version`,
/// `help`, `man`, `completions` or `config path`, which must work while the user repairs it.
struct ConfigSetup {
    /// The config file's path (whether or not it exists); nil when the user has no home directory
    /// and no `AFCLI_CONFIG_DIR`, so there is no config to read.
    let path: String?
    /// Whether the file is read at all (false under `--no-config`).
    let readsConfig: Bool
    /// The file, when it exists, was read and could be used.
    let file: ConfigFile?
    /// The command line to parse: the default options, then argv.
    let arguments: [String]
    /// How many words at the start of `arguments` are the default options.
    var defaultCount = 0
    /// Why the file could not be used, when a command that does not need it goes on without it.
    var problem: String? = nil

    /// Reads the config for `argv` and prints its warnings (unknown keys; secrets others can read).
    static func prepare(_ argv: [String], environment: [String: String]) throws -> ConfigSetup {
        let found = ConfigLoader.path(environment)
        let reads = readsConfig(argv)
        guard reads, let path = found else {
            return ConfigSetup(path: found, readsConfig: reads, file: nil, arguments: argv)
        }
        let loaded: ConfigLoader.Loaded?
        do {
            loaded = try ConfigLoader.load(path: path, environment: environment)
        } catch {
            guard toleratesBrokenConfig(argv) else { throw error }
            return ConfigSetup(
                path: path, readsConfig: true, file: nil, arguments: argv, problem: String(describing: error))
        }
        guard let loaded else { return ConfigSetup(path: path, readsConfig: true, file: nil, arguments: argv) }
        for key in loaded.file.unknownKeys { ErrorReporter.warn("\(path): unknown key \(key) (ignored)") }
        if loaded.exposesSecrets {
            ErrorReporter.warn(
                "\(path) holds secrets (an Authorization header, a password or token, a URL with a password, "
                    + "or an encryption command) and other users can read it: chmod 600 \(path)")
        }
        let defaults = loaded.file.defaultOptions
        try checkDefaultOptions(defaults, file: path)
        return ConfigSetup(
            path: path, readsConfig: true, file: loaded.file, arguments: defaults + argv, defaultCount: defaults.count)
    }

    /// The config file's path for messages.
    var shownPath: String {
        path ?? "~/.config/afcli/config.json (HOME is unset and the password database has no home for this user)"
    }

    /// The environment the command asks for (`--env`, else `$AFCLI_ENV`); nil for none.
    func profile(for options: Settings, environment: [String: String]) throws -> EnvironmentProfile? {
        let fromVariable = environment["AFCLI_ENV"].flatMap { $0.isEmpty ? nil : $0 }
        guard let name = options.environment.name ?? (readsConfig ? fromVariable : nil) else { return nil }
        guard let file else { throw ConfigError.noConfig(name: name, file: shownPath, skipped: !readsConfig) }
        guard let profile = file.environment(named: name) else {
            throw ConfigError.unknownEnvironment(name: name, file: shownPath, known: file.environments.map(\.name))
        }
        return profile
    }

    /// The settings a command runs with: `options` resolved against the environment it asks for
    /// (`profile(for:environment:)`), or against none when `inEnvironment` is false (a `.http`
    /// run, whose environments are its own).
    func settings(
        for options: Settings, environment: [String: String], inEnvironment: Bool = true
    ) throws -> ResolvedSettings {
        ResolvedSettings(options, profile: inEnvironment ? try profile(for: options, environment: environment) : nil)
    }

    /// Whether the config is read: the last `--config` / `--no-config` before `--` decides.
    static func readsConfig(_ argv: [String]) -> Bool {
        let last = argv.prefix { $0 != "--" }.last { $0 == "--config" || $0 == "--no-config" }
        return last != "--no-config"
    }

    /// Refuses default options the parser would refuse, and words that are no options.
    private static func checkDefaultOptions(_ defaults: [String], file: String) throws {
        guard !defaults.isEmpty else { return }
        if defaults.contains("--") {
            throw ConfigError.invalidDefaultOption(file: file, reason: "-- cannot be a default option")
        }
        let words: [String]
        do {
            words = try ArgumentParser.positionalsAmongOptions(defaults)
        } catch {
            throw ConfigError.invalidDefaultOption(file: file, reason: error.description)
        }
        if let word = words.first {
            throw ConfigError.invalidDefaultOption(file: file, reason: "holds options only, not \"\(word)\"")
        }
    }

    /// Whether `argv` alone asks for something that never uses the config.
    private static func toleratesBrokenConfig(_ argv: [String]) -> Bool {
        guard let parsed = try? ArgumentParser.parse(argv) else { return false }
        switch parsed.command {
        case .help, .version, .manPage, .completions, .configPath: return true
        default: return false
        }
    }
}
