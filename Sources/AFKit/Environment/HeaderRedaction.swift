import AFCurl

/// The one rule by which what afcli shows of an exchange hides credentials: `-v`'s request and
/// response heads, the `--report` files (the HAR entries' headers and cookies, the JUnit
/// report's curl line). `--show-secrets` (`revealing`) shows everything.
///
/// A header's value is hidden when its name is a credential afcli knows (`Authorization`,
/// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Amz-Security-Token`), when a name of its
/// looks like a secret's by `SecretRedaction`'s rule (`token`, `key`, `secret`…, as `afcli env
/// show` hides them), when an `--auth-cmd` set it (`RequestAuthentication.headerNames`), or when
/// the environment configures the header with a secret value. As Chrome's sanitised HAR export
/// does, the name stays; a cookie keeps its name (`session=<redacted>`) and a `Set-Cookie` its
/// attributes, and an `Authorization` value its scheme (`Basic <redacted>`).
package struct HeaderRedaction: Sendable, Equatable {
    /// Whether nothing is hidden (`--show-secrets`).
    package var revealing: Bool
    /// Lower-cased names hidden besides the ones every request has hidden.
    package var names: Set<String>

    /// The names hidden on every request.
    package static let credentialNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-amz-security-token",
    ]
    /// Names that look like a secret's but name a server's challenge, which holds none.
    private static let challengeNames: Set<String> = ["www-authenticate", "proxy-authenticate"]

    package init(revealing: Bool = false, names: Set<String> = []) {
        self.revealing = revealing
        self.names = Set(names.map(ASCIICase.lowercased))
    }

    /// The rule for `request`: what its authentication stages set and the secrets `profile`
    /// configures are hidden too.
    package init(revealing: Bool, request: PreparedRequest?, profile: EnvironmentProfile?) {
        var names = request?.authentication?.headerNames ?? []
        for header in profile?.headers ?? [] where SecretRedaction.isSecretHeader(name: header.name, value: header.value) {
            names.insert(ASCIICase.lowercased(header.name))
        }
        self.init(revealing: revealing, names: names)
    }

    /// Whether the value of a header with this name is hidden.
    package func hides(_ name: String) -> Bool {
        guard !revealing else { return false }
        let lower = ASCIICase.lowercased(name)
        if Self.credentialNames.contains(lower) || names.contains(lower) { return true }
        return !Self.challengeNames.contains(lower) && SecretRedaction.isSecretHeaderName(lower)
    }

    /// The value shown for a header.
    package func value(name: String, value: String) -> String {
        guard hides(name) else { return value }
        switch ASCIICase.lowercased(name) {
        case "cookie":
            return CookieHeader.pairs(value).map { $0.name + "=" + SecretRedaction.placeholder }.joined(separator: "; ")
        case "set-cookie":
            let pair = value.prefix { $0 != ";" }
            let attributes = value[pair.endIndex...]
            guard let equals = pair.firstIndex(of: "=") else { return SecretRedaction.placeholder + attributes }
            return pair[...equals] + SecretRedaction.placeholder + attributes
        case "authorization", "proxy-authorization":
            let scheme = value.prefix { $0 != " " }
            guard scheme.count < value.count, !scheme.isEmpty else { return SecretRedaction.placeholder }
            return scheme + " " + SecretRedaction.placeholder
        default:
            return SecretRedaction.placeholder
        }
    }

    /// `fields` as shown.
    package func fields(_ fields: [HTTPField]) -> [HTTPField] {
        guard !revealing else { return fields }
        return fields.map { HTTPField(name: $0.name, value: value(name: $0.name, value: $0.value)) }
    }

    /// A response head as shown: `head` itself when nothing in it is hidden.
    package func responseHead(_ head: ResponseHead) -> ResponseHead {
        guard !revealing else { return head }
        let headers = head.headers
        guard headers.contains(where: { hides($0.name) }) else { return head }
        return head.replacingHeaders(headers.map { ($0.name, value(name: $0.name, value: $0.value)) })
    }

    /// A head as written to the wire (the request or status line, then `Name: value` lines,
    /// CRLF or LF), with the values hidden as `value(name:value:)` says.
    package func head(_ text: String) -> String {
        guard !revealing else { return text }
        // Split on scalars: Swift reads "\r\n" as one Character, which "\n" would not match.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        for index in lines.indices.dropFirst() {
            let line = lines[index]
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            guard hides(name) else { continue }
            var rest = line[line.index(after: colon)...]
            let carriageReturn = rest.hasSuffix("\r")
            if carriageReturn { rest = rest.dropLast() }
            let spaces = rest.prefix { $0 == " " || $0 == "\t" }
            lines[index] = name + ":" + spaces + value(name: name, value: String(rest[spaces.endIndex...]))
                + (carriageReturn ? "\r" : "")
        }
        return lines.joined(separator: "\n")
    }

    /// The cookies of a request's `Cookie` fields, or of a response's `Set-Cookie` fields
    /// (`setByResponse`), as name and value (as HAR lists them), each value hidden when the
    /// field's is.
    package func cookies(
        _ headers: [(name: String, value: String)], setByResponse: Bool
    ) -> [(String, String)] {
        let field = setByResponse ? "set-cookie" : "cookie"
        let hidden = hides(field)
        var cookies: [(String, String)] = []
        for header in headers where ASCIICase.lowercased(header.name) == field {
            // A Set-Cookie sets one cookie, its attributes after the first `;`.
            let pairs = CookieHeader.pairs(setByResponse ? String(header.value.prefix { $0 != ";" }) : header.value)
            cookies += pairs.map { ($0.name, hidden ? SecretRedaction.placeholder : $0.value ?? "") }
        }
        return cookies
    }
}
