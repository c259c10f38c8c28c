import AFCurl

/// A request ready for the wire: what the serializers made of a `RequestSpec`.
///
/// Headers are exactly the ones afcli sends besides `Host` and the body framing headers
/// (`Content-Length` / `Transfer-Encoding`), which libcurl writes from `body.length`.
package struct PreparedRequest {
    /// The method in upper case.
    package var method: String {
        get { storage.fields.method }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.method
        }
    }
    /// The final absolute URL, query included, user information removed.
    package var url: String {
        get { storage.fields.url }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.url
        }
    }
    /// Headers in the order they are sent; repeated names are sent repeatedly.
    package var headers: [HTTPField] {
        get { storage.fields.headers }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.headers
        }
    }
    /// Header names the user unset (`Name:`); libcurl must not add its own for these.
    package var removedHeaders: [String] {
        get { storage.fields.removedHeaders }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.removedHeaders
        }
    }
    /// The body, or nil for none.
    package var body: BodySource? {
        get { storage.fields.body }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.body
        }
    }
    /// The body bytes when they were built in memory (JSON, form, plist, `--raw`), for `--offline`,
    /// `--verbose` and the request log; nil for streamed bodies.
    package var bodyBytes: [UInt8]? {
        get { storage.fields.bodyBytes }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.bodyBytes
        }
    }
    /// The SHA-256 (hex) of the body before `--encrypt-cmd` replaced it, for the cache key; nil
    /// when the body was not encrypted.
    package var plainBodyDigest: String? {
        get { storage.fields.plainBodyDigest }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.plainBodyDigest
        }
    }
    /// Digest credentials, negotiated by libcurl; basic and bearer are already in `headers`.
    package var digestCredentials: (user: String, password: String)? {
        get { storage.fields.digestCredentials }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.digestCredentials
        }
    }
    /// The scheme libcurl answers the challenge with, for `digestCredentials`.
    package var challengeScheme: ChallengeScheme {
        get { storage.fields.challengeScheme }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.challengeScheme
        }
    }
    /// The request target sent in place of the URL's path and query: `*` for a server-wide
    /// `OPTIONS *`; nil for the URL's own.
    package var requestTarget: String? {
        get { storage.fields.requestTarget }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.requestTarget
        }
    }

    /// The stages that authenticated the request for its URL (`--auth-cmd`, `--aws-sigv4`), run
    /// again for a redirect's; nil when none did.
    package var authentication: RequestAuthentication? {
        get { storage.fields.authentication }
        _modify {
            SharedFields.makeUnique(&storage)
            yield &storage.fields.authentication
        }
    }

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
        storage = SharedFields(Fields(
            method: method, url: url, headers: headers, removedHeaders: removedHeaders, body: body,
            bodyBytes: bodyBytes, digestCredentials: digestCredentials))
    }

    // MARK: - Storage

    /// Every field, in one object: a request is handed through the runner, the client, the
    /// exchange and its report, and a copy of it costs one reference count that way; a change to
    /// a shared copy copies the fields first.
    private var storage: SharedFields<Fields>

    /// The fields themselves, which `storage` holds.
    private struct Fields {
        var method: String
        var url: String
        var headers: [HTTPField]
        var removedHeaders: [String]
        var body: BodySource?
        var bodyBytes: [UInt8]?
        var plainBodyDigest: String? = nil
        var digestCredentials: (user: String, password: String)?
        var challengeScheme: ChallengeScheme = .digest
        var requestTarget: String? = nil
        var authentication: RequestAuthentication? = nil
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
