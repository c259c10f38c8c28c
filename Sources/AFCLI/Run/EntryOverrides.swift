import AFKit

/// What one entry of a run changes of the run's settings, layered over them when the entry is
/// prepared: a `.http` request's `# @no-redirect`, `# @timeout N` and `# @connection-timeout N`.
/// (A `run -` line's own options are parsed over the run's by the option parser itself.)
/// An entry without overrides is sent with the run's settings object itself, so the runner
/// knows, without comparing, that its transfer settings are the run's.
struct EntryOverrides: Equatable {
    /// `# @no-redirect`: false; nil keeps the run's `--follow`.
    var follow: Bool?
    /// `# @timeout N`: the idle timeout (`--timeout`).
    var idleTimeout: Double?
    /// `# @connection-timeout N` (`--connect-timeout`).
    var connectTimeout: Double?

    /// The overrides a `.http` request's directives make.
    init(_ request: HTTPFileRequest) {
        follow = request.noRedirect ? false : nil
        idleTimeout = request.timeout
        connectTimeout = request.connectionTimeout
    }

    /// Whether the entry changes nothing.
    var isEmpty: Bool { follow == nil && idleTimeout == nil && connectTimeout == nil }

    /// The run's options with these applied: the run's own object when there is nothing to apply.
    func applied(to run: SharedOptions) -> (options: SharedOptions, isShared: Bool) {
        guard !isEmpty else { return (run, true) }
        var options = run.values
        if let follow { options.transfer.follow = follow }
        if let idleTimeout { options.transfer.timeout = idleTimeout }
        if let connectTimeout { options.transfer.connectTimeout = connectTimeout }
        return (SharedOptions(run.settings.overriding(options)), false)
    }
}
