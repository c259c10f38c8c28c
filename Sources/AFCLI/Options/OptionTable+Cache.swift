import AFKit

/// The response cache's settings from the command line (`Settings.pipeline.cache`).
package struct CacheOptions: Equatable, Sendable {
    /// `--cache[=MODE]` / `--no-cache`; nil when neither was given (the environment decides).
    package var mode: CacheMode? = nil
    /// `--cache-ttl`: the CJ strategies' lifetime.
    package var lifetime: CacheLifetime? = nil
    /// `--cache-namespace`: overrides the environment's namespace.
    package var namespace: String? = nil
    /// `--cache-transition-output`: where cj-then-network's stored answer goes when stdout is not a terminal.
    package var transitionOutput: String? = nil
    /// `--cache-max-size`: what `afcli cache prune` trims the cache down to.
    package var maxSize: Int64 = 256 << 20
    /// `--all`: `afcli cache rm --all`.
    package var all = false
    /// `--verify-bodies`: `afcli cache prune --verify-bodies` checks body files against their names.
    package var verify = false
}

/// The response cache: `--cache[=MODE]`, the CJ strategies' lifetime, the namespace, and the
/// options of `afcli cache`.
extension OptionTable {
    static let cache: [OptionSpec] = [
        OptionSpec(
            long: "cache", scope: [.request, .run], group: .network, help: "use the response cache, in MODE (http)",
            description: "Use the response cache (see RESPONSE CACHE). --cache alone, or --cache=http, follows HTTP's "
                + "caching rules for a private cache; --cache=refresh revalidates even a fresh response; --cache=only "
                + "answers from the cache or fails with exit status 15, and never sends anything (an unsafe method "
                + "included); --cache=cj-first and --cache=cj-then-network are CJNetwork's strategies and need a "
                + "lifetime, from --cache-ttl or the environment's cache_ttl. --no-cache turns the cache off, also "
                + "when the environment sets a policy.",
            completion: .words(["http", "refresh", "only", "cj-first", "cj-then-network"]),
            apply: { values, text in
                guard let mode = CacheMode(value: text ?? "") else {
                    throw OptionValueError("is not http, refresh, only, cj-first or cj-then-network")
                }
                values.pipeline.cache.mode = mode
            },
            reset: { $0.pipeline.cache.mode = .off }
        ).withOptionalValue("MODE"),
        OptionSpec(
            long: "cache-ttl", scope: [.request, .run], valueName: "DURATION", group: .network,
            help: "lifetime of cj-first/cj-then-network",
            description: "How long a stored answer serves --cache=cj-first and --cache=cj-then-network: seconds, or a "
                + "number with s, m, h or d (90, 10m, 1h, 7d), or forever (kept until removed). An entry older than "
                + "DURATION is fetched again.",
            completion: .words(["forever"]),
            apply: { values, text in
                guard let lifetime = CacheLifetime(text ?? "") else {
                    throw OptionValueError("is not a duration (90, 10m, 1h, 7d) or forever")
                }
                values.pipeline.cache.lifetime = lifetime
            },
            reset: { $0.pipeline.cache.lifetime = nil }),
        OptionSpec(
            long: "cache-namespace", scope: [.request, .run], valueName: "NAME", group: .network,
            help: "keep cached answers apart by NAME",
            description: "Part of every cache key (CJNetwork's app-version slot): answers stored under one NAME never "
                + "answer another. Overrides the environment's cacheNamespace.",
            apply: { values, text in
                values.pipeline.cache.namespace = try OptionValueParser.nonEmpty(text ?? "", what: "a namespace")
            },
            reset: { $0.pipeline.cache.namespace = nil }),
        OptionSpec(
            long: "cache-transition-output", scope: .request, valueName: "FILE", group: .network,
            help: "cj-then-network: stored body to FILE",
            description: "With --cache=cj-then-network, write the stored answer's body to FILE (0600, not through a "
                + "link) instead of standard output; standard output then gets only the network's answer. - is "
                + "standard output, when -o FILE takes the network's answer.",
            completion: .file,
            apply: { values, text in
                values.pipeline.cache.transitionOutput = try OptionValueParser.nonEmpty(text ?? "", what: "a file name")
            },
            reset: { $0.pipeline.cache.transitionOutput = nil }),
        OptionSpec(
            long: "cache-max-size", scope: .cache, valueName: "BYTES", group: .general,
            help: "cache prune: trim to BYTES (256m)",
            description: "The size afcli cache prune trims the cache to, least recently used entries first, after "
                + "removing expired ones: a number with k, m or g. 256m by default.",
            apply: { values, text in values.pipeline.cache.maxSize = try OptionValueParser.byteCount(text ?? "") },
            reset: { $0.pipeline.cache.maxSize = 256 << 20 }),
        OptionSpec(
            long: "verify-bodies", scope: .cache, group: .general, help: "cache prune: check body files' SHA-256",
            description: "With afcli cache prune, read every stored body file and remove those whose SHA-256 is "
                + "not their name (a damaged disk, an edit), with the entries that use them.",
            apply: { values, _ in values.pipeline.cache.verify = true },
            reset: { $0.pipeline.cache.verify = false }),
        OptionSpec(
            long: "all", scope: .cache, group: .general, help: "cache rm: remove every entry",
            description: "With afcli cache rm, remove every stored response.",
            apply: { values, _ in values.pipeline.cache.all = true },
            reset: { $0.pipeline.cache.all = false }),
    ]
}
