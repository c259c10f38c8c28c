import AFCurl
import Glibc

/// The encryption stage of the request pipeline (DESIGN §3): the serialized body, whatever its
/// kind (JSON, form, plist, multipart, a file, standard input), piped through a shell command
/// whose output is sent instead, with `Content-Type` set to the encrypted type.
///
/// The command's output goes to an unlinked 0600 temporary file, so memory stays bounded for any
/// size and the body is sent with an exact `Content-Length` (and can be replayed for a 307/308).
/// An output of at most `inMemoryLimit` bytes is also kept in memory, so that `--offline`,
/// `--verbose` and the request log show the encrypted body; a larger one is streamed from the
/// file. A command that cannot start, fails or exits with a status other than 0 stops the request
/// before anything is sent (`PipedCommandError`).
package enum BodyEncryption {
    /// The `Content-Type` of an encrypted body unless one is given (`--encrypted-type`).
    package static let defaultContentType = "text/plain"
    /// Encrypted bodies up to this size are also kept in memory for display and the log.
    package static let inMemoryLimit = 1 << 20

    /// Replaces `request`'s body with its encryption by `command`; a request without a body is
    /// left unchanged.
    package static func apply(to request: inout PreparedRequest, command: String, contentType: String) throws {
        guard let plain = request.body else { return }
        let file = try TemporaryFileBodySource()
        let pipe = try PipedCommand(command: command, role: "encrypt")
        defer { pipe.terminate() }
        let write: PipedCommand.Output = { bytes in try file.append(bytes) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        // The cache keys on what was typed, not on the encryption (which may be salted).
        var plainDigest = SHA256()
        while true {
            let count = try chunk.withUnsafeMutableBytes { try plain.read(into: $0) }
            if count == 0 { break }
            try chunk.withUnsafeBytes {
                let part = UnsafeRawBufferPointer(rebasing: $0[0..<count])
                plainDigest.update(part)
                try pipe.feed(part, to: write)
            }
        }
        request.plainBodyDigest = SHA256.hex(plainDigest.finalize())
        try pipe.finish(to: write)
        try file.rewind()
        let chunked = request.body is ChunkedBodySource
        if let length = file.length, length <= UInt64(inMemoryLimit) {
            let bytes = try file.readAll()
            request.body = BytesBodySource(bytes)
            request.bodyBytes = bytes
        } else {
            request.body = file
            request.bodyBytes = nil
        }
        if chunked, let body = request.body { request.body = ChunkedBodySource(body) }
        request.headers.removeAll { ASCIICase.equal($0.name, "content-type") }
        request.headers.append(HTTPField(name: "Content-Type", value: contentType))
    }
}

/// A body written once into an unlinked 0600 temporary file (in `$TMPDIR`, else `/tmp`) and then
/// read back as many times as libcurl asks; the file disappears with its descriptor.
package final class TemporaryFileBodySource: BodySource {
    private let descriptor: Int32
    private var written: UInt64 = 0
    private var position: UInt64 = 0
    /// What the file holds, for messages (`the encrypted body`).
    private let contents: String

    /// Creates the file with `mkstemp` (0600) and unlinks its name at once; `contents` names what
    /// it will hold, for messages.
    package init(holding contents: String = "the encrypted body") throws(TemporaryFileError) {
        let directory = Self.directory()
        var template = Array((directory + "/afcli-body-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw TemporaryFileError(directory: directory, error: .current, contents: contents)
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
        self.contents = contents
    }

    deinit {
        close(descriptor)
    }

    /// `$TMPDIR` when it is set and absolute, else `/tmp`.
    private static func directory() -> String {
        if let value = getenv("TMPDIR").map({ String(cString: $0) }), value.hasPrefix("/") { return value }
        return "/tmp"
    }

    /// Appends bytes at the end of the file.
    package func append(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try FileDescriptorIO.writeAll(descriptor, bytes)
        } catch {
            throw TemporaryFileError(directory: Self.directory(), error: error, contents: contents)
        }
        written += UInt64(bytes.count)
    }

    package var length: UInt64? { written }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = Int(min(UInt64(buffer.count), written - position))
        guard wanted > 0 else { return 0 }
        let count = pread(descriptor, buffer.baseAddress, wanted, off_t(position))
        guard count > 0 else {
            throw TemporaryFileError(directory: Self.directory(), error: .current, contents: contents)
        }
        position += UInt64(count)
        return count
    }

    package func rewind() throws {
        position = 0
    }

    /// The whole content (for a small body only).
    func readAll() throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(written))
        var filled = 0
        while filled < bytes.count {
            let count = try bytes.withUnsafeMutableBytes {
                try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            filled += count
        }
        position = 0
        return bytes
    }
}

/// The temporary file of an encrypted or decrypted body could not be created, written or read.
package struct TemporaryFileError: ClassifiedError, Equatable, CustomStringConvertible {
    /// Where the file was to be.
    package var directory: String
    /// The system's error.
    package var error: SystemError
    /// What the file was to hold (`the encrypted body`).
    package var contents = "the encrypted body"

    /// A temporary file that cannot be kept is an I/O failure.
    package var failureClass: FailureClass { .failure }

    package var description: String {
        "cannot keep \(contents) in a temporary file in \(directory): \(error)"
    }
}
