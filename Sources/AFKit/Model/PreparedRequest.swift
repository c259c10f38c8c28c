import AFCurl

/// A request ready for the wire: what the serializers made of a `RequestSpec`.
///
/// Headers are exactly the ones afcli sends besides `Host` and the body framing headers
/// (`Content-Length` / `Transfer-Encoding`), which libcurl writes from `body.length`.
package struct PreparedRequest {
    /// The method in upper case.
    package var method: String
    /// The final absolute URL, query included, user information removed.
    package var url: String
    /// Headers in the order they are sent; repeated names are sent repeatedly.
    package var headers: [HTTPField]
    /// Header names the user unset (`Name:`); libcurl must not add its own for these.
    package var removedHeaders: [String]
    /// The body, or nil for none.
    package var body: BodySource?
    /// The body bytes when they were built in memory (JSON, form, plist, `--raw`), for `--offline`,
    /// `--verbose` and the request log; nil for streamed bodies.
    package var bodyBytes: [UInt8]?
    /// The SHA-256 (hex) of the body before `--encrypt-cmd` replaced it, for the cache key; nil
    /// when the body was not encrypted.
    package var plainBodyDigest: String? = nil
    /// Digest credentials, negotiated by libcurl; basic and bearer are already in `headers`.
    package var digestCredentials: (user: String, password: String)?
    /// The scheme libcurl answers the challenge with, for `digestCredentials`.
    package var challengeScheme: ChallengeScheme = .digest
    /// The request target sent in place of the URL's path and query: `*` for a server-wide
    /// `OPTIONS *`; nil for the URL's own.
    package var requestTarget: String? = nil

    /// The stages that authenticated the request for its URL (`--auth-cmd`, `--aws-sigv4`), run
    /// again for a redirect's; nil when none did.
    package var authentication: RequestAuthentication? = nil

    /// The URI the request is for, as reports name it: `url`, or for an asterisk-form `OPTIONS *`
    /// the origin alone (`http://host:port`, no path), the target URI RFC 9110 reconstructs for it;
    /// `http://host:port/` would be a request for the path `/`, and `…/*` one for the path `/*`.
    package var targetURI: String {
        guard requestTarget == "*", let scheme = url.firstRange(of: "://") else { return url }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(url[..<authority.endIndex])
    }

    package init(
        method: String, url: String, headers: [HTTPField], removedHeaders: [String] = [],
        body: BodySource? = nil, bodyBytes: [UInt8]? = nil,
        digestCredentials: (user: String, password: String)? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.removedHeaders = removedHeaders
        self.body = body
        self.bodyBytes = bodyBytes
        self.digestCredentials = digestCredentials
    }
}

/// One header line: a name and its value.
package struct HTTPField: Equatable, Sendable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
