import AFCurl

/// A session in use for one request: what it adds to the request, and what the exchange
/// changes in it (HTTPie's `--session`, `--session-read-only`).
///
/// Stored headers are sent unless the command line gives a header of the same name; headers
/// typed on the command line are stored (never `Content-*`, `If-*`, or HTTPie's default
/// `User-Agent`), `Name:` removes one. A `Cookie` item becomes cookies bound to the request's
/// host. `-a` is stored unless `storesAuth` is off; the stored auth is used when no `-a` is given.
/// Cookies go through libcurl's engine, which sends each only to its own domain and path.
package struct Session: Sendable {
    /// Where the session lives.
    package let path: String
    /// Its content, updated by `apply` and `update`.
    package private(set) var file: SessionFile
    /// The request's host, which cookies without a domain are bound to.
    package private(set) var host = ""
    /// The content as loaded, to tell whether anything changed.
    private let original: SessionFile
    /// The cookies `apply` handed to libcurl's engine.
    private var fedLines: [String] = []

    package init(path: String, file: SessionFile) {
        self.path = path
        self.file = file
        self.original = file
    }

    /// Whether the request or the response changed the session.
    package var isModified: Bool { file != original }

    /// Sets the session member `key` that HTTPie does not know (afcli's own), or removes it for nil.
    package mutating func setOtherMember(_ key: String, _ value: JSONValue?) {
        if let index = file.otherMembers.firstIndex(where: { $0.key == key }) {
            if let value { file.otherMembers[index].value = value } else { file.otherMembers.remove(at: index) }
        } else if let value {
            file.otherMembers.append(JSONMember(key: key, value: value))
        }
    }

    /// The value of the session member `key` that HTTPie does not know.
    package func otherMember(_ key: String) -> JSONValue? {
        file.otherMembers.first { $0.key == key }?.value
    }

    /// Header names never stored: they describe one request's body or condition (HTTPie's rule).
    static let ignoredPrefixes = ["content-", "if-"]

    /// Merges the session into `spec` and records what the command line adds; returns the
    /// cookies for libcurl's engine as Netscape lines.
    package mutating func apply(to spec: inout RequestSpec, storesAuth: Bool) -> [String] {
        host = Session.cookieHost(of: spec.url)
        var typed: [HeaderItem] = []
        var typedCookies: [SessionCookie] = []
        for item in spec.headers {
            if ASCIICase.lowercased(item.name) == "cookie", let value = item.value {
                typedCookies += Session.parseCookieHeader(value, host: host)
            } else {
                typed.append(item)
            }
        }
        let typedNames = Set(typed.map { ASCIICase.lowercased($0.name) })
        let stored = file.headers.filter { !typedNames.contains(ASCIICase.lowercased($0.name)) }
        spec.headers = stored.map { HeaderItem(name: $0.name, value: $0.value) } + typed
        var kept = stored
        for item in typed where Session.isStorable(item) {
            if let value = item.value { kept.append(HTTPField(name: item.name, value: value)) }
        }
        file.headers = kept

        if let credentials = spec.credentials {
            if storesAuth { file.auth = SessionAuth(credentials) }
        } else if let auth = file.auth {
            spec.credentials = auth.credentials
        }
        for cookie in typedCookies {
            file.cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
            file.cookies.append(cookie)
        }
        fedLines = file.cookies.compactMap { $0.netscapeLine(defaultHost: host) }
        return fedLines
    }

    /// The session's cookies for a run's one cookie engine, as Netscape lines: a run sends to
    /// many hosts, so only cookies bound to a domain are fed (the caller refuses a session with
    /// unbound ones, which belong to the host HTTPie used it for).
    package mutating func cookiesForRun() -> [String] {
        fedLines = file.cookies.compactMap { $0.domain.isEmpty ? nil : $0.netscapeLine(defaultHost: "") }
        return fedLines
    }

    /// Replaces the cookies with the engine's after the exchange, dropping expired ones. Cookies
    /// keep their order in the file (libcurl lists them in hash order); new ones go last.
    package mutating func update(cookieLines: [String], now: Int64) {
        // The usual case, nothing set or expired: libcurl lists exactly the lines it was fed
        // (in another order), and the file's cookies stay as they are (once all are bound).
        if cookieLines.count == fedLines.count,
            file.cookies.allSatisfy({ !$0.domain.isEmpty && !$0.isExpired(now: now) }),
            Set(cookieLines) == Set(fedLines)
        {
            return
        }
        let current = cookieLines.compactMap(SessionCookie.init(netscapeLine:)).filter { !$0.isExpired(now: now) }
        var byKey: [String: SessionCookie] = [:]
        for cookie in current { byKey[cookie.key] = cookie }
        var cookies: [SessionCookie] = []
        for cookie in file.cookies {
            if let kept = byKey.removeValue(forKey: cookie.key) { cookies.append(kept) }
        }
        cookies += current.filter { byKey[$0.key] != nil }
        file.cookies = cookies
    }

    /// Whether a typed header is kept in the session.
    static func isStorable(_ item: HeaderItem) -> Bool {
        let name = ASCIICase.lowercased(item.name)
        if ignoredPrefixes.contains(where: { name.hasPrefix($0) }) { return false }
        if name == "user-agent", item.value?.hasPrefix("afcli/") == true { return false }
        return true
    }

    /// Takes the `Cookie` items out of `spec` as Netscape lines bound to the request's host, for
    /// a cookie jar without a session: libcurl would otherwise send them as a second `Cookie`
    /// header beside the engine's.
    package static func takeCookieItems(from spec: inout RequestSpec) -> [String] {
        let host = cookieHost(of: spec.url)
        var lines: [String] = []
        spec.headers.removeAll { item in
            guard ASCIICase.lowercased(item.name) == "cookie", let value = item.value else { return false }
            lines += cookieLines(value, host: host)
            return true
        }
        return lines
    }

    /// Takes the `Cookie` fields out of a prepared request (a `.http` file's, a `run -` line's)
    /// as Netscape lines bound to the request's host, for a run's cookie engine, as
    /// `takeCookieItems` does for a single request's.
    package static func takeCookieFields(from request: inout PreparedRequest) -> [String] {
        guard request.headers.contains(where: { ASCIICase.equal($0.name, "cookie") }) else { return [] }
        let host = cookieHost(of: request.url)
        var lines: [String] = []
        request.headers.removeAll { field in
            guard ASCIICase.equal(field.name, "cookie") else { return false }
            lines += cookieLines(field.value, host: host)
            return true
        }
        return lines
    }

    /// The cookies of a `Cookie` value as Netscape lines bound to `host`.
    private static func cookieLines(_ value: String, host: String) -> [String] {
        parseCookieHeader(value, host: host).compactMap { $0.netscapeLine(defaultHost: host) }
    }

    /// `a=1; b=2` as cookies bound to `host` (path `/`, no expiry).
    static func parseCookieHeader(_ value: String, host: String) -> [SessionCookie] {
        CookieHeader.pairs(value).compactMap { pair in
            guard let value = pair.value, !pair.name.isEmpty else { return nil }
            return SessionCookie(
                name: pair.name.trimmingSpaces, value: value.trimmingSpaces, domain: SessionCookie.pythonDomain(host))
        }
    }

    /// The host cookies are bound to: lower case, an IPv6 literal without brackets.
    static func cookieHost(of url: String) -> String {
        var host = ASCIICase.lowercased(URLReference(parsing: url).host ?? "")
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }
}

