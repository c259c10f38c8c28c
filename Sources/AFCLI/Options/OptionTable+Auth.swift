import AFKit

/// The options of the last request stages, which sign or authenticate the request as sent:
/// `--aws-sigv4` and `--auth-cmd`.
extension OptionTable {
    static let authStages: [OptionSpec] = [
        OptionSpec(
            long: "aws-sigv4", scope: [.request, .run], valueName: "PROVIDER", group: .authentication,
            help: "sign with AWS Signature Version 4",
            description: "Sign every request with AWS Signature Version 4, as botocore does, written as curl "
                + "writes it: aws:amz:REGION:SERVICE (a region or service left out is read from an AWS host name, "
                + "SERVICE.REGION.amazonaws.com). The keys are -a ACCESS_KEY:SECRET_KEY, else AWS_ACCESS_KEY_ID and "
                + "AWS_SECRET_ACCESS_KEY with AWS_SESSION_TOKEN (sent as X-Amz-Security-Token) from the "
                + "environment. The signature is made last, over the headers and body as sent (after "
                + "--encrypt-cmd and --compress); a streamed file is read once to hash it, never held in memory. "
                + "--offline, -v and --curl show the signed headers; -v shows the signature and "
                + "X-Amz-Security-Token as <redacted>, --curl the token, unless --show-secrets.",
            apply: { values, text in
                values.request.authStages.awsSigV4 = try OptionValueParser.nonEmpty(
                    text ?? "", what: "a provider scope")
            },
            reset: { $0.request.authStages.awsSigV4 = nil }),
        OptionSpec(
            long: "auth-cmd", scope: [.request, .run], valueName: "CMD", group: .authentication,
            help: "add the headers CMD prints",
            description: "Run CMD with /bin/sh -c for every request, with AFCLI_METHOD, AFCLI_URL and "
                + "AFCLI_BODY_SHA256 (the SHA-256 of the body as sent, after --encrypt-cmd and --compress) in its "
                + "environment, and add each Name: value line it prints to the request's headers, replacing a "
                + "header of the same name. For HMAC schemes, vendor signatures or a token from a password "
                + "manager. A command that fails or prints anything else stops the request before anything is "
                + "sent (exit status 2, its standard error shown).",
            apply: { values, text in
                values.request.authStages.command = try OptionValueParser.nonEmpty(text ?? "", what: "a command")
            },
            reset: { $0.request.authStages.command = nil }),
        OptionSpec(
            long: "oauth2-token-url", scope: [.request, .run], valueName: "URL", group: .authentication,
            help: "the token endpoint of -A oauth2",
            description: "The OAuth 2.0 token endpoint that -A oauth2 asks for an access token with the client "
                + "credentials grant (RFC 6749 section 4.4): a POST of grant_type=client_credentials, the client "
                + "id and secret of -a CLIENT_ID:CLIENT_SECRET (else netrc's for the token URL's host) sent as "
                + "HTTP Basic. The token is kept until it "
                + "expires, in the --session file when there is one, else in $XDG_STATE_HOME/afcli/tokens (0600), "
                + "and sent as Authorization: Bearer; a 401 "
                + "with error=\"invalid_token\" gets a new token and the request is sent once more.",
            apply: { values, text in
                values.request.authStages.oauth2TokenURL = try OptionValueParser.nonEmpty(text ?? "", what: "a URL")
            },
            reset: { $0.request.authStages.oauth2TokenURL = nil }),
        OptionSpec(
            long: "oauth2-scope", scope: [.request, .run], valueName: "SCOPE", group: .authentication,
            help: "the scope -A oauth2 asks for",
            description: "The scope (space-separated names) that -A oauth2 asks the token endpoint for; a token "
                + "is kept per token URL, client id and scope.",
            apply: { values, text in
                values.request.authStages.oauth2Scope = try OptionValueParser.nonEmpty(text ?? "", what: "a scope")
            },
            reset: { $0.request.authStages.oauth2Scope = nil }),
    ]
}

/// The values of `--aws-sigv4` and `--auth-cmd`, kept together in `Settings.request.authStages`.
package struct AuthStageOptions: Equatable, Sendable {
    /// `--aws-sigv4`: the provider scope (`aws:amz:REGION:SERVICE`).
    package var awsSigV4: String? = nil
    /// `--auth-cmd`: the command.
    package var command: String? = nil
    /// `--oauth2-token-url`.
    package var oauth2TokenURL: String? = nil
    /// `--oauth2-scope`.
    package var oauth2Scope: String? = nil

    /// Whether no stage is asked for (the OAuth 2 options alone do nothing without -A oauth2).
    package var isEmpty: Bool { awsSigV4 == nil && command == nil }
}
