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
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { return .failure(FileReadFailure(errno: errno)) }
            if count == 0 { return .success(bytes) }
            guard bytes.count + count <= maximumSize else { return .failure(FileReadFailure(errno: EFBIG)) }
            bytes.append(contentsOf: chunk[0..<count])
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
struct FileReadFailure: Error {
    var errno: Int32
    var reason: String {
        if errno == EFBIG { return "it is larger than 64 MiB, the most an item reads (send large bodies with @FILE)" }
        return SystemError.message(errno)
    }
}
