import AFCurl

/// A body held in memory (JSON, form and property-list bodies, `--raw`); always rewindable.
package final class BytesBodySource: BodySource {
    /// The whole body.
    package let bytes: [UInt8]
    /// How many bytes `read` has delivered since the start or the last rewind.
    private var position = 0

    /// A source that delivers `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var length: UInt64? { UInt64(bytes.count) }

    /// Copies the next bytes into `buffer`; 0 once everything was delivered.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<position + count]))
        }
        position += count
        return count
    }

    /// Starts again from the first byte.
    package func rewind() {
        position = 0
    }
}
