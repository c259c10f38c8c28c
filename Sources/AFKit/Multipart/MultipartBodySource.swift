import AFCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Streams a `MultipartFormData` body to libcurl, part by part, as AF's `AFMultipartBodyStream`
/// does: delimiters and headers from memory, file contents read from disk straight into libcurl's
/// buffer, one file open at a time, so memory stays flat whatever the files weigh.
///
/// The length is exact and known before the first byte (unless a part is a stream); a file that
/// has a different size when it is opened, ends early or grows while it is read makes `read`
/// throw `fileChangedSize` rather than send a body that contradicts its Content-Length.
package final class MultipartBodySource: BodySource {
    /// What the source produces.
    package enum Rendering: Equatable, Sendable {
        /// The exact bytes that go on the wire.
        case wire
        /// A copy for printing while the real body is sent: streams, which cannot be read twice,
        /// become a one-line placeholder; files are read again in full when `showsFileContents`,
        /// and replaced by a placeholder otherwise (on a terminal, as HTTPie hides binary data).
        case preview(showsFileContents: Bool)
    }

    /// One contiguous run of the body.
    private enum Segment {
        case bytes([UInt8])
        case file(path: String, size: UInt64)
        case stream(path: String, source: BodySource)
    }

    /// The form this source streams.
    package let form: MultipartFormData
    /// What it produces.
    package let rendering: Rendering
    package let length: UInt64?
    /// The body as runs of bytes, files and streams.
    private let segments: [Segment]
    /// The segment being read.
    private var index = 0
    /// Bytes of the current segment already delivered.
    private var offset: UInt64 = 0
    /// The open descriptor of the current file segment, or -1.
    private var descriptor: Int32 = -1

    /// A source positioned at the first byte of `form`'s body.
    init(form: MultipartFormData, rendering: Rendering) {
        self.form = form
        self.rendering = rendering
        let segments = Self.segments(of: form, rendering: rendering)
        self.segments = segments
        var total: UInt64? = 0
        for segment in segments {
            switch segment {
            case .bytes(let bytes): total = total.map { $0 + UInt64(bytes.count) }
            case .file(_, let size): total = total.map { $0 + size }
            case .stream: total = nil
            }
        }
        self.length = total
    }

    deinit {
        closeFile()
    }

    /// Fills `buffer` with the next bytes of the body, crossing part boundaries; 0 at the end.
    ///
    /// A stream is read at most once per call and never after other bytes were copied, so bytes
    /// already in hand go out while the stream has nothing to give.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count, index < segments.count {
            let space = buffer.count - filled
            switch segments[index] {
            case .bytes(let bytes):
                let start = Int(offset)
                let count = min(space, bytes.count - start)
                bytes.withUnsafeBytes { source in
                    (base + filled).copyMemory(from: source.baseAddress! + start, byteCount: count)
                }
                filled += count
                offset += UInt64(count)
                if offset == UInt64(bytes.count) { advance() }
            case .file(let path, let size):
                if descriptor < 0 { try openFile(path, expectedSize: size) }
                let remaining = size - offset
                // One byte more than is left is how growth shows; reading 0 with bytes left, shrinking.
                let wanted = Int(min(UInt64(space), remaining + 1))
                let count = SystemCall.read(descriptor, into: base + filled, count: wanted)
                guard count >= 0 else {
                    throw SerializationError.unreadable(path: path, reason: SystemCall.reason(errno))
                }
                if UInt64(count) > remaining || (count == 0 && remaining > 0) {
                    throw SerializationError.fileChangedSize(path: path)
                }
                if count == 0 {
                    advance()
                } else {
                    filled += count
                    offset += UInt64(count)
                }
            case .stream(_, let source):
                if filled > 0 { return filled }
                let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if count == 0 {
                    advance()
                } else {
                    return count
                }
            }
        }
        return filled
    }

    /// Starts again from the first byte (a 307/308 redirect, an authentication retry); throws
    /// when a stream part cannot be replayed.
    package func rewind() throws {
        closeFile()
        for segment in segments[..<min(index + 1, segments.count)] {
            if case .stream(_, let source) = segment { try source.rewind() }
        }
        index = 0
        offset = 0
    }

    // MARK: - Files

    /// Opens a file segment, checking it still has the size the Content-Length was computed from.
    private func openFile(_ path: String, expectedSize: UInt64) throws(SerializationError) {
        let opened = SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard opened >= 0 else { throw .unreadable(path: path, reason: SystemCall.reason(errno)) }
        var info = stat()
        guard fstat(opened, &info) == 0, info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG),
            UInt64(info.st_size) == expectedSize
        else {
            close(opened)
            throw .fileChangedSize(path: path)
        }
        // The file is read once, front to back: let the kernel read ahead further.
        _ = posix_fadvise(opened, 0, 0, POSIX_FADV_SEQUENTIAL)
        descriptor = opened
    }

    /// Moves to the next segment, closing a file that is done.
    private func advance() {
        closeFile()
        index += 1
        offset = 0
    }

    /// Closes the current file, if one is open.
    private func closeFile() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    // MARK: - Layout

    /// The body of `form` as segments, adjacent in-memory runs merged: `--B` CRLF, headers, content,
    /// then CRLF `--B` CRLF before every later part, and CRLF `--B--` CRLF at the end.
    private static func segments(of form: MultipartFormData, rendering: Rendering) -> [Segment] {
        var segments: [Segment] = []
        var pending: [UInt8] = []
        func flush() {
            if !pending.isEmpty { segments.append(.bytes(pending)) }
            pending = []
        }
        let boundary = Array(form.boundary.utf8)
        for (index, part) in form.parts.enumerated() {
            if index > 0 { pending += [0x0D, 0x0A] }
            pending += [0x2D, 0x2D] + boundary + [0x0D, 0x0A]
            pending += part.headerBytes
            switch (part.content, rendering) {
            case (.bytes(let bytes), _):
                pending += bytes
            case (.file(let path, let size), .wire), (.file(let path, let size), .preview(showsFileContents: true)):
                flush()
                segments.append(.file(path: path, size: size))
            case (.file(_, let size), .preview(showsFileContents: false)):
                pending += Array(placeholder(fileSize: size).utf8)
            case (.stream(let path, let source), .wire):
                flush()
                segments.append(.stream(path: path, source: source))
            case (.stream(let path, _), .preview):
                pending += Array(placeholder(streamPath: path).utf8)
            }
        }
        // The close delimiter; a form without parts is only that, without the CRLF that would
        // end a part (HTTPie sends `--B--\r\n` for an empty --multipart).
        pending +=
            (form.parts.isEmpty ? [0x2D, 0x2D] : [0x0D, 0x0A, 0x2D, 0x2D]) + boundary + [0x2D, 0x2D, 0x0D, 0x0A]
        flush()
        return segments
    }

    /// What a preview shows instead of a file's contents.
    static func placeholder(fileSize: UInt64) -> String {
        "[\(fileSize) bytes of file data not shown]"
    }

    /// What a preview shows instead of a stream, which is read only once, for the wire.
    static func placeholder(streamPath path: String) -> String {
        path == "-" ? "[streamed from standard input, not shown]" : "[streamed from \"\(path)\", not shown]"
    }
}

/// A body read from an open descriptor that has no length (a pipe, a device) until it ends.
final class DescriptorStreamSource: BodySource {
    /// The descriptor read; closed on deinit.
    private let descriptor: Int32
    /// The path it was opened from, for messages.
    private let path: String
    /// Whether any byte was read (then a rewind must seek, which pipes cannot).
    private var started = false

    /// Takes ownership of `descriptor`, opened from `path`.
    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    var length: UInt64? { nil }

    /// Reads what the descriptor has, up to `buffer.count` bytes; 0 at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = SystemCall.read(descriptor, into: buffer.baseAddress, count: buffer.count)
        guard count >= 0 else { throw SerializationError.unreadable(path: path, reason: SystemCall.reason(errno)) }
        if count > 0 { started = true }
        return count
    }

    /// Replays from the start when nothing was read yet or the descriptor can seek.
    func rewind() throws {
        guard started else { return }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw SerializationError.notRewindable(path: path) }
    }
}
