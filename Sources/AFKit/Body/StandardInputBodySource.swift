import AFCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A body streamed from standard input (or any readable descriptor), sent chunked.
///
/// The CLI infers POST only when stdin yields at least one byte, so it can `peekFirstChunk()`
/// before deciding; the chunk is kept and replayed as the start of the body. Everything after it
/// is streamed and cannot be read twice, so a rewind (a 307/308 redirect, an authentication retry)
/// only works while nothing beyond that first chunk was consumed.
package final class StandardInputBodySource: BodySource {
    /// The most bytes the first, replayable chunk holds.
    package static let chunkSize = 64 * 1024
    /// The descriptor read from; not closed by this source.
    private let descriptor: Int32
    /// The first chunk, once read; empty when the input was empty.
    private var firstChunk: [UInt8]?
    /// How much of `firstChunk` was delivered since the start or the last rewind.
    private var offsetInFirstChunk = 0
    /// Whether bytes past the first chunk were delivered (then the body cannot be replayed).
    private var consumedBeyondFirstChunk = false
    /// Whether the descriptor reported end of input.
    private var reachedEnd = false

    /// A source reading `fileDescriptor`, standard input by default.
    package init(fileDescriptor: Int32 = STDIN_FILENO) {
        self.descriptor = fileDescriptor
    }

    package var length: UInt64? { nil }

    /// Reads the first chunk (one `read` call, up to `chunkSize` bytes) if that has not happened
    /// yet and returns its size; 0 means the input is empty. The chunk is replayed by `read`.
    @discardableResult
    package func peekFirstChunk() throws(SerializationError) -> Int {
        try loadFirstChunk().count
    }

    /// The first chunk, read on first use.
    private func loadFirstChunk() throws(SerializationError) -> [UInt8] {
        if let firstChunk { return firstChunk }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        let count = chunk.withUnsafeMutableBytes { buffer in
            SystemCall.read(descriptor, into: buffer.baseAddress, count: buffer.count)
        }
        guard count >= 0 else { throw .unreadable(path: "-", reason: SystemCall.reason(errno)) }
        chunk.removeSubrange(count...)
        if count == 0 { reachedEnd = true }
        firstChunk = chunk
        return chunk
    }

    /// Delivers the first chunk, then whatever the descriptor yields until end of input.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let baseAddress = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let chunk = try loadFirstChunk()
        if offsetInFirstChunk < chunk.count {
            let count = min(buffer.count, chunk.count - offsetInFirstChunk)
            chunk.withUnsafeBytes { source in
                buffer.copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[offsetInFirstChunk..<offsetInFirstChunk + count]))
            }
            offsetInFirstChunk += count
            return count
        }
        if reachedEnd { return 0 }
        let count = SystemCall.read(descriptor, into: baseAddress, count: buffer.count)
        guard count >= 0 else { throw SerializationError.unreadable(path: "-", reason: SystemCall.reason(errno)) }
        if count == 0 {
            reachedEnd = true
        } else {
            consumedBeyondFirstChunk = true
        }
        return count
    }

    /// Replays from the first byte; throws once bytes past the first chunk were sent.
    package func rewind() throws {
        guard !consumedBeyondFirstChunk else { throw SerializationError.notRewindable(path: "-") }
        offsetInFirstChunk = 0
    }
}
