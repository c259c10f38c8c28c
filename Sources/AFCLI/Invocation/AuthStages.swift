import AFKit
import Glibc

/// The last request stages, after encryption and compression, so that what they sign is what is
/// sent: the `--auth-cmd` headers, then the `--aws-sigv4` signature (over those headers too).
/// Nothing is made for a request that uses neither.
enum AuthStages {
    /// The AWS variables, read only when `--aws-sigv4` is given (not at every start-up).
    static let awsVariables = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"]

    /// Applies `--auth-cmd` and `--aws-sigv4` to `prepared`; the AWS keys come from `-a`, else from
    /// the environment.
    static func apply(to prepared: inout PreparedRequest, options: Settings) throws {
        if options.request.authType == .oauth2 {
            // The token itself is added by OAuth2Engine as the request starts.
            _ = try OAuth2Stage.client(options)
            prepared.headers.removeAll { $0.name.lowercased() == "authorization" }
            prepared.headers.append(HTTPField(name: "Authorization", value: OAuth2Engine.placeholder))
        }
        let command = options.request.authStages.command.map(AuthCommand.init(command:))
        var signer: AWSSigV4Stage?
        if let scope = options.request.authStages.awsSigV4 {
            var environment: [String: String] = [:]
            for name in awsVariables { if let value = getenv(name) { environment[name] = String(cString: value) } }
            let credentials = try AWSSigV4Stage.credentials(auth: options.request.auth, environment: environment)
            signer = try AWSSigV4Stage(scope: scope, credentials: credentials)
        }
        guard command != nil || signer != nil else { return }
        // Kept with the request, so that a redirect runs them again for its URL.
        try RequestAuthentication.apply(RequestAuthentication(command: command, signer: signer), to: &prepared)
    }

    /// What `--curl` redacts of the stages' headers: a session token from the environment.
    static func curlSecrets(_ prepared: PreparedRequest, options: Settings) -> CurlSecrets {
        guard options.request.authStages.awsSigV4 != nil else { return CurlSecrets() }
        let tokens = prepared.headers.filter { $0.name.lowercased() == "x-amz-security-token" }
        return CurlSecrets(headerLines: Set(tokens.map { "\($0.name): \($0.value)" }))
    }

    /// Why `--curl` shows the stages' headers as `--header` lines.
    static func curlNotes(_ options: Settings) -> [String] {
        var notes: [String] = []
        if options.request.authStages.awsSigV4 != nil {
            notes.append(
                "the AWS signature is shown as the headers afcli signed now (valid for 15 minutes), not as curl's "
                    + "--aws-sigv4: libcurl 7.88 signs a query it has not sorted wrongly")
        }
        if options.request.authStages.command != nil {
            notes.append("the --auth-cmd headers are shown as its command printed them now")
        }
        if options.transfer.follow, options.request.authStages.command != nil || options.request.authStages.awsSigV4 != nil {
            notes.append(
                "with --location, curl sends these headers, made for this URL, to every host a redirect leads to; "
                    + "afcli makes them again for a redirect to the same origin and drops them for another")
        }
        return notes
    }
}
