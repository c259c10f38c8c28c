import AFKit

/// Where the runner gets each request's transfer settings (`TransferSettings`).
protocol TransferSettingsSource: AnyObject {
    /// The settings for `request`, checked against its URL (AF's policy checks); throws when the
    /// request must not be sent with them.
    func settings(for request: PlannedRequest) throws -> TransferSettings
}

/// The settings of a single request, made once from its options before the plan is run (its
/// policy already checked against its URL).
final class FixedTransferSettings: TransferSettingsSource {
    let settings: TransferSettings

    init(settings: TransferSettings) {
        self.settings = settings
    }

    func settings(for request: PlannedRequest) throws -> TransferSettings { settings }
}

/// The transfer settings of a run's requests, made once per distinct set of options rather
/// than once per request: most entries of a run share the run's options, and building the
/// settings looks up the HSTS file and netrc and reads pinned certificate files.
///
/// What depends on the URL (AF's policy checks, such as pinning over plain http) is still checked
/// for every request, exactly as `SecurityOptions.configure` does for a single one.
final class RunTransferSettings: TransferSettingsSource {
    /// The options the cached values were made from.
    private var options: Settings?
    /// The identity those options came with (`PlannedRequest.optionsIdentity`), if any.
    private var identity: ObjectIdentifier?
    /// The client settings (their TLS options from the policy) and the security policy made
    /// from `options`.
    private var client = TransferSettings()
    private var policy = SecurityPolicy()
    /// The process environment, where netrc is found (`$NETRC`, `$HOME`).
    private let environment: [String: String]
    /// The netrc file, looked up once (its permission warning told once); nil while not looked up.
    private var netrc: String??

    init(environment: [String: String]) {
        self.environment = environment
    }

    func settings(for request: PlannedRequest) throws -> TransferSettings {
        try settings(for: request.shared.values, identity: request.optionsIdentity, url: request.prepared.targetURI)
    }

    /// The settings for a request to `url` sent with `options`.
    /// `identity` (see `PlannedRequest.optionsIdentity`) spares comparing options known to be the
    /// same as the previous request's.
    func settings(
        for options: Settings, identity: ObjectIdentifier? = nil, url: String
    ) throws -> TransferSettings {
        if identity == nil || identity != self.identity, options != self.options {
            // netrc and credentials across redirects, as for a single request; cookies go
            // through the run's one engine (`MultiClient`), not `client.cookies`.
            var client = options.transferSettings(netrcFile: options.session.ignoreNetrc ? nil : netrcFile(options))
            client.acceptEncoding = HTTPClient.supportedAcceptEncoding
            policy = try SecurityOptions.policy(from: options)
            SecurityOptions.configure(&client, options: options, policy: policy)
            self.client = client
            self.options = options
        }
        self.identity = identity
        try policy.validate(forURL: url)
        return client
    }

    /// The netrc file of the environment, looked up on first use with `options` that do not
    /// ignore netrc (the caller passes over it under `--ignore-netrc`), and kept for the run.
    private func netrcFile(_ options: Settings) -> String? {
        if let netrc { return netrc }
        let file = RequestStores.netrcFile(options: options, environment: environment)
        netrc = .some(file)
        return file
    }
}
