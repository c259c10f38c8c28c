/// An OAuth 2.0 client credentials grant that gave no token: the API request is not sent.
package enum OAuth2Error: ClassifiedError, Equatable, CustomStringConvertible {
    /// `-A oauth2` without a token URL.
    case missingTokenURL
    /// `-A oauth2` without `-a CLIENT_ID:SECRET`.
    case missingClient
    /// `-A oauth2` on `afcli download`, which does not fetch tokens.
    case notForDownloads
    /// The token endpoint answered a status other than 200 (RFC 6749 §5.2: an `error` code and
    /// perhaps its description).
    case refused(url: String, status: Int, error: String?)
    /// The token endpoint's 200 is not a token response (§5.1).
    case badResponse(url: String, reason: String)

    package var failureClass: FailureClass {
        switch self {
        case .missingTokenURL, .missingClient, .notForDownloads: return .badInput
        case .refused, .badResponse: return .failure
        }
    }

    package var description: String {
        switch self {
        case .missingTokenURL:
            return "-A oauth2 needs --oauth2-token-url URL"
        case .missingClient:
            return "-A oauth2 needs the client's id and secret: -a CLIENT_ID:CLIENT_SECRET"
        case .notForDownloads:
            return "-A oauth2 is not available for afcli download: send the request without download, with -o FILE"
        case .refused(let url, let status, let error):
            return "the OAuth 2 token endpoint \(url) answered \(status)" + (error.map { ": \($0)" } ?? "")
                + "; the request was not sent"
        case .badResponse(let url, let reason):
            return "the OAuth 2 token endpoint \(url) sent no usable token (\(reason)); the request was not sent"
        }
    }
}
