import AFCurl

/// Decides whether a response is a redirect to follow and builds the request that follows it.
///
/// The rules are the ones browsers and python-requests (hence HTTPie) apply, RFC 9110 §15.4:
/// 301/302 turn POST into GET, 303 turns everything but HEAD into GET, 307/308 resend method and
/// body. Credentials never travel to another origin.
package enum RedirectPolicy {
    /// The status codes that are followed.
    package static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Headers that describe the body and go when the body is dropped.
    static let bodyHeaders: Set<String> = ["content-type", "content-length", "transfer-encoding", "content-encoding"]

    /// Headers that carry credentials or name the origin and go when the origin changes
    /// (requests' `rebuild_auth`, curl's default without `--location-trusted`).
    static let originHeaders: Set<String> = ["authorization", "cookie", "host"]

    /// The absolute URL to follow for `head`, or nil when it is not a followable redirect:
    /// wrong status, no `Location`, or a target that is not http(s).
    package static func target(of head: ResponseHead, requestURL: String) -> String? {
        guard redirectStatuses.contains(head.statusCode), let location = head.value(for: "Location"),
            !location.isEmpty,
            let resolved = CurlURL.resolve(asciiLocation(location), against: requestURL),
            let parts = CurlURL(resolved), parts.scheme == "http" || parts.scheme == "https"
        else { return nil }
        return resolved
    }

    /// The resolved target of a redirect that is refused because its scheme is not http or https
    /// (`file:///etc/passwd`, `ftp://…`); nil for anything else.
    package static func refusedTarget(of head: ResponseHead, requestURL: String) -> String? {
        guard redirectStatuses.contains(head.statusCode), let location = head.value(for: "Location"),
            !location.isEmpty,
            let resolved = CurlURL.resolve(asciiLocation(location), against: requestURL, allowingAnyScheme: true)
        else { return nil }
        let scheme = ASCIICase.lowercased(String(resolved.prefix { $0 != ":" }))
        return scheme == "http" || scheme == "https" ? nil : resolved
    }

    /// `location` as libcurl can parse it: a Unicode host becomes its A-label (as the request URL's
    /// does) and other non-ASCII characters are percent-encoded, as browsers treat a `Location`.
    static func asciiLocation(_ location: String) -> String {
        guard !location.utf8.allSatisfy({ $0 < 0x80 }) else { return location }
        var reference = URLReference(parsing: location).percentEncoded()
        if let host = reference.host, !host.hasPrefix("["), let ascii = try? IDNA.asciiHost(host) {
            reference.host = ascii
        }
        return reference.string
    }

    /// Whether following from `from` to `to` leaves TLS behind (https → http).
    package static func isDowngrade(from: String, to: String) -> Bool {
        CurlURL(from)?.scheme == "https" && CurlURL(to)?.scheme == "http"
    }

    /// The request to send to `target` after a `status` redirect of `request`; rewinds the body
    /// when it is resent. `trusted` (`--location-trusted`) keeps `Authorization`, `Cookie` and
    /// digest credentials on a cross-origin hop; `Host` goes regardless, since it names the old origin.
    /// The headers of the request's authentication stages go on every hop; the stages run again
    /// for `target` when it has the same origin, or any origin with `trusted`, and may throw.
    package static func follow(
        _ request: PreparedRequest, status: Int, to target: String, trusted: Bool = false
    ) throws -> PreparedRequest {
        var next = request
        next.url = target
        // `OPTIONS *` asks the server itself; a redirect names a resource.
        next.requestTarget = nil
        if changesToGET(method: request.method, status: status) {
            next.method = "GET"
            next.body = nil
            next.bodyBytes = nil
            next.headers.removeAll { bodyHeaders.contains(ASCIICase.lowercased($0.name)) }
        } else if let body = request.body {
            do {
                try body.rewind()
            } catch {
                throw HTTPClientError.cannotResendBody(status: status, underlying: error)
            }
        }
        let sameOrigin = isSameOrigin(request.url, target)
        if !sameOrigin {
            if trusted {
                next.headers.removeAll { ASCIICase.equal($0.name, "host") }
            } else {
                next.headers.removeAll { originHeaders.contains(ASCIICase.lowercased($0.name)) }
                next.digestCredentials = nil
            }
        }
        // What `--auth-cmd` and `--aws-sigv4` set was made for the old URL: it goes, and the
        // stages run again for the new one where credentials may follow (the same origin, or
        // any with `trusted`).
        if let authentication = request.authentication {
            authentication.removingHeaders(from: &next)
            next.authentication = nil
            if sameOrigin || trusted { try RequestAuthentication.apply(authentication, to: &next) }
        }
        return next
    }

    /// Whether the redirect turns the request into a bodiless GET.
    package static func changesToGET(method: String, status: Int) -> Bool {
        switch status {
        case 303: return method != "HEAD"
        case 301, 302: return method == "POST"
        default: return false
        }
    }

    /// Whether two URLs share scheme, host and port; an http→https upgrade on default ports
    /// counts as the same origin, as in requests' `should_strip_auth`.
    package static func isSameOrigin(_ from: String, _ to: String) -> Bool {
        guard let old = CurlURL(from), let new = CurlURL(to) else { return false }
        guard old.host == new.host else { return false }
        if old.scheme == new.scheme && old.port == new.port { return true }
        return old.scheme == "http" && old.port == 80 && new.scheme == "https" && new.port == 443
    }
}
