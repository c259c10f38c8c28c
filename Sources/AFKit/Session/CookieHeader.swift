/// The `name=value` pairs of a `Cookie` field value (RFC 6265 §5.4), split once for everything
/// that reads one: a session or run's cookie engine taking a typed `Cookie` header, and the
/// redaction that shows each cookie's name without its value.
package enum CookieHeader {
    /// The pairs in order, each without the blanks before it; `value` is nil for a pair written
    /// without `=`.
    package static func pairs(_ value: String) -> [(name: String, value: String?)] {
        value.split(separator: ";").compactMap { pair in
            let trimmed = pair.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.isEmpty else { return nil }
            guard let equals = trimmed.firstIndex(of: "=") else { return (String(trimmed), nil) }
            return (String(trimmed[..<equals]), String(trimmed[trimmed.index(after: equals)...]))
        }
    }
}
