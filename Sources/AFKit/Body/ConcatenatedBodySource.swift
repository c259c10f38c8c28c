import AFCurl

/// A body made of several sources sent one after another (a `.http` body of text lines and
/// `< ./file` lines); each part streams, so files are never read whole.
package final class ConcatenatedBodySource: BodySource {
    private let parts: [BodySource]
    /// The part being read.
    private var index = 0
    package let length: UInt64?

    /// The parts in order; the length is known when every part's is.
    package init(_ parts: [BodySource]) {
        self.parts = parts
        var total: UInt64? = 0
        for part in parts {
            if let known = total, let length = part.length { total = known + length } else { total = nil }
        }
        length = total
    }

    /// Reads from the current part, moving to the next one when it ends.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while index < parts.count {
            let count = try parts[index].read(into: buffer)
            if count > 0 { return count }
            index += 1
        }
        return 0
    }

    /// Rewinds every part and starts again from the first.
    package func rewind() throws {
        for part in parts { try part.rewind() }
        index = 0
    }
}
