import AFKit

/// Feeds `input` to `formatter` in chunks of `chunk` bytes (all at once when nil), as libcurl
/// would deliver a body, then finishes it; returns the formatter's warnings.
@discardableResult
func feed(_ input: [UInt8], to formatter: some BodyFormatter, chunk: Int? = nil) throws -> [String] {
    let size = chunk ?? max(input.count, 1)
    var start = 0
    while start < input.count {
        let end = min(start + size, input.count)
        try input[start..<end].withUnsafeBytes { try formatter.consume($0) }
        start = end
    }
    try formatter.finish()
    return formatter.warnings
}
