import AFCurl

/// The cookies of a session that libcurl's engine would send with one request, as the value of
/// curl's `--cookie 'name=value; …'`: the curl tool cannot be handed the engine's Netscape lines
/// themselves, only a file or a header.
///
/// libcurl's rules (lib/cookie.c, 7.88): the host equals the cookie's domain, or ends with it
/// after a dot when the cookie tail-matches; the URL's path is the cookie's path or lies below
/// it; a secure cookie goes only to https or a local host; an expired cookie is never sent.
/// Longer paths come first, then longer domains and names, as libcurl orders them.
enum CurlCookieSelection {
    /// One parsed Netscape line.
    struct Cookie {
        var domain: String
        var tailMatch: Bool
        var path: String
        var secure: Bool
        var expires: Int64
        var name: String
        var value: String
    }

    /// `name=value; …` for the lines that apply to `url` at `now`, or nil when none does.
    static func cookieHeader(lines: [String], url: String, now: Int64) -> String? {
        // afcli's own parser, not libcurl's: the response cache asks this before anything is sent,
        // and an answer from the cache never loads libcurl. For the http(s) URLs afcli sends, the
        // two agree on scheme and host.
        guard let parsed = try? URLReference.parseRequestURL(url), let scheme = parsed.scheme,
            let host = parsed.host.map(ASCIICase.lowercased)
        else { return nil }
        let path = parsed.path.isEmpty ? "/" : parsed.path
        let secureContext = scheme == "https" || ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host)
        let sent = lines.compactMap(parse).enumerated().filter { _, cookie in
            domainMatches(cookie, host: host) && pathMatches(cookie.path, path)
                && (!cookie.secure || secureContext) && (cookie.expires == 0 || cookie.expires > now)
        }
        .sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.path.utf8.count != y.path.utf8.count { return x.path.utf8.count > y.path.utf8.count }
            if x.domain.utf8.count != y.domain.utf8.count { return x.domain.utf8.count > y.domain.utf8.count }
            if x.name.utf8.count != y.name.utf8.count { return x.name.utf8.count > y.name.utf8.count }
            return a.offset < b.offset
        }
        guard !sent.isEmpty else { return nil }
        return sent.map { "\($0.element.name)=\($0.element.value)" }.joined(separator: "; ")
    }

    /// A Netscape line (`domain TAB tailmatch TAB path TAB secure TAB expires TAB name TAB value`,
    /// `#HttpOnly_` before an HttpOnly cookie's domain); nil for anything else.
    static func parse(_ line: String) -> Cookie? {
        var text = Substring(line)
        if text.hasPrefix("#HttpOnly_") { text = text.dropFirst("#HttpOnly_".count) }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 7, !text.hasPrefix("#"), let expires = Int64(fields[4]) else { return nil }
        var domain = ASCIICase.lowercased(String(fields[0]))
        if domain.hasPrefix(".") { domain.removeFirst() }
        return Cookie(
            domain: domain, tailMatch: fields[1] == "TRUE", path: String(fields[2]), secure: fields[3] == "TRUE",
            expires: expires, name: String(fields[5]), value: fields[6...].joined(separator: "\t"))
    }

    /// Whether `cookie` belongs to `host`.
    static func domainMatches(_ cookie: Cookie, host: String) -> Bool {
        let host = ASCIICase.lowercased(host)
        return host == cookie.domain || (cookie.tailMatch && host.hasSuffix("." + cookie.domain))
    }

    /// Whether a request for `path` is inside the cookie's `cookiePath` (RFC 6265 §5.1.4).
    static func pathMatches(_ cookiePath: String, _ path: String) -> Bool {
        if cookiePath.isEmpty || cookiePath == "/" || path == cookiePath { return true }
        guard path.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).hasPrefix("/")
    }
}
