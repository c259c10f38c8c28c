import AFCurl
import Glibc

/// Where formatters write their output: large chunks, valid only during the call.
///
/// The CLI's buffered standard output conforms; tests collect into an array.
package protocol ByteSink: AnyObject {
    /// Writes `bytes`, or throws when the destination refuses them (a closed pipe, a full disk).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A response-body formatter fed chunk by chunk as the body arrives (JSON, XML, property lists,
/// image summaries), writing to a `ByteSink`.
package protocol BodyFormatter: AnyObject {
    /// Takes the next chunk of the body; the bytes are valid only during the call.
    func consume(_ chunk: UnsafeRawBufferPointer) throws
    /// The body has ended: writes whatever is still held and flushes the output.
    func finish() throws
    /// The body stopped short (the transfer failed): writes what was formatted, then the input
    /// that was not formatted yet as received, and flushes; no warning.
    func abandon() throws
    /// Problems found in the body (invalid JSON, malformed XML), lower case, for `afcli: warning:`.
    var warnings: [String] { get }
}

extension ByteSink {
    /// Writes input shown as received; with `escapingControls`, ESC is shown as `\x1b` (see
    /// `OutputBuffer.escapesRawControls`).
    func writeRaw(_ bytes: [UInt8], escapingControls: Bool) throws {
        guard escapingControls, bytes.contains(0x1B) else { return try bytes.withUnsafeBytes { try write($0) } }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count + 64)
        for byte in bytes {
            if byte == 0x1B {
                escaped.append(contentsOf: TerminalEscaper.escapeText.array)
            } else {
                escaped.append(byte)
            }
        }
        try escaped.withUnsafeBytes { try write($0) }
    }
}

/// A `ByteSink` that keeps everything in memory, for tests and for small captures.
package final class CollectingSink: ByteSink {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []
    /// The most bytes kept; later writes are dropped and `truncated` is set.
    package let limit: Int
    /// Whether writes were dropped because of `limit`.
    package private(set) var truncated = false

    /// A sink that keeps up to `limit` bytes.
    package init(limit: Int = .max) {
        self.limit = limit
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        let room = limit - self.bytes.count
        if bytes.count > room {
            truncated = true
            self.bytes.append(contentsOf: bytes.prefix(max(room, 0)))
        } else {
            self.bytes.append(contentsOf: bytes)
        }
    }
}

/// An output buffer over raw memory that hands its contents to a sink in large chunks.
///
/// Formatters write every token through it, so it avoids per-byte allocation: appends are
/// `memcpy`s into one preallocated block, flushed when `threshold` bytes are pending.
package struct OutputBuffer {
    /// The block; `capacity` bytes, of which `count` are pending.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes pending.
    private(set) var count = 0
    /// Size of the block.
    let capacity: Int
    /// Pending bytes above which `flushIfFull` writes out.
    let threshold: Int
    /// Where flushed bytes go.
    let sink: ByteSink
    /// Bytes handed to the sink so far.
    private(set) var flushedCount = 0
    /// Whether `appendRaw` shows ESC as `\x1b` (as-received input bound for a terminal, where
    /// the only escape sequences must be the formatter's own colours).
    var escapesRawControls = false

    /// A buffer that flushes to `sink` once `threshold` bytes are pending.
    init(sink: ByteSink, threshold: Int = 256 * 1024) {
        self.sink = sink
        self.threshold = threshold
        self.capacity = threshold * 2
        self.base = .allocate(capacity: threshold * 2)
    }

    /// Releases the block; the buffer must not be used afterwards.
    func deallocate() {
        base.deallocate()
    }

    /// Room left before the block is full.
    @inline(__always) var room: Int { capacity - count }

    /// Writes out the pending bytes; throws `interrupted` once SIGINT or SIGTERM has arrived, so
    /// that no formatter runs on for long after Ctrl-C (this runs every `threshold` bytes).
    mutating func flush() throws {
        if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
        guard count > 0 else { return }
        let pending = count
        count = 0
        flushedCount += pending
        try sink.write(UnsafeRawBufferPointer(start: base, count: pending))
    }

    /// Flushes when more than `threshold` bytes are pending.
    @inline(__always) mutating func flushIfFull() throws {
        if count >= threshold { try flush() }
    }

    /// Drops the pending bytes without writing them.
    mutating func discardPending() {
        count = 0
    }

    /// Appends one byte; the caller guarantees room (`flushIfFull` keeps `threshold` free).
    @inline(__always) mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Appends `length` bytes from `source`, flushing as often as needed.
    @inline(__always) mutating func append(_ source: UnsafePointer<UInt8>, _ length: Int) throws {
        if length <= room {
            (base + count).update(from: source, count: length)
            count += length
        } else {
            try appendSlow(source, length)
        }
    }

    private mutating func appendSlow(_ source: UnsafePointer<UInt8>, _ length: Int) throws {
        var offset = 0
        while offset < length {
            if room == 0 { try flush() }
            let step = min(room, length - offset)
            (base + count).update(from: source + offset, count: step)
            count += step
            offset += step
        }
    }

    /// Appends an escape sequence or other precomputed bytes.
    @inline(__always) mutating func append(_ bytes: StaticBytes) throws {
        try append(bytes.base, bytes.count)
    }

    /// Appends raw input bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        try append(start.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// Appends input shown as received, with ESC escaped when `escapesRawControls` is set.
    mutating func appendRaw(_ source: UnsafePointer<UInt8>, _ length: Int) throws {
        guard escapesRawControls else { return try append(source, length) }
        var start = 0
        while start < length {
            guard let found = memchr(source + start, 0x1B, length - start) else { break }
            let index = UnsafeRawPointer(found) - UnsafeRawPointer(source)
            try append(source + start, index - start)
            try append(TerminalEscaper.escapeText)
            start = index + 1
        }
        if length > start { try append(source + start, length - start) }
    }

    /// Appends input shown as received (see `appendRaw(_:_:)`).
    mutating func appendRaw(_ bytes: UnsafeRawBufferPointer) throws {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        try appendRaw(start.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// Appends `count` copies of `byte` (indentation), flushing as often as needed.
    mutating func appendRepeated(_ byte: UInt8, count total: Int) throws {
        var left = total
        while left > 0 {
            if room == 0 { try flush() }
            let step = min(room, left)
            (base + count).update(repeating: byte, count: step)
            count += step
            left -= step
        }
    }
}

/// A fixed byte string in memory that lives as long as the process (colour escapes, keywords),
/// so that writing it is one `memcpy` with no reference counting.
package struct StaticBytes: @unchecked Sendable, Equatable {
    /// The first byte.
    let base: UnsafePointer<UInt8>
    /// How many bytes.
    package let count: Int

    /// Copies `text` into memory that is never freed; meant for a small fixed set of strings.
    package init(_ text: String) {
        let utf8 = Array(text.utf8)
        let block = UnsafeMutablePointer<UInt8>.allocate(capacity: max(utf8.count, 1))
        block.initialize(from: utf8, count: utf8.count)
        base = UnsafePointer(block)
        count = utf8.count
    }

    /// Whether there are no bytes (a colour that is off).
    package var isEmpty: Bool { count == 0 }

    /// The bytes as an array, for tests and messages.
    package var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    package static func == (lhs: StaticBytes, rhs: StaticBytes) -> Bool { lhs.array == rhs.array }

    /// The empty string, shared.
    package static let empty = StaticBytes("")
}
