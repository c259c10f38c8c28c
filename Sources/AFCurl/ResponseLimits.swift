/// The bounds a response must stay within, so a hostile or broken server ends in a clear error
/// instead of unbounded memory, disk or time.
///
/// The header limits are fixed: a head of more than `maxHeaderCount` fields or `maxHeadBytes`
/// bytes is no HTTP a client needs to read (curl 8.3 and later stop at 300 KiB in total, Python's
/// http.client at 100 fields). One line longer than `maxHeaderLineBytes` is refused by libcurl
/// itself (`CURL_MAX_HTTP_HEADER`). The body limits are the user's (`--max-filesize`) and a
/// default bound on how far a content-encoded body may expand (a "zip bomb" guard).
package struct ResponseLimits: Sendable, Equatable {
    /// The longest header line libcurl accepts (its compile-time `CURL_MAX_HTTP_HEADER`).
    package static let maxHeaderLineBytes = 100 * 1024
    /// The most header fields one response head may have.
    package static let maxHeaderCount = 1000
    /// The most bytes one response head may have, status line and fields together.
    package static let maxHeadBytes = 1024 * 1024
    /// The default bound on decoded bytes per received byte of a content-encoded body. Deflate
    /// (gzip) cannot expand more than about 1032 times, so a bound of 1000 would miss a plain gzip
    /// bomb; 200 still leaves room for very repetitive text, and past 16 MiB only.
    package static let defaultExpansionRatio = 200
    /// Decoded bytes below which the expansion ratio is not checked: small bodies of repeated
    /// text legitimately compress more than a thousandfold.
    package static let expansionCheckThreshold: Int64 = 16 * 1024 * 1024

    /// The most body bytes (after content decoding) accepted; nil for no limit.
    package var maxBodyBytes: Int64?
    /// The most decoded bytes per received byte once past `expansionCheckThreshold`; nil for no
    /// limit.
    package var maxExpansionRatio: Int?

    package init(maxBodyBytes: Int64? = nil, maxExpansionRatio: Int? = ResponseLimits.defaultExpansionRatio) {
        self.maxBodyBytes = maxBodyBytes
        self.maxExpansionRatio = maxExpansionRatio
    }

    /// The violation, if any, of a body that has produced `decoded` bytes out of `received`
    /// bytes on the wire.
    package func violation(decoded: Int64, received: Int64) -> ResponseLimitViolation? {
        if let maxBodyBytes, decoded > maxBodyBytes { return .bodySize(limit: maxBodyBytes) }
        if let ratio = maxExpansionRatio, decoded > ResponseLimits.expansionCheckThreshold,
            decoded / max(received, 1) > Int64(ratio)
        {
            return .expansionRatio(limit: ratio)
        }
        return nil
    }
}

/// Which response limit was exceeded.
package enum ResponseLimitViolation: Sendable, Equatable {
    /// The body (decoded) is larger than the given number of bytes, or announced so.
    case bodySize(limit: Int64)
    /// The decoded body grew more than the given number of times its encoded size.
    case expansionRatio(limit: Int)
    /// One header line is longer than the given number of bytes.
    case headerLineLength(limit: Int)
    /// The head has more than the given number of header fields.
    case headerCount(limit: Int)
    /// The head has more than the given number of bytes.
    case headSize(limit: Int)

    /// A lower-case sentence saying what was exceeded.
    package var description: String {
        switch self {
        case .bodySize(let limit):
            return "response body exceeds the size limit of \(limit) bytes"
        case .expansionRatio(let limit):
            return "response body expands more than \(limit) times its encoded size (a compression bomb?)"
        case .headerLineLength(let limit):
            return "response header too large: a line longer than \(limit) bytes"
        case .headerCount(let limit):
            return "response header too large: more than \(limit) header fields"
        case .headSize(let limit):
            return "response header too large: more than \(limit) bytes"
        }
    }
}
