import AFKit

/// Decides, in one place, where a setting that both an option and the config environment can give
/// comes from: the option (typed, else from `default_options`; the parser has already laid the
/// typed words over the defaults) beats the environment, which beats afcli's built-in default.
/// `Settings` holds both (the environment in `environment.profile`); the cache, the encryption
/// stages, the envelope and `--simulate` ask `settings.resolved` rather than weigh one against
/// the other themselves.
///
/// The environment's values are kept beside the options rather than copied into them, so that
/// options laid over the settings later (a `run -` line's) are weighed the same way: a line's
/// `--no-encrypt-cmd` brings back the environment's command, as typed on the command line.
///
/// It holds only the option groups it decides for, not every option, so that a run can make one
/// per request cheaply.
struct SettingsResolver {
    /// The encryption and envelope options.
    let crypto: CryptoOptions
    /// The response-cache options.
    let cache: CacheOptions
    /// The config environment in force; nil for none.
    let profile: EnvironmentProfile?

    init(_ options: Settings) {
        crypto = options.pipeline.crypto
        cache = options.pipeline.cache
        profile = options.environment.profile
    }

    /// The precedence itself: the option's value, else the environment's, else the built-in one.
    static func choose<Value>(option: Value?, environment: Value?, builtIn: Value) -> Value {
        option ?? environment ?? builtIn
    }

    /// The precedence for a setting without a built-in value: the option's, else the
    /// environment's, else none. (A separate function: with `Value` an optional, the one above
    /// would wrap an absent option as present.)
    static func choose<Value>(option: Value?, environment: Value?) -> Value? {
        option ?? environment
    }

    /// The cache mode in force: `--cache`/`--no-cache`, else the environment's `cache` policy,
    /// else off. A policy that names no mode is refused.
    func cacheMode() throws -> CacheMode {
        // The environment's policy is read only when no option decides, so a bad one is refused
        // only then.
        if let mode = cache.mode { return mode }
        guard let policy = profile?.cachePolicy, !policy.isEmpty else { return .off }
        if policy == "off" || policy == "none" { return .off }
        guard let mode = CacheMode(value: policy) else {
            throw CacheUsageError(
                description: "the environment's cache \"\(policy)\" is not a --cache mode "
                    + "(http, refresh, only, cj-first, cj-then-network or off)")
        }
        return mode
    }

    /// The CJ strategies' lifetime: `--cache-ttl`, else the environment's `cache_ttl`; nil for
    /// neither (which a CJ strategy refuses: `CacheStage.lifetime`). A `cache_ttl` that is no
    /// duration is refused only when no option overrides it.
    func cacheLifetime() throws -> CacheLifetime? {
        if let lifetime = cache.lifetime { return lifetime }
        guard let text = profile?.cacheLifetime else { return nil }
        guard let lifetime = CacheLifetime(text) else {
            throw CacheUsageError(
                description: "the environment's cache_ttl \"\(text)\" is not a duration such as 10m, or forever")
        }
        return lifetime
    }

    /// The cache's namespace: `--cache-namespace`, else the environment's, else none.
    var cacheNamespace: String {
        Self.choose(option: cache.namespace, environment: profile?.cacheNamespace, builtIn: "")
    }

    /// The command request bodies are encrypted with: `--encrypt-cmd`, else the environment's;
    /// nil for none and under `--no-encrypt`, which turns off the environment's too.
    var encryptCommand: String? {
        crypto.disabled
            ? nil : Self.choose(option: crypto.encryptCommand, environment: profile?.encryptCommand)
    }

    /// The command responses are decrypted with, chosen as `encryptCommand` is.
    var decryptCommand: String? {
        crypto.disabled
            ? nil : Self.choose(option: crypto.decryptCommand, environment: profile?.decryptCommand)
    }

    /// The envelope `--envelope` reads: its key names from the environment (else the defaults),
    /// each status list from its option, else the environment, else the default; nil without
    /// `--envelope`.
    var envelope: EnvelopeSpec? {
        guard crypto.envelope else { return nil }
        let builtIn = EnvelopeSpec()
        var spec = profile?.envelope ?? builtIn
        spec.success = Self.choose(
            option: crypto.envelopeSuccess, environment: profile?.envelope?.success, builtIn: builtIn.success)
        spec.commonFailure = Self.choose(
            option: crypto.envelopeCommonFailure, environment: profile?.envelope?.commonFailure,
            builtIn: builtIn.commonFailure)
        return spec
    }

    /// The origin `--simulate` without a URL sends to: the environment's `simulate_domain`, else
    /// CJNetwork's default.
    var simulateOrigin: String {
        Self.choose(
            option: nil, environment: profile?.simulateDomain, builtIn: EnvironmentTarget.defaultSimulateDomain)
    }
}

extension Settings {
    /// The settings both an option and the config environment can give, decided.
    var resolved: SettingsResolver { SettingsResolver(self) }
}
