import AFKit

/// The settings a command runs with, resolved once: the parsed options (typed, over
/// `default_options`: the parser has already laid the typed words over the defaults) and, for
/// what the config environment can give too, the choice made between them: the option beats the
/// environment, which beats afcli's built-in default. A command makes one, before anything is
/// sent, and hands it to every consumer; nothing else weighs an option against the environment.
///
/// A run's entry that changes options (a `run -` line's own, a `.http` request's directives)
/// gets its value from the run's, `overriding(_:)`: the same environment weighed against its
/// options, so a line's `--no-encrypt-cmd` brings back the environment's command, as typed on
/// the command line.
struct ResolvedSettings {
    /// The options as parsed: typed, over `default_options`.
    let options: Settings
    /// The config environment in force (`--env`, `AFCLI_ENV`), as the config file defines it; nil
    /// for none, and for a `.http` run (its environments are its own).
    let profile: EnvironmentProfile?
    /// What relative request URLs are joined to.
    let base: RequestBase
    /// The command request bodies are encrypted with: `--encrypt-cmd`, else the environment's;
    /// nil for none and under `--no-encrypt`, which turns off the environment's too.
    let encryptCommand: String?
    /// The command responses are decrypted with, chosen as `encryptCommand` is.
    let decryptCommand: String?
    /// The envelope `--envelope` reads: its key names from the environment (else the defaults),
    /// each status list from its option, else the environment, else the default; nil without
    /// `--envelope`.
    let envelope: EnvelopeSpec?
    /// The cache's namespace: `--cache-namespace`, else the environment's, else none.
    let cacheNamespace: String
    /// The cache mode and the CJ strategies' lifetime, or why the environment's cannot be used:
    /// refused only by a consumer that asks (`cacheMode()`, `cacheLifetime()`).
    private let mode: Result<CacheMode, any Error>
    private let lifetime: Result<CacheLifetime?, any Error>

    /// What relative request URLs are joined to, and by whose rules.
    enum RequestBase: Equatable {
        /// `--base-url` (typed or in `default_options`), resolved RFC 3986 style (a `/path` goes
        /// to the base's root).
        case reference(String)
        /// The environment's `base_url` (nil for none), joined as CJNetwork joins it.
        case environment(String?)
        /// `--simulate`: its URL, else the environment's `simulate_domain`, else CJNetwork's
        /// default; joined as the environment's base is, and never to an absolute URL.
        case simulation(String)
    }

    /// Resolves `options` against the config environment `profile`: each setting below is the
    /// option's value, else the environment's, else the built-in one.
    init(_ options: Settings, profile: EnvironmentProfile?) {
        self.options = options
        self.profile = profile
        let crypto = options.pipeline.crypto
        let cache = options.pipeline.cache
        switch options.environment.simulate {
        case .url(let url)?:
            base = .simulation(url)
        case .environment?:
            base = .simulation(profile?.simulateDomain ?? EnvironmentTarget.defaultSimulateDomain)
        case nil:
            base = options.request.baseURL.map(RequestBase.reference) ?? .environment(profile?.baseURL)
        }
        encryptCommand = crypto.disabled ? nil : crypto.encryptCommand ?? profile?.encryptCommand
        decryptCommand = crypto.disabled ? nil : crypto.decryptCommand ?? profile?.decryptCommand
        if crypto.envelope {
            let builtIn = EnvelopeSpec()
            var spec = profile?.envelope ?? builtIn
            spec.success = crypto.envelopeSuccess ?? profile?.envelope?.success ?? builtIn.success
            spec.commonFailure =
                crypto.envelopeCommonFailure ?? profile?.envelope?.commonFailure ?? builtIn.commonFailure
            envelope = spec
        } else {
            envelope = nil
        }
        cacheNamespace = cache.namespace ?? profile?.cacheNamespace ?? ""
        mode = Result { try Self.cacheMode(option: cache.mode, policy: profile?.cachePolicy) }
        lifetime = Result { try Self.cacheLifetime(option: cache.lifetime, text: profile?.cacheLifetime) }
    }

    /// The settings of a run's entry with options of its own (`options`, the run's with the
    /// entry's laid over them), in the run's environment.
    func overriding(_ options: Settings) -> ResolvedSettings {
        ResolvedSettings(options, profile: profile)
    }

    /// The cache mode in force: `--cache`/`--no-cache`, else the environment's `cache` policy,
    /// else off. A policy that names no mode is refused.
    func cacheMode() throws -> CacheMode { try mode.get() }

    /// The CJ strategies' lifetime: `--cache-ttl`, else the environment's `cache_ttl`; nil for
    /// neither (which a CJ strategy refuses: `CacheStage.lifetime`). A `cache_ttl` that is no
    /// duration is refused only when no option overrides it.
    func cacheLifetime() throws -> CacheLifetime? { try lifetime.get() }

    // The environment's values are read only when no option decides, so a bad one is refused
    // only then.
    private static func cacheMode(option: CacheMode?, policy: String?) throws -> CacheMode {
        if let option { return option }
        guard let policy, !policy.isEmpty, policy != "off", policy != "none" else { return .off }
        guard let mode = CacheMode(value: policy) else {
            throw CacheUsageError(
                description: "the environment's cache \"\(policy)\" is not a --cache mode "
                    + "(http, refresh, only, cj-first, cj-then-network or off)")
        }
        return mode
    }

    private static func cacheLifetime(option: CacheLifetime?, text: String?) throws -> CacheLifetime? {
        if let option { return option }
        guard let text else { return nil }
        guard let lifetime = CacheLifetime(text) else {
            throw CacheUsageError(
                description: "the environment's cache_ttl \"\(text)\" is not a duration such as 10m, or forever")
        }
        return lifetime
    }
}
