import AFKit
import Glibc

/// `-A oauth2`: the client made from the options, and the engine decorator that adds its token to
/// every request, put in place by the single request and by `afcli run` alike.
enum OAuth2Stage {
    /// The client of `--oauth2-token-url`, `-a CLIENT_ID:CLIENT_SECRET` and `--oauth2-scope`,
    /// keeping tokens in `$XDG_STATE_HOME/afcli/tokens`; throws when one is missing. Without `-a`,
    /// the token request carries no credentials, so that netrc's for the token URL's host answer
    /// (as for any request without credentials of its own).
    static func client(_ options: OptionValues) throws -> OAuth2Client {
        guard let tokenURL = options.authStages.oauth2TokenURL else { throw OAuth2Error.missingTokenURL }
        var client: (id: String, secret: String)?
        if let auth = options.auth {
            guard let colon = auth.firstIndex(of: ":"), colon != auth.startIndex else { throw OAuth2Error.missingClient }
            client = (String(auth[..<colon]), String(auth[auth.index(after: colon)...]))
        }
        var environment: [String: String] = [:]
        for name in ["HOME", UserDirectories.Base.state.variable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        let directory = UserDirectories.afcliDirectory(.state, environment).map { $0 + "/tokens" }
        return OAuth2Client(
            tokenURL: tokenURL, client: client, scope: options.authStages.oauth2Scope,
            store: OAuth2TokenStore(directory: directory))
    }

    /// `engine` behind the OAuth 2 decorator when `-A oauth2` or a token URL is given (a run's
    /// lines may say `-A oauth2` themselves: the token URL, scope and client are the run's);
    /// unchanged otherwise, so that a request without them pays nothing.
    static func wrap(_ engine: any ExchangeEngine, options: OptionValues) throws -> any ExchangeEngine {
        guard options.authType == .oauth2 || options.authStages.oauth2TokenURL != nil else { return engine }
        return OAuth2Engine(wrapping: engine, client: try client(options), showsSecrets: options.showSecrets)
    }
}
