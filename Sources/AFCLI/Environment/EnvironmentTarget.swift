import AFKit

/// Where a request goes once the environment is applied: the URL the user typed joined to the
/// environment's base (or, with `--simulate`, to its simulation origin), and the transport that
/// answers it (libcurl, or the local answer files of `--local`).
///
/// `--base-url` given on the command line (or in `default_options`) replaces the environment's
/// base for that request and keeps its own RFC 3986 rules (a `/path` goes to the base's root);
/// `--simulate` in turn replaces both.
enum EnvironmentTarget {
    /// The simulation origin when the environment names none (CJNetwork's default).
    static let defaultSimulateDomain = "http://localhost/"

    /// The absolute URL and API path for the URL `text` typed on the command line.
    static func resolve(
        _ text: String, settings: ResolvedSettings
    ) throws -> EnvironmentURL.Joined {
        let options = settings.options
        if options.environment.simulate != nil, options.environment.local {
            throw EnvironmentUsageError.simulateWithLocal
        }
        // A local answer sets no cookies: writing the session or jar back would empty it.
        if options.environment.local,
            let store = options.session.name != nil
                ? "--session" : options.session.cookieJar != nil ? "--cookie-jar" : nil
        {
            throw EnvironmentUsageError.localWithStore(store)
        }
        switch settings.base {
        case .reference(let baseURL):
            let made = try RequestURL.makeFinal(from: text, baseURL: baseURL)
            let typedPath = text.prefix { $0 != "?" && $0 != "#" }
            let apiPath = EnvironmentURL.isAbsolute(text) ? URLReference(parsing: made.url).path : String(typedPath)
            return EnvironmentURL.Joined(
                url: made.url, apiPath: String(apiPath.drop { $0 == "/" }), isFinal: made.isFinal)
        case .environment(let base):
            return try EnvironmentURL.join(text, base: base)
        case .simulation(let origin):
            if EnvironmentURL.isAbsolute(text) { throw EnvironmentUsageError.simulateAbsolute(text) }
            return try EnvironmentURL.join(text, base: origin)
        }
    }

    /// The transport for a request: the local answer files with `--local`, else libcurl.
    static func transport(
        _ resolved: ResolvedSettings, apiPath: String, settings: TransferSettings
    ) throws -> RequestTransport {
        guard resolved.options.environment.local else { return HTTPClient(options: settings) }
        let profile = resolved.profile
        guard let directory = profile?.localDirectory else {
            throw EnvironmentUsageError.localNeedsDirectory(environment: profile?.name)
        }
        return LocalAnswerTransport(directory: directory, apiPath: apiPath) { path in
            ErrorReporter.warn(
                "no local answer for /\(path) in \(directory) (neither \(LocalAnswerTransport.fileName(for: path)) "
                    + "nor its .json): answering CJNetwork's placeholder message")
        }
    }
}
