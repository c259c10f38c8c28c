import AFCurl

/// What selects a stored response: the namespace, method, target URI (the normalized URL with the
/// `Host` actually sent), a digest of the request body and a digest of the credentials and cookies
/// sent (never the secrets themselves). `Vary` then selects among the variants stored under one key.
package struct CacheKey: Equatable, Sendable {
    package var namespace: String
    package var method: String
    package var url: String
    /// The SHA-256 (hex) of every part above plus the body and credential digests.
    package var digest: String

    /// The key of `request`; nil for a request whose body is streamed (a file, standard input),
    /// which cannot be digested without reading it twice and so is never cached, and for a `Host`
    /// field that is no authority. `credentials` are extra secrets libcurl adds itself (netrc,
    /// cookie files), hashed in. An encrypted body is keyed on what was typed, before encryption
    /// (`PreparedRequest.plainBodyDigest`): the encrypted bytes differ each time (salts, nonces).
    package init?(request: PreparedRequest, namespace: String, credentials: [UInt8] = []) {
        let bodyDigest: String
        if let plain = request.plainBodyDigest {
            bodyDigest = plain
        } else if let bytes = request.bodyBytes {
            bodyDigest = SHA256.hex(SHA256.hash(bytes))
        } else if request.body == nil {
            bodyDigest = "-"
        } else {
            return nil
        }
        guard let target = Self.targetURI(request) else { return nil }
        self.namespace = namespace
        method = request.method
        url = target
        var secrets = SHA256()
        for field in request.headers {
            let name = ASCIICase.lowercased(field.name)
            if name == "authorization" || name == "cookie" || name == "proxy-authorization" {
                secrets.update(Array("\(name): \(field.value)\n".utf8))
            }
        }
        if let digest = request.digestCredentials {
            secrets.update(Array("\(request.challengeScheme.rawValue): \(digest.user):\(digest.password)\n".utf8))
        }
        secrets.update(credentials)
        let credentialDigest = SHA256.hex(secrets.finalize())
        let parts = [namespace, method, url, bodyDigest, credentialDigest].joined(separator: "\u{0}")
        digest = SHA256.hex(SHA256.hash(Array(parts.utf8)))
    }

    /// The target URI of `request` (RFC 9112 §3.3) as the cache compares it: its URL normalized,
    /// with the authority of a `Host` field the user gave in place of the URL's (the host the
    /// server was asked for); nil when that field is no authority (a slash, a space, an `@`...).
    package static func targetURI(_ request: PreparedRequest) -> String? {
        let url = normalize(request.url)
        guard let field = request.headers.first(where: { ASCIICase.equal($0.name, "host") }) else {
            return url
        }
        let host = field.value.cacheTrimmed
        guard !host.isEmpty else { return url }
        let allowed = host.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && !"/?#@\\\"<>{}|^`".utf8.contains(byte)
        }
        guard allowed, let separator = url.firstRange(of: "://") else { return nil }
        let rest = url[separator.upperBound...]
        let path = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        return normalize(url[..<separator.upperBound] + host + path)
    }

    /// `reference` (a Location or Content-Location value) resolved against `base`, normalized;
    /// nil when it is of another origin (scheme, host or port) than `base`.
    package static func sameOrigin(_ reference: String, as base: String) -> String? {
        let resolved = URLReference(parsing: base).resolving(URLReference(parsing: reference.cacheTrimmed).percentEncoded())
        let url = normalize(resolved.removingDotSegments().string)
        return origin(url) == origin(base) ? url : nil
    }

    /// `scheme://authority` of a normalized URL.
    private static func origin(_ url: String) -> Substring {
        guard let separator = url.firstRange(of: "://") else { return Substring(url) }
        let rest = url[separator.upperBound...]
        return url[..<(rest.firstIndex(of: "/") ?? url.endIndex)]
    }

    /// The URL as the cache compares it: scheme and host in lower case, no default port, no
    /// fragment, and `/` for an empty path; the path and query are kept byte for byte.
    package static func normalize(_ url: String) -> String {
        var text = url
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        let pieces = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard pieces.count == 2 else { return text }
        let scheme = ASCIICase.lowercased(String(pieces[0]))
        let rest = pieces[1]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = ASCIICase.lowercased(String(rest[..<authorityEnd]))
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        var tail = String(rest[authorityEnd...])
        if !tail.hasPrefix("/") { tail = "/" + tail }
        return scheme + "://" + authority + tail
    }

    /// The variant a request selects among responses that vary on `names` (lower case, sorted):
    /// a digest of the request's values of those headers, "" when the response has no `Vary`.
    package static func variant(names: [String], headers: [HTTPField]) -> String {
        guard !names.isEmpty else { return "" }
        var text = ""
        for name in names {
            // Repeated lines and the spaces around list members change nothing (`Foo: 1, 2` is
            // `Foo: 1` plus `Foo: 2`, and ` 1, 2 ` is `1,2`): RFC 9111 §4.1 lets a cache normalise.
            let members = headers.filter { ASCIICase.lowercased($0.name) == name }.flatMap {
                $0.value.split(separator: ",", omittingEmptySubsequences: false).map { $0.cacheTrimmed }
            }
            text += name + ":" + members.joined(separator: ",") + "\n"
        }
        return SHA256.hex(SHA256.hash(Array(text.utf8)))
    }

    /// The request header names a response's `Vary` fields nominate, lower case, sorted, unique.
    package static func varyNames(_ head: ResponseHead) -> [String] {
        let names = head.values(for: "Vary").flatMap { $0.split(separator: ",") }.map {
            ASCIICase.lowercased($0.cacheTrimmed)
        }
        return Array(Set(names.filter { !$0.isEmpty })).sorted()
    }
}
