import AFKit

/// `-a USER` on a run asks for the password once, when the batch is read, rather than once per
/// request (and never in the middle of a run).
enum BatchCredentials {
    /// `options` with a password typed now for `-a USER` (basic or digest); unchanged otherwise.
    /// `ask` is the terminal prompt (replaced in tests).
    static func resolvingPassword(
        _ options: Settings, ask: (String) throws -> String? = { try TerminalPrompt.password(user: $0) }
    ) throws -> Settings {
        guard let auth = options.request.auth, options.request.authType != .bearer, !auth.contains(":") else {
            return options
        }
        var resolved = options
        resolved.request.auth = auth + ":" + (try ask(auth) ?? "")
        return resolved
    }
}
