import Glibc

/// Whole writes and small whole-file reads over file descriptors, retried on `EINTR`: the loops
/// afcli's standard output, standard error, log files and configuration-like files share.
package enum FileDescriptorIO {
    /// Writes every byte of `bytes` to `descriptor`, retrying short writes and `EINTR`.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError.current
            }
            // write(2) returns 0 only for a zero-length request; stop rather than spin.
            guard written > 0 else { throw SystemError(code: EIO) }
            offset += written
        }
    }

    /// Reads `descriptor` to its end. Throws `EFBIG` once more than `limit` bytes have come, and
    /// the errno of a failed read; `EINTR` is retried unless `stopsOnInterrupt` (afcli's signal
    /// handlers do not restart calls, so a read from a pipe that never ends stops on Ctrl-C).
    package static func readAll(
        _ descriptor: Int32, limit: Int, chunkSize: Int = 16384, stopsOnInterrupt: Bool = false
    ) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR && !stopsOnInterrupt { continue }
                throw SystemError.current
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw SystemError(code: EFBIG) }
            bytes += chunk[0..<count]
        }
    }

    /// Writes all of `text` as UTF-8 (see `writeAll(_:_:)`).
    package static func writeAll(_ descriptor: Int32, _ text: String) throws(SystemError) {
        var text = text
        var failure: SystemError?
        text.withUTF8 { bytes in
            do throws(SystemError) {
                try writeAll(descriptor, UnsafeRawBufferPointer(bytes))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}

/// Reads small regular files whole (certificates, keys, `/etc/mime.types`, sysfs attributes),
/// without Foundation and with a size limit, so a huge or endless file is refused, not loaded.
package enum SmallFile {
    /// Why a read failed, in the system's words (`no such file or directory`).
    package struct ReadError: ClassifiedError, Equatable {
        package let reason: String
        /// Whether the stream is a terminal, which holds nothing until someone types (`acceptsStreams`).
        package var isTerminal = false
        /// Whether Ctrl-C stopped a read from a pipe or a device, rather than the file failing.
        package var isInterrupt = false
        /// A file named in the options or input that cannot be read is bad input.
        package var failureClass: FailureClass { isInterrupt ? .interrupted : .badInput }
    }

    /// The default limit: certificates and keys are a few kilobytes.
    package static let limit = 1 << 20

    /// The bytes of the regular file at `path`; throws when it cannot be opened or read, is not
    /// a regular file, or is larger than `limit` bytes (`tooLarge` says why in that case).
    /// `acceptsStreams` also takes a pipe (`<(cmd)`) or a character device (`/dev/stdin`), read
    /// once to its end under the same limit; Ctrl-C stops a read that waits on one. A terminal is
    /// refused (`isTerminal`) rather than read: it would wait for typing and an end-of-file.
    package static func read(
        _ path: String, limit: Int = limit, tooLarge: String = "larger than a certificate file can be",
        acceptsStreams: Bool = false
    ) throws(ReadError) -> [UInt8] {
        // O_NOCTTY: opening a terminal (refused below) must not make it afcli's controlling one.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw ReadError(reason: SystemError.message(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(reason: SystemError.message(errno)) }
        let type = info.st_mode & S_IFMT
        let isStream = type == S_IFIFO || type == S_IFCHR
        guard type == S_IFREG || (acceptsStreams && isStream) else {
            throw ReadError(reason: acceptsStreams ? "not a regular file, a pipe or a device" : "not a regular file")
        }
        if type == S_IFCHR, isatty(descriptor) == 1 { throw ReadError(reason: "it is a terminal", isTerminal: true) }
        do {
            return try FileDescriptorIO.readAll(descriptor, limit: limit, stopsOnInterrupt: isStream)
        } catch {
            throw ReadError(reason: error.code == EFBIG ? tooLarge : error.description, isInterrupt: error.code == EINTR)
        }
    }
}
