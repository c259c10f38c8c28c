/// Tells when libcurl's HSTS cache upgraded a plain-http request to https, so that afcli can say
/// so (`-v`, and in the error when the upgraded connection fails).
///
/// libcurl applies HSTS itself (RFC 6797 §8.3: a known host's `http://` URL becomes `https://`
/// before connecting) and reports nothing but the URL it used. afcli never lets libcurl follow
/// redirects, so within one transfer only HSTS can change the scheme: an `http:` URL asked for
/// and an `https:` effective URL mean an upgrade.
package enum HSTSUpgrade {
    /// What an error adds when the connection that failed was an upgraded one.
    package static let explanation = "upgraded to https by HSTS; --no-hsts to skip"

    /// Whether a transfer of `requested` ended on an https `effective` URL.
    package static func happened(requested: String, effective: String?) -> Bool {
        // A few byte compares per hop: https URLs stop at the fifth.
        guard let effective, hasScheme(requested, "http:"), hasScheme(effective, "https:") else { return false }
        return true
    }

    /// Whether `url` starts with `scheme` (lower case, with its colon), in any case.
    private static func hasScheme(_ url: String, _ scheme: StaticString) -> Bool {
        var bytes = url.utf8.makeIterator()
        for index in 0..<scheme.utf8CodeUnitCount {
            let letter = scheme.utf8Start[index]
            // `| 0x20` lower-cases the letters and leaves ':' as it is.
            guard let byte = bytes.next(), byte | 0x20 == letter else { return false }
        }
        return true
    }
}
