import AFKit
import Glibc

/// `-A oauth2`: the client made from the options, and the engine decorator that adds its token to
/// every request, put in place by the single request and by `afcli run` alike.
enum OAuth2Stage {
    /// The client of `--oauth2-token-url`, `-a CLIENT_ID:CLIENT_SECRET` and `--oauth2-scope`,
    /// keeping tokens in `$XDG_STATE_HOME/afcli/tokens`; throws when one is missing. Without `-a`,
    /// the token request carries no credentials, so that netrc's for the token URL's host answer
    /// (as for any request without credentials of its own).
    /// `keeper` keeps tokens instead of the token store (a session's `OAuth2SessionTokens`).
    static func client(_ options: Settings, keeper: (any OAuth2TokenKeeper)? = nil) throws -> OAuth2Client {
        guard let tokenURL = options.request.authStages.oauth2TokenURL else { throw OAuth2Error.missingTokenURL }
        var client: (id: String, secret: String)?
        if let auth = options.request.auth {
            guard let colon = auth.firstIndex(of: ":"), colon != auth.startIndex else { throw OAuth2Error.missingClient }
            client = (String(auth[..<colon]), String(auth[auth.index(after: colon)...]))
        }
        return OAuth2Client(
            tokenURL: tokenURL, client: client, scope: options.request.authStages.oauth2Scope,
            store: keeper ?? OAuth2TokenStore(directory: tokenDirectory()))
    }

    /// `$XDG_STATE_HOME/afcli/tokens`, else `~/.local/state/afcli/tokens`; nil without a home.
    private static func tokenDirectory() -> String? {
        var environment: [String: String] = [:]
        for name in ["HOME", UserDirectories.Base.state.variable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return UserDirectories.afcliDirectory(.state, environment).map { $0 + "/tokens" }
    }

    /// `engine` behind the OAuth 2 decorator when `-A oauth2` or a token URL is given (a run's
    /// lines may say `-A oauth2` themselves: the token URL, scope and client are the run's);
    /// unchanged otherwise, so that a request without them pays nothing.
    /// `keeper`: the session's tokens, when a session is in use.
    static func wrap(
        _ engine: any ExchangeEngine, options: Settings, keeper: (any OAuth2TokenKeeper)? = nil
    ) throws -> any ExchangeEngine {
        guard options.request.authType == .oauth2 || options.request.authStages.oauth2TokenURL != nil else {
            return engine
        }
        return OAuth2Engine(wrapping: engine, client: try client(options, keeper: keeper))
    }
}
