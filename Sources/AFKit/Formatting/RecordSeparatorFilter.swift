/// Feeds an `application/json-seq` body (RFC 7464: each value preceded by the record separator
/// 0x1E) to a JSON formatter reading a whitespace-separated sequence: a separator after a value
/// becomes a line feed, one at the start or after white space is dropped.
package final class RecordSeparatorFilter: BodyFormatter {
    private let formatter: BodyFormatter
    /// Whether the last byte passed on was white space (or nothing was passed on yet).
    private var afterSpace = true
    private var buffer: [UInt8] = []

    /// A filter in front of `formatter`.
    package init(_ formatter: BodyFormatter) {
        self.formatter = formatter
    }

    package var warnings: [String] { formatter.warnings }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        guard let last = chunk.last else { return }
        guard chunk.contains(0x1E) else {
            afterSpace = Self.isSpace(last)
            return try formatter.consume(chunk)
        }
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(chunk.count)
        for byte in chunk {
            if byte == 0x1E {
                if !afterSpace { buffer.append(0x0A) }
                afterSpace = true
            } else {
                buffer.append(byte)
                afterSpace = Self.isSpace(byte)
            }
        }
        try buffer.withUnsafeBytes { try formatter.consume($0) }
    }

    package func finish() throws {
        try formatter.finish()
    }

    package func abandon() throws {
        try formatter.abandon()
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
