import AFCurl

/// The VS Code REST Client's shorthands that change what a `.http` request sends, applied after
/// its variables are substituted: `Authorization: Basic user:pass` and `Basic user pass` (encoded
/// for the user), `Authorization: Digest user pass` (negotiated by libcurl), form bodies written
/// over several lines, GraphQL requests (`X-Request-Type: GraphQL`), and `Authorization: AWS ID
/// KEY [token:T] [region:R] [service:S]` (signed with AWS Signature Version 4, as `--aws-sigv4`
/// signs). `Authorization: COGNITO …` needs a sign-in to AWS Cognito, and is refused.
package enum HTTPFileRequestConventions {
    /// What an `Authorization` header written as a shorthand becomes.
    package enum Authorization: Equatable {
        /// The header's value as it is to be sent.
        case header(String)
        /// No header: HTTP Digest with these credentials, negotiated by libcurl.
        case digest(user: String, password: String)
        /// No header: the request is signed with these keys, the region and service read from an
        /// AWS host name when not given.
        case awsSigV4(accessKey: String, secretKey: String, sessionToken: String?, region: String?, service: String?)
        /// The header cannot be sent as afcli would send it, for this reason.
        case refused(String)

        /// The signing stage of `.awsSigV4`; nil for the others.
        package func awsStage() throws(HTTPFileError) -> AWSSigV4Stage? {
            guard case .awsSigV4(let key, let secret, let token, let region, let service) = self else { return nil }
            do {
                return try AWSSigV4Stage(
                    scope: "aws:amz:\(region ?? ""):\(service ?? "")",
                    credentials: AWSSigV4.Credentials(accessKey: key, secretKey: secret, sessionToken: token))
            } catch {
                throw HTTPFileError(
                    line: 0,
                    reason: "Authorization: AWS names region \(region ?? "") and service \(service ?? ""): letters, "
                        + "digits, - and _ make a region or service name")
            }
        }
    }

    /// REST Client's form of the AWS shorthand.
    static let awsUsage = "Authorization: AWS ACCESS_KEY SECRET_KEY [token:SESSION_TOKEN] [region:REGION] [service:SERVICE]"

    /// `value` of an `Authorization` header: `Basic user:pass` and `Basic user pass` become
    /// `Basic base64(user:pass)`, `Digest user pass` becomes Digest credentials; anything else,
    /// an already encoded `Basic dXNlcjpwYXNz` among them, is returned as written.
    package static func authorization(_ value: String) -> Authorization {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let scheme = ASCIICase.lowercased(words.first ?? "")
        if scheme == "cognito" {
            return .refused(
                "Authorization: COGNITO is not supported: it signs in to AWS Cognito, which afcli does not do (it "
                    + "signs in to no cloud account); get a token and write Authorization: Bearer TOKEN")
        }
        if scheme == "aws" { return aws(Array(words.dropFirst())) }
        guard words.count >= 2 else { return .header(value) }
        let user: String
        let password: String
        if words.count >= 3 {
            // REST Client's rule: the first word after the scheme is the user, the rest the password.
            user = words[1]
            password = words[2...].joined(separator: " ")
        } else if scheme == "basic", let colon = words[1].firstIndex(of: ":") {
            user = String(words[1][..<colon])
            password = String(words[1][words[1].index(after: colon)...])
        } else {
            return .header(value)
        }
        switch scheme {
        case "basic":
            return .header(DefaultHeaders.basicAuthorization(user: user, password: password))
        case "digest" where !value.contains("=\""):
            // `Digest username="…", realm="…"` is a computed answer, sent as written.
            return .digest(user: user, password: password)
        default:
            return .header(value)
        }
    }

    /// `AWS ID KEY [token:T] [region:R] [service:S]` after the scheme, as REST Client reads it.
    private static func aws(_ words: [String]) -> Authorization {
        guard words.count >= 2, !words[0].contains(":") else { return .refused("expected " + awsUsage) }
        var named: [String: String] = [:]
        for word in words.dropFirst(2) {
            guard let colon = word.firstIndex(of: ":"),
                case let name = ASCIICase.lowercased(String(word[..<colon])), ["token", "region", "service"].contains(name),
                named[name] == nil
            else { return .refused("\(word) is not token:, region: or service: (expected \(awsUsage))") }
            let text = String(word[word.index(after: colon)...])
            if !text.isEmpty { named[name] = text }
        }
        return .awsSigV4(
            accessKey: words[0], secretKey: words[1], sessionToken: named["token"], region: named["region"],
            service: named["service"])
    }

    /// Whether `contentType` is `application/x-www-form-urlencoded`, whatever its parameters.
    package static func isForm(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        return ASCIICase.lowercased(contentType).hasPrefix("application/x-www-form-urlencoded")
    }

    /// A form body written over several lines: a line starting with `&` continues the one
    /// before it (`name=foo` then `&password=bar` is `name=foo&password=bar`); other line breaks
    /// stay, as REST Client keeps them.
    package static func joinedFormLines(_ text: String) -> String {
        guard text.contains("\n&") else { return text }
        return text.replacing("\n&", with: "&")
    }

    /// Whether the headers make this a GraphQL request: `X-Request-Type: GraphQL`, any case.
    package static func isGraphQL(_ headers: [HeaderItem]) -> Bool {
        headers.contains {
            ASCIICase.equal($0.name, "x-request-type")
                && $0.value.map { ASCIICase.lowercased($0.trimmingCharacters()) } == "graphql"
        }
    }

    /// A GraphQL request's JSON body from its text: the query, then after the first blank line
    /// an optional JSON block of variables: `{"query":…,"operationName":…,"variables":…}`, the
    /// operation's name only when the query names one, the variables `{}` when none are written.
    /// Throws the reason when the variables are not JSON.
    package static func graphQLBody(_ text: String) throws(HTTPFileError) -> [UInt8] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let blank = lines.firstIndex { $0.trimmingBlanks().isEmpty }
        let query = lines[..<(blank ?? lines.endIndex)].joined(separator: "\n")
        let variablesText = blank.map { lines[($0 + 1)...].joined(separator: "\n") }?.trimmingCharacters() ?? ""
        var body: [UInt8] = Array("{\"query\":".utf8)
        JSONWriter.writeString(query, into: &body)
        if let name = operationName(query) {
            body += Array(",\"operationName\":".utf8)
            JSONWriter.writeString(name, into: &body)
        }
        body += Array(",\"variables\":".utf8)
        if variablesText.isEmpty {
            body += Array("{}".utf8)
        } else {
            do {
                try JSONWriter.write(try JSONParser.parse(variablesText), into: &body)
            } catch {
                throw HTTPFileError(
                    line: 0, reason: "the GraphQL variables after the blank line are not JSON: \(error)")
            }
        }
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// The name of the operation `query NAME`, `mutation NAME` or `subscription NAME` starts
    /// with; nil for an anonymous one (`{ … }`, `query { … }`).
    static func operationName(_ query: String) -> String? {
        let text = query.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        for keyword in ["query", "mutation", "subscription"] where text.lowercased().hasPrefix(keyword) {
            let rest = text.dropFirst(keyword.count)
            guard rest.first?.isWhitespace == true else { return nil }
            let name = rest.drop(while: \.isWhitespace).prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line ends.
    fileprivate func trimmingCharacters() -> String {
        let blanks: Set<Character> = [" ", "\t", "\n", "\r", "\r\n"]
        guard let first = firstIndex(where: { !blanks.contains($0) }),
            let last = lastIndex(where: { !blanks.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
