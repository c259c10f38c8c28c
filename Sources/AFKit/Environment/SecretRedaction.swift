import AFCurl

/// Decides which config values are secrets and hides them as `<redacted>` (the word `--curl`
/// uses), for `afcli env show` and the permission warning on a config others can read; a URL's
/// user information is hidden as the request log hides it (`ann:***@`).
///
/// A header is secret by its name (`Authorization`, `Proxy-Authorization`, `Cookie`, or a name
/// with `token`, `secret`, `key`, `auth`, `password`, `session` or `signature` in it) or by its
/// value (an auth scheme such as `Bearer …`, or a long run of token characters with both letters
/// and digits). In an encryption command the password arguments of openssl and similar tools are
/// hidden: `pass:SECRET`, and the word after `-k`, `-K`, `-pass`, `--password` or `--key`.
package enum SecretRedaction {
    /// What a hidden value is printed as, here and in `--curl` output.
    package static let placeholder = "<redacted>"

    /// Whether a header with this name and value is a secret.
    package static func isSecretHeader(name: String, value: String) -> Bool {
        let lower = ASCIICase.lowercased(name)
        if ["authorization", "proxy-authorization", "cookie"].contains(lower) { return true }
        if isSecretHeaderName(lower) { return true }
        return looksLikeToken(value)
    }

    /// Whether a header name (lower case) has a secret's fragment in it: `token`, `secret`,
    /// `key`, `auth`, `password`, `session` or `signature`.
    package static func isSecretHeaderName(_ lowercasedName: String) -> Bool {
        secretNameParts.contains { lowercasedName.contains($0) }
    }

    /// The value shown for a header: the placeholder for a secret one.
    package static func headerValue(name: String, value: String) -> String {
        isSecretHeader(name: name, value: value) ? placeholder : value
    }

    /// Whether `value` looks like a credential: `Bearer x`, `Basic x`, `Token x`, or 20 or more
    /// characters of `A-Z a-z 0-9 . _ ~ + / = -` mixing letters and digits.
    package static func looksLikeToken(_ value: String) -> Bool {
        let lower = ASCIICase.lowercased(value)
        if ["bearer ", "basic ", "token ", "digest "].contains(where: { lower.hasPrefix($0) }) { return true }
        let bytes = value.utf8
        guard bytes.count >= 20 else { return false }
        var letters = false
        var digits = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): letters = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits = true
            case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                UInt8(ascii: "="), UInt8(ascii: "-"):
                break
            default: return false
            }
        }
        return letters && digits
    }

    /// `url` with the password of its user information replaced by `***`
    /// (`https://ann:***@host/`), and user information without a password (often a token, as in
    /// `https://TOKEN@host/`) replaced whole; everything else is left as it is. The request log,
    /// `afcli env` and the permission warning use it.
    package static func url(_ url: String) -> String {
        let characters = Array(url)
        var schemeEnd: Int?
        for index in 0..<max(characters.count - 2, 0) where characters[index] == ":" {
            if characters[index + 1] == "/" && characters[index + 2] == "/" { schemeEnd = index + 3 }
            break
        }
        guard let authorityStart = schemeEnd else { return url }
        var authorityEnd = authorityStart
        while authorityEnd < characters.count, !"/?#".contains(characters[authorityEnd]) { authorityEnd += 1 }
        guard let at = characters[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        let userInfo = characters[authorityStart..<at]
        let redacted = userInfo.firstIndex(of: ":").map { String(characters[authorityStart..<$0]) + ":***" } ?? "***"
        return String(characters[..<authorityStart]) + redacted + String(characters[at...])
    }

    /// Whether `url` carries user information (a password or a token) that `url(_:)` hides.
    package static func urlHoldsCredentials(_ url: String) -> Bool {
        self.url(url) != url
    }

    /// Whether a common parameter with this name is a secret (`password`, `token`, `api_key`):
    /// the same name fragments as for headers.
    package static func isSecretParameter(name: String) -> Bool {
        let lower = ASCIICase.lowercased(name)
        return secretNameParts.contains { lower.contains($0) }
    }

    /// `command` with its password arguments hidden; environment-variable and file references
    /// (`env:KEY`, `file:path`) are not secrets and stay.
    package static func command(_ command: String) -> String {
        var words = command.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var hidesNext = false
        for index in words.indices {
            let word = words[index]
            if hidesNext, !word.isEmpty {
                words[index] = word.hasPrefix("pass:") ? "pass:" + placeholder : placeholder
                hidesNext = false
                continue
            }
            if word.hasPrefix("pass:") {
                words[index] = "pass:" + placeholder
            } else if passwordOptions.contains(word) {
                hidesNext = true
            } else if let equals = word.firstIndex(of: "="), passwordOptions.contains(String(word[..<equals])) {
                words[index] = word[...equals] + placeholder
            }
        }
        return words.joined(separator: " ")
    }

    /// Header-name fragments that mark a secret.
    private static let secretNameParts = ["token", "secret", "key", "auth", "password", "session", "signature"]
    /// Options whose next word is a password or key.
    private static let passwordOptions: Set<String> = ["-k", "-K", "--password", "--key", "--passphrase"]
}
