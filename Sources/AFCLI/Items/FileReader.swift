import AFKit
import Glibc

/// Reads the whole of a small file named by an item (`=@`, `:=@`, `==@`, `:@`).
///
/// These values end up inside a header, a query or a JSON body, so they are read into memory; raw
/// bodies (`@file`) are streamed by `FileBodySource` instead.
enum FileReader {
    /// The most an item reads from its file (64 MiB): without a bound `a=@/dev/zero` would fill
    /// memory. Larger bodies are streamed with `@FILE`.
    static let maximumSize = 64 << 20

    /// The file's bytes, or why they cannot be read. A read interrupted by SIGINT or SIGTERM
    /// (afcli's handlers do not restart calls) stops with `EINTR`, so Ctrl-C ends a read from a
    /// pipe that never ends.
    static func read(_ path: String) -> Result<[UInt8], FileReadFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(FileReadFailure(errno: errno)) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(FileReadFailure(errno: EISDIR))
        }
        do {
            return .success(
                try FileDescriptorIO.readAll(descriptor, limit: maximumSize, chunkSize: 64 * 1024, stopsOnInterrupt: true))
        } catch {
            return .failure(FileReadFailure(errno: error.code))
        }
    }

    /// Whether a path names something that exists and can be opened for reading.
    static func checkReadable(_ path: String) -> FileReadFailure? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return FileReadFailure(errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            return FileReadFailure(errno: EISDIR)
        }
        return nil
    }
}

/// Why a file could not be read: the errno text in lower case.
struct FileReadFailure: ClassifiedError {
    var errno: Int32
    /// A file an item names that cannot be read is bad input; EINTR means Ctrl-C.
    var failureClass: FailureClass { errno == EINTR ? .interrupted : .badInput }
    var reason: String {
        if errno == EFBIG { return "it is larger than 64 MiB, the most an item reads (send large bodies with @FILE)" }
        return SystemError.message(errno)
    }
}
