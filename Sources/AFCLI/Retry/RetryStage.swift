import AFKit

/// Makes the `RetryingEngine` that `EngineStack` puts in front of the engine of a single request
/// or a run when `--retry` asks for it, and refuses what cannot be retried before anything is sent.
enum RetryStage {
    /// The rules `--retry`, `--retry-delay`, `--retry-max-time` and `--retry-all-errors` give;
    /// nil without `--retry`.
    static func rules(_ options: Settings) -> RetryRules? {
        guard options.retry.count > 0 else { return nil }
        return RetryRules(
            retries: options.retry.count, delay: options.retry.delay, maxTime: options.retry.maxTime,
            allErrors: options.retry.allErrors)
    }

    /// A download's rules: `--retry` times (none by default, its tries are planned all the same),
    /// the first wait `--retry-delay` (1 s), each later one twice as long, at most a minute.
    static func downloadRules(_ options: Settings) -> RetryRules {
        RetryRules(retries: options.retry.count, delay: options.retry.delay, doublingUpTo: 60)
    }

    /// Refuses `--reconnect` without `--retry N` (its count), and `--retry` with a body read from
    /// standard input, which cannot be sent a second time.
    static func check(_ options: Settings, standardInput: StandardInputBodySource?) throws(UsageError) {
        if options.retry.reconnect, options.retry.count == 0 {
            throw UsageError.refusedFlag(
                option: "--reconnect", reason: "needs --retry N, the most times a dropped stream is connected again")
        }
        guard options.retry.count > 0, standardInput != nil else { return }
        throw UsageError.refusedFlag(
            option: "--retry",
            reason: "a body read from standard input cannot be sent again; save it to a file and send @FILE")
    }

    /// The retry stage over `engine` when `--retry` is given, else nil (the plain path pays
    /// nothing); `notes` puts each retry on standard error (`-v`).
    static func engine(over engine: any ExchangeEngine, options: Settings, notes: Bool) -> RetryingEngine? {
        guard let rules = rules(options) else { return nil }
        return RetryingEngine(
            wrapping: engine, rules: rules, reconnects: options.retry.reconnect,
            note: notes ? { ErrorReporter.note($0) } : nil)
    }
}
