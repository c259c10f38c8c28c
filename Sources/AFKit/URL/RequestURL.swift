import AFCurl

/// Turns what the user typed as the URL into the absolute URL afcli sends.
///
/// Applies HTTPie's shorthands, `--base-url` resolution (AF's `URLWithString:relativeToURL:` on a
/// base that ends in `/`), validation and percent-encoding of characters a URL cannot hold.
package enum RequestURL {
    /// The scheme a URL without `scheme://` gets (HTTPie's default).
    package static let defaultScheme = "http"

    /// The absolute, validated URL for `input`, resolved against `baseURL` when one is given.
    ///
    /// With a base URL the input is a reference resolved RFC 3986 style (`foo`, `/foo`,
    /// `?q=1` or a whole `https://…`), and only the base gets the shorthands.
    package static func make(from input: String, baseURL: String? = nil) throws(SerializationError) -> String {
        try makeFinal(from: input, baseURL: baseURL).url
    }

    /// `make(from:baseURL:)`, and whether the URL goes out exactly as it is, with no user
    /// information to take out first (`RequestSpec.urlIsFinal`, so the serializer does not parse
    /// it again). An absolute URL with nothing to encode or resolve is returned as typed, unparsed.
    package static func makeFinal(
        from input: String, baseURL: String? = nil
    ) throws(SerializationError) -> (url: String, isFinal: Bool) {
        if baseURL == nil, PlainRequestURL.pathRange(input) != nil { return (input, true) }
        let reference = try makeReference(from: input, baseURL: baseURL)
        return (reference.string, reference.userInfo == nil)
    }

    /// `make(from:baseURL:)` as its components, for a caller that also needs one of them.
    package static func makeReference(
        from input: String, baseURL: String? = nil
    ) throws(SerializationError) -> URLReference {
        // Errors quote what the user typed, not the expanded text.
        guard let baseURL else {
            return try URLReference(parsing: expandShorthand(input)).validatedForRequest(original: input)
                .removingDotSegments()
        }
        let base = try URLReference(parsing: expandShorthand(baseURL)).validatedForRequest(original: baseURL).asBaseURL
        // Encoding first leaves only ASCII for the path arithmetic; it does not change what
        // the dot segments are.
        let resolved = base.resolving(URLReference(parsing: input).percentEncoded())
        return try resolved.validatedForRequest(original: input).removingDotSegments()
    }

    /// `host` as it goes on the wire: Unicode labels become IDNA A-labels (`bücher.example` →
    /// `xn--bcher-kva.example`); nil when it is no valid internationalized domain name.
    package static func asciiHost(_ host: String) -> String? {
        try? IDNA.asciiHost(host)
    }

    /// Applies HTTPie's URL shorthands; text that already has `scheme://` is returned unchanged.
    ///
    /// `:3000/x` → `http://localhost:3000/x`, `:/x` → `http://localhost/x`, `:` →
    /// `http://localhost`, a leading `://` is dropped, and anything else without `scheme://` gets
    /// `http://` (so `localhost:8080` is a host and port, not a scheme).
    package static func expandShorthand(_ input: String) -> String {
        var text = Substring(input)
        // Both shorthands start with a colon byte; most URLs do not, and skip the Character checks.
        if text.utf8.first == UInt8(ascii: ":") {
            if text.hasPrefix("://") { text = text.dropFirst(3) }
            if text.hasPrefix(":"), let expanded = expandLocalhost(text.dropFirst()) { return expanded }
        }
        if hasSchemeSeparator(text) { return String(text) }
        return defaultScheme + "://" + text
    }

    /// `localhost` with the optional port and the rest of a `:PORT/rest` shorthand; nil when what
    /// follows the digits is not a path, query or fragment (then it is no shorthand).
    private static func expandLocalhost(_ afterColon: Substring) -> String? {
        let digits = afterColon.prefix { $0.isASCII && $0.isNumber }
        let rest = afterColon[digits.endIndex...]
        guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") || rest.hasPrefix("#") else { return nil }
        let port = digits.isEmpty ? "" : ":" + digits
        return defaultScheme + "://localhost" + port + rest
    }

    /// Whether `text` starts with `scheme://`, the test HTTPie uses to decide a URL has a scheme.
    private static func hasSchemeSeparator(_ text: Substring) -> Bool {
        // Bytes, as URLReference splits: an ASCII byte is a whole scalar, so a combining mark after
        // `//` cannot hide it. (A colon inside a larger Character is followed or preceded by a
        // scalar that is neither `/` nor a scheme character, so it is no separator either way.)
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), URLReference.isScheme(text[..<colon]) else {
            return false
        }
        return utf8[colon...].starts(with: "://".utf8)
    }
}
