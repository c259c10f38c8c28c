import AFCurl

/// The libcurl header lines of the last request a `MultiClient` sent, kept for the next: the
/// requests of a batch carry the same header fields as a rule, and then get the very same lines
/// (one shared array), which the easy handle recognises without comparing them again.
final class HeaderLinesMemo {
    /// The fields and removed names the lines were made from.
    private var fields: [HTTPField] = []
    private var removed: [String] = []
    /// The lines, or nil before the first request.
    private var lines: [String]?

    /// `HTTPClient.headerLines(for:)` of `request`, reused when its fields have the same bytes
    /// as the last request's.
    func lines(for request: PreparedRequest) -> [String] {
        if let lines, sameFields(request.headers), UTF8Bytes.equal(request.removedHeaders, removed) {
            return lines
        }
        let made = HTTPClient.headerLines(for: request)
        fields = request.headers
        removed = request.removedHeaders
        lines = made
        return made
    }

    /// Whether `headers` has the same names and values, byte for byte, as the memo's fields.
    private func sameFields(_ headers: [HTTPField]) -> Bool {
        guard headers.count == fields.count else { return false }
        // Through buffer pointers: the fields are compared in place, not copied out one by one.
        return headers.withUnsafeBufferPointer { given in
            fields.withUnsafeBufferPointer { kept in
                zip(given, kept).allSatisfy { UTF8Bytes.equal($0.name, $1.name) && UTF8Bytes.equal($0.value, $1.value) }
            }
        }
    }
}
