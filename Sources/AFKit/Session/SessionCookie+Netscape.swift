import AFCurl

/// Conversion between session cookies and the Netscape lines libcurl's cookie engine reads
/// (CURLOPT_COOKIELIST) and reports (CURLINFO_COOKIELIST).
///
/// Python's cookie jar (HTTPie) records a host-only cookie from a host without a dot as
/// `host.local` (`localhost.local`); libcurl knows it as `localhost`. The suffix is dropped on the
/// way in and added on the way out, so a session for `localhost` works in both programs.
extension SessionCookie {
    /// The Netscape line for libcurl; an unbound cookie (empty domain) is bound to `host`.
    /// nil for a cookie no Netscape line can carry (a tab or line break in a field).
    package func netscapeLine(defaultHost host: String) -> String? {
        var domain = domain.isEmpty ? host : domain
        let tailmatch = domain.hasPrefix(".")
        if tailmatch { domain.removeFirst() }
        domain = SessionCookie.curlDomain(domain)
        let fields = [
            tailmatch ? "." + domain : domain, tailmatch ? "TRUE" : "FALSE", path.isEmpty ? "/" : path,
            secure ? "TRUE" : "FALSE", String(expires ?? 0), name, value,
        ]
        // Byte checks, not Character iteration: this runs for every cookie of every request.
        guard !domain.isEmpty, !fields.contains(where: { $0.utf8.contains { $0 == 9 || $0 == 10 || $0 == 13 } }) else {
            return nil
        }
        return fields.joined(separator: "\t")
    }

    /// The cookie of a libcurl Netscape line; nil for a line that is not one.
    package init?(netscapeLine line: String) {
        var fields = line.utf8.split(separator: 9, omittingEmptySubsequences: false).map { String(Substring($0)) }
        // A cookie without a value has six fields in libcurl's output.
        if fields.count == 6 { fields.append("") }
        guard fields.count == 7, let expires = Int64(fields[4]) else { return nil }
        var domain = fields[0]
        if domain.hasPrefix("#HttpOnly_") { domain.removeFirst("#HttpOnly_".count) }
        let tailmatch = fields[1] == "TRUE" || domain.hasPrefix(".")
        if domain.hasPrefix(".") { domain.removeFirst() }
        guard !domain.isEmpty else { return nil }
        domain = SessionCookie.pythonDomain(domain)
        self.init(
            name: fields[5], value: fields[6], domain: tailmatch ? "." + domain : domain, path: fields[2],
            expires: expires == 0 ? nil : expires, secure: fields[3] == "TRUE")
    }

    /// Whether the cookie's expiry lies before `now` (seconds since the epoch).
    package func isExpired(now: Int64) -> Bool {
        guard let expires else { return false }
        return expires <= now
    }

    /// `localhost.local` → `localhost` (see the type's note); other names unchanged.
    static func curlDomain(_ domain: String) -> String {
        let lowered = ASCIICase.lowercased(domain)
        guard lowered.hasSuffix(".local") else { return lowered }
        let stem = lowered.utf8.dropLast(".local".utf8.count)
        return stem.contains(UInt8(ascii: ".")) || stem.isEmpty ? lowered : String(Substring(stem))
    }

    /// `localhost` → `localhost.local`, as Python's cookie jar records it; names with a dot and
    /// IPv6 literals unchanged.
    static func pythonDomain(_ domain: String) -> String {
        domain.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") } ? domain : domain + ".local"
    }
}
