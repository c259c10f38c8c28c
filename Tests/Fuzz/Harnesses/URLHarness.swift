import AFKit

/// The URL the user typed: HTTPie's shorthands, RFC 3986 parsing, resolution against a base URL,
/// validation and percent-encoding.
enum URLHarness {
    /// Input: a URL, optionally followed by NUL and a base URL.
    static func run(_ input: UnsafeRawBufferPointer) {
        let fields = FuzzInput.fields(input)
        let text = fields[0]
        let reference = URLReference(parsing: text)
        // Recomposing the parsed parts and parsing that again gives the same parts, so nothing is
        // lost or moved between components (the text itself may differ: whatever follows an IPv6
        // literal is kept as its port, for validation to refuse, and comes back after a `:`).
        FuzzInvariant.check(
            URLReference(parsing: reference.string) == reference, "URLReference recomposes \(text.debugDescription)")
        _ = reference.percentEncoded()
        _ = URLReference.removingUserInfo(from: text)
        _ = RequestURL.expandShorthand(text)
        if let url = try? RequestURL.make(from: text, baseURL: fields.count > 1 ? fields[1] : nil) {
            // What make() returns is already a valid request URL: making it again changes nothing.
            let again = try? RequestURL.make(from: url)
            FuzzInvariant.check(again == url, "request URL \(url.debugDescription) is stable")
        }
    }
}