extension SessionCookie {
    /// What identifies a cookie in a jar: name, domain and path (RFC 6265 §5.3 step 11).
    fileprivate var key: String { name + "\t" + domain + "\t" + path }
}

extension SessionAuth {
    /// The session form of `-a` credentials.
    init(_ credentials: Credentials) {
        switch credentials {
        case .basic(let user, let password): self.init(type: "basic", rawAuth: user + ":" + password)
        case .digest(let user, let password): self.init(type: "digest", rawAuth: user + ":" + password)
        case .bearer(let token): self.init(type: "bearer", rawAuth: token)
        // The type names of HTTPie's plugins for these schemes (httpie-ntlm, httpie-negotiate).
        case .ntlm(let user, let password): self.init(type: "ntlm", rawAuth: user + ":" + password)
        case .negotiate(let user, let password): self.init(type: "negotiate", rawAuth: user + ":" + password)
        }
    }

    /// The credentials to send: `user:password` splits at the first colon, as `-a` does.
    var credentials: Credentials {
        if type == "bearer" { return .bearer(token: rawAuth) }
        let parts = rawAuth.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let user = String(parts[0])
        let password = parts.count > 1 ? String(parts[1]) : ""
        switch type {
        case "digest": return .digest(user: user, password: password)
        case "ntlm": return .ntlm(user: user, password: password)
        case "negotiate": return .negotiate(user: user, password: password)
        default: return .basic(user: user, password: password)
        }
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
