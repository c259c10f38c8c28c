import AFCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A body streamed from a file (`@path`), read as libcurl asks for it.
///
/// A regular file announces its size from `fstat`, so it is sent with `Content-Length`; if the
/// file then ends early or grows, the transfer fails rather than sending a body that contradicts
/// its length. Pipes and devices (`@/dev/stdin`) have no length and are sent chunked.
package final class FileBodySource: BodySource {
    /// The path as the user gave it, for messages.
    package let path: String
    package let length: UInt64?
    /// The open descriptor, closed on deinit.
    private let descriptor: Int32
    /// Bytes delivered since the start or the last rewind.
    private var sent: UInt64 = 0

    /// Opens `path` for reading; refuses missing, unreadable and directory paths up front.
    package init(path: String) throws(SerializationError) {
        self.path = path
        let (descriptor, info) = try SystemCall.openForReading(path)
        self.descriptor = descriptor
        self.length = info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) ? UInt64(info.st_size) : nil
    }

    deinit {
        close(descriptor)
    }

    /// Reads the next bytes; throws when the file fails or no longer matches its announced length.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let baseAddress = buffer.baseAddress, buffer.count > 0 else { return 0 }
        guard let length else {
            let count = SystemCall.read(descriptor, into: baseAddress, count: buffer.count)
            guard count >= 0 else { throw SerializationError.unreadable(path: path, reason: SystemCall.reason(errno)) }
            return count
        }
        let remaining = length - sent
        // Asking for one byte more than announced is how growth is noticed on the last read.
        let wanted = Int(min(UInt64(buffer.count), remaining + 1))
        let count = SystemCall.read(descriptor, into: baseAddress, count: wanted)
        guard count >= 0 else { throw SerializationError.unreadable(path: path, reason: SystemCall.reason(errno)) }
        if UInt64(count) > remaining || (count == 0 && remaining > 0) {
            throw SerializationError.fileChangedSize(path: path)
        }
        sent += UInt64(count)
        return count
    }

    /// Seeks back to the first byte; pipes and other unseekable files cannot be replayed.
    package func rewind() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw SerializationError.notRewindable(path: path) }
        sent = 0
    }
}

/// The C library's `read`, named apart from the `read(into:)` methods of the body sources.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Thin helpers over the C library calls the body sources make.
enum SystemCall {
    /// Runs `call` again while it fails with `EINTR` (a signal arrived mid-call).
    static func retrying<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Opens `path` read-only and returns the descriptor with its `fstat`; refuses missing and
    /// unreadable paths and directories (AF accepts a directory and sends a short body; afcli
    /// refuses it before sending, spec §4).
    static func openForReading(_ path: String) throws(SerializationError) -> (Int32, stat) {
        let descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: reason(errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let why = reason(errno)
            close(descriptor)
            throw .unreadable(path: path, reason: why)
        }
        guard info.st_mode & mode_t(S_IFMT) != mode_t(S_IFDIR) else {
            close(descriptor)
            throw .unreadable(path: path, reason: "is a directory")
        }
        return (descriptor, info)
    }

    /// `read(2)` retried on `EINTR`: the byte count, 0 at end of input, -1 with `errno` set.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer?, count: Int) -> Int {
        retrying { readBytes(descriptor, buffer, count) }
    }

    /// The system's description of `code`, starting lower case (`no such file or directory`).
    static func reason(_ code: Int32) -> String {
        SystemError.message(code)
    }
}
