/// The header values afcli sends unless the request sets its own: `User-Agent`, `Accept-Language`
/// and the `Authorization` forms afcli computes itself.
package enum DefaultHeaders {
    /// AF lists at most six languages.
    package static let maximumLanguages = 6

    /// AF's quality values, `1.0f - index * 0.1f` printed with `%g`, for the six positions.
    private static let qualities = ["1", "0.9", "0.8", "0.7", "0.6", "0.5"]

    /// The language AF falls back to: `+[NSLocale preferredLanguages]` is never empty on Apple
    /// systems, so AF always sends an `Accept-Language`; afcli does too, with `en`.
    package static let fallbackLanguage = "en"

    /// The `User-Agent` value, `afcli/<version>`.
    package static var userAgent: String { AFKitVersion.userAgent }

    /// The `Accept-Language` value for `environment`: `en-US;q=1, fr;q=0.9, …` (AF's format).
    package static func acceptLanguage(environment: [String: String]) -> String {
        acceptLanguage(languages: preferredLanguages(environment: environment))
    }

    /// Formats up to six language tags with AF's descending quality values; empty gives `en;q=1`.
    package static func acceptLanguage(languages: [String]) -> String {
        guard !languages.isEmpty else { return fallbackLanguage + ";q=" + qualities[0] }
        // Appended in place: a map of interpolations and a join cost a single request ~100k
        // instructions (generic code instantiated on first use), more than all of its serialization.
        var value = ""
        for index in 0..<min(languages.count, maximumLanguages) {
            if index > 0 { value += ", " }
            value += languages[index]
            value += ";q="
            value += qualities[index]
        }
        return value
    }

    /// The user's languages as BCP 47 tags, most preferred first, without duplicates.
    ///
    /// `LANGUAGE` (a colon-separated list, as GNU gettext reads it) wins when it names at least one
    /// usable language; otherwise the first non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG` (POSIX
    /// precedence) gives one. `C` and `POSIX` name no language.
    package static func preferredLanguages(environment: [String: String]) -> [String] {
        if let list = environment["LANGUAGE"], !list.isEmpty {
            var tags: [String] = []
            for entry in list.split(separator: ":") {
                guard let tag = languageTag(fromLocale: String(entry)), !tags.contains(tag) else { continue }
                tags.append(tag)
            }
            if !tags.isEmpty { return tags }
        }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return languageTag(fromLocale: value).map { [$0] } ?? []
        }
        return []
    }

    /// Converts a POSIX locale name to a language tag: `en_US.UTF-8@euro` → `en-US`; nil for
    /// `C`, `POSIX` and anything that is not letters, digits and separators.
    package static func languageTag(fromLocale locale: String) -> String? {
        var name = Substring(locale)
        if let at = name.firstIndex(of: "@") { name = name[..<at] }
        if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
        guard !name.isEmpty, name != "C", name != "POSIX" else { return nil }
        let tag = name.replacingUnderscores()
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, !first.isEmpty, first.allSatisfy(\.isASCIILetter) else { return nil }
        for subtag in subtags.dropFirst() {
            guard !subtag.isEmpty, subtag.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit }) else { return nil }
        }
        return tag
    }

    /// `Basic ` + base64 of `user:password` in UTF-8 (AF's `setAuthorizationHeaderFieldWithUsername`).
    package static func basicAuthorization(user: String, password: String) -> String {
        "Basic " + Base64.encode(user + ":" + password)
    }

    /// `Bearer ` + the token, as given.
    package static func bearerAuthorization(token: String) -> String {
        "Bearer " + token
    }
}

extension Substring {
    /// The text with `_` turned into `-` (POSIX `en_US` to BCP 47 `en-US`).
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}

extension Character {
    /// Whether this is `A`–`Z` or `a`–`z`.
    fileprivate var isASCIILetter: Bool {
        guard let value = asciiValue else { return false }
        return (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
    }

    /// Whether this is `0`–`9`.
    fileprivate var isASCIIDigit: Bool {
        guard let value = asciiValue else { return false }
        return (0x30...0x39).contains(value)
    }
}
