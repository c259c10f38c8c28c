/// What `--curl` prints as `<redacted>`: secrets afcli did not get from the command line.
/// Each is matched as a whole unit, never as a substring of unrelated text (a password `1` must
/// not hide every port number).
package struct CurlSecrets: Equatable, Sendable {
    /// Header lines (`Authorization: Basic …`) whose value is hidden: `Authorization: <redacted>`.
    package var headerLines: Set<String> = []
    /// Passwords of `--user USER:PASSWORD`, hidden as `USER:<redacted>`.
    package var passwords: Set<String> = []
    /// Cookie `name=value` pairs of a `--cookie` argument, hidden as `name=<redacted>`.
    package var cookies: Set<String> = []
    /// The rule of what afcli shows of an exchange, for a command shown in a report: every
    /// credential header it hides, every cookie's value and a `--user` password are hidden
    /// whatever their source. `--curl` itself reveals what was typed (the default).
    package var redaction = HeaderRedaction(revealing: true)

    package init(headerLines: Set<String> = [], passwords: Set<String> = [], cookies: Set<String> = []) {
        self.headerLines = headerLines
        self.passwords = passwords
        self.cookies = cookies
    }

    /// What a report's curl command hides: what `redaction` hides.
    package init(redaction: HeaderRedaction) {
        self.redaction = redaction
    }

    /// The header line or password that `credentials` put on the command line.
    package static func credentials(_ credentials: Credentials) -> CurlSecrets {
        switch credentials {
        case .basic(let user, let password):
            return CurlSecrets(
                headerLines: ["Authorization: " + DefaultHeaders.basicAuthorization(user: user, password: password)])
        case .digest(_, let password), .ntlm(_, let password), .negotiate(_, let password):
            return CurlSecrets(passwords: [password])
        case .bearer(let token):
            return CurlSecrets(headerLines: ["Authorization: " + DefaultHeaders.bearerAuthorization(token: token)])
        }
    }

    /// What a session file holds: its headers, its cookies, and its credentials when the request
    /// uses them (`usedCredentials`).
    package static func session(_ file: SessionFile, usedCredentials: Credentials?) -> CurlSecrets {
        var secrets = usedCredentials.map(CurlSecrets.credentials) ?? CurlSecrets()
        secrets.headerLines.formUnion(file.headers.map { "\($0.name): \($0.value)" })
        secrets.cookies.formUnion(file.cookies.map { "\($0.name)=\($0.value)" })
        return secrets
    }

    /// Both sets of secrets.
    package func union(_ other: CurlSecrets) -> CurlSecrets {
        var both = CurlSecrets(
            headerLines: headerLines.union(other.headerLines), passwords: passwords.union(other.passwords),
            cookies: cookies.union(other.cookies))
        both.redaction = HeaderRedaction(
            revealing: redaction.revealing && other.redaction.revealing, names: redaction.names.union(other.redaction.names))
        return both
    }

    /// `arguments` with the values of the arguments of `--header`, `--user` and `--cookie` hidden
    /// where they are secrets.
    func redacting(_ arguments: [String]) -> [String] {
        var result = arguments
        for index in result.indices.dropFirst() {
            let value = result[index]
            switch result[index - 1] {
            case "--header" where headerLines.contains(value):
                result[index] = String(value.prefix { $0 != ":" }) + ": " + SecretRedaction.placeholder
            case "--header":
                let name = String(value.prefix { $0 != ":" })
                guard name.count < value.count, redaction.hides(name) else { break }
                let rest = value[value.index(value.startIndex, offsetBy: name.count + 1)...].drop { $0 == " " }
                result[index] = name + ": " + redaction.value(name: name, value: String(rest))
            case "--user":
                if let colon = value.firstIndex(of: ":"),
                    !redaction.revealing || passwords.contains(String(value[value.index(after: colon)...]))
                {
                    result[index] = value[...colon] + SecretRedaction.placeholder
                }
            case "--cookie" where value.contains("="):
                result[index] = value.split(separator: ";", omittingEmptySubsequences: false).map { pair in
                    let trimmed = String(pair.drop { $0 == " " })
                    guard cookies.contains(trimmed) || redaction.hides("cookie"), let equals = pair.firstIndex(of: "=")
                    else { return String(pair) }
                    return pair[...equals] + SecretRedaction.placeholder
                }.joined(separator: ";")
            default:
                break
            }
        }
        return result
    }
}
