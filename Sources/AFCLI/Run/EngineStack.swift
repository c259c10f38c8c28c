import AFKit

/// The one place the engine a plan is sent on is composed, for a single request, a download and a run:
/// the transport at the bottom, then `--retry`'s decorator, the response cache over it and OAuth 2
/// over all, each only when the options ask for it (the plain path pays nothing for them),
/// together with where the runner gets each request's transfer settings.
struct EngineStack {
    /// What the runner sends on: the top of the stack.
    let engine: any ExchangeEngine
    /// Where the runner gets each request's transfer settings.
    let transferSettings: any TransferSettingsSource
    /// The retry decorator that lends a waiting try's slot to the run's other requests (a run's
    /// `--retry`); nil when there is none, or for a single request, whose waits keep everything
    /// as it is.
    private let slotBorrower: RetryingEngine?

    /// The transfer settings of a single request to `url`, made once: the options' (netrc from
    /// `stores`, the policy checked against `url`), its cookie jar or session, `verbose` for
    /// `-v`'s request heads and the Accept-Encoding it was prepared with.
    static func requestSettings(
        options: Settings, stores: RequestStores, verbose: Bool, acceptEncoding: String, url: String
    ) throws -> TransferSettings {
        var settings = options.transferSettings(netrcFile: stores.netrcFile)
        settings.verbose = verbose
        settings.acceptEncoding = acceptEncoding
        try SecurityOptions.configure(&settings, options: options, url: url)
        stores.configureCookies(&settings)
        return settings
    }

    /// The stack of a single request over its transport (libcurl's easy handle, or `--local`'s
    /// answers for `apiPath`), made with `settings`, the request's one set of transfer settings.
    /// `--retry`'s notes go to standard error under `-v`; a cj-then-network cache prints its
    /// transition (`CacheTransition`), logged in `log`; OAuth 2 keeps its tokens in `keeper`
    /// (a session's) when given.
    static func request(
        settings: TransferSettings, apiPath: String, resolved: ResolvedSettings, environment: [String: String],
        terminal: Terminal, log: RequestLogger?, oauth2Tokens keeper: (any OAuth2TokenKeeper)?
    ) throws -> EngineStack {
        let options = resolved.options
        let transport = try EnvironmentTarget.transport(resolved, apiPath: apiPath, settings: settings)
        let retrying = RetryStage.engine(over: transport, options: options, notes: options.output.verbose)
        let cache = try CacheStage.responseCache(resolved, environment: environment)
        if let cache, cache.configuration.mode == .cjThenNetwork {
            try CacheTransition.attach(to: cache, settings: resolved, terminal: terminal, log: log)
        }
        return try EngineStack(
            over: retrying ?? transport, cache: cache, options: options, oauth2Tokens: keeper,
            transferSettings: FixedTransferSettings(settings: settings), slotBorrower: nil)
    }

    /// The transfer settings of a download of `urls` (all of them checked against the policy):
    /// downloads follow redirects (DESIGN §2), leave the body undecoded and take credentials from
    /// netrc and keep them from other hosts (unless `--location-trusted`) as requests do; with
    /// `--retry` a stalled server times out (and is retried) after `downloadRetryIdleTimeout` seconds.
    static func downloadSettings(
        options: Settings, environment: [String: String], urls: [String]
    ) throws -> TransferSettings {
        var settings = options.transferSettings(
            netrcFile: RequestStores.netrcFile(options: options, environment: environment))
        settings.follow = true
        settings.acceptEncoding = nil
        if options.retry.count > 0, options.transfer.timeout == nil {
            settings.idleTimeout = Settings.Transfer.downloadRetryIdleTimeout
        }
        for url in urls { try SecurityOptions.configure(&settings, options: options, url: url) }
        return settings
    }

    /// The stack of a download: libcurl's easy handle made with `settings` (one connection pool
    /// for every URL), under the retry decorator, which drives each download's tries (planned from
    /// the bytes on disk) with `--retry`'s rules for downloads. Neither the cache nor OAuth 2 is in
    /// a download's scope: their options are refused for it.
    static func download(settings: TransferSettings, options: Settings) throws -> EngineStack {
        let retrying = RetryingEngine(wrapping: HTTPClient(options: settings), rules: RetryStage.downloadRules(options))
        return try EngineStack(
            over: retrying, cache: nil, options: options, oauth2Tokens: nil,
            transferSettings: FixedTransferSettings(settings: settings), slotBorrower: nil)
    }

    /// The stack of a run over its multi handle, `client`, with its cache (`runCache`), its
    /// transfer settings made per distinct set of options.
    static func run(
        over client: MultiClient, cache: ResponseCache?, options: Settings, environment: [String: String]
    ) throws -> EngineStack {
        let retrying = RetryStage.engine(over: client, options: options, notes: false)
        return try EngineStack(
            over: retrying ?? client, cache: cache, options: options, oauth2Tokens: nil,
            transferSettings: RunTransferSettings(environment: environment), slotBorrower: retrying)
    }

    /// A run's response cache: `--cache`, else the config environment's policy (for command lines
    /// on standard input); nil when off. cj-then-network gives two answers to one request, which a
    /// run's one line per request cannot report: typed, it was refused with the other options
    /// (`OptionScopes.check`); from default_options or the environment it is passed over, as a
    /// default that does not apply to the command, and the run goes to the network.
    static func runCache(_ resolved: ResolvedSettings, environment: [String: String]) throws -> ResponseCache? {
        if try resolved.cacheMode() == .cjThenNetwork { return nil }
        return try CacheStage.responseCache(resolved, environment: environment)
    }

    private init(
        over sending: any ExchangeEngine, cache: ResponseCache?, options: Settings,
        oauth2Tokens keeper: (any OAuth2TokenKeeper)?, transferSettings: any TransferSettingsSource,
        slotBorrower: RetryingEngine?
    ) throws {
        let cached = cache.map { CachingEngine(wrapping: sending, cache: $0, revalidatesLater: true) } ?? sending
        engine = try OAuth2Stage.wrap(cached, options: options, keeper: keeper)
        self.transferSettings = transferSettings
        self.slotBorrower = slotBorrower
    }

    /// The runner of `plan` on this stack, its transfer settings the stack's; under `--parallel`,
    /// a request waiting for its next `--retry` try lends its slot meanwhile.
    func runner(_ plan: RunPlan, reporter: any RunReporter) -> Runner {
        var plan = plan
        plan.transferSettings = transferSettings
        let runner = Runner(plan: plan, delivery: .send(engine), reporter: reporter)
        slotBorrower?.slots = runner
        return runner
    }
}
