import Glibc

/// The few POSIX file operations downloads need, with errno kept for the error messages.
package enum FileIO {
    /// What is at a path.
    package enum Kind: Equatable, Sendable {
        /// Nothing (or a dangling name).
        case missing
        /// A regular file of this size.
        case regular(size: Int64)
        /// A directory.
        case directory
        /// A device, FIFO or socket: written to directly, never renamed or resumed.
        case special
    }

    /// What `path` is, following symbolic links (a link to a directory is a directory).
    package static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int64(info.st_size))
        case S_IFDIR: return .directory
        default: return .special
        }
    }

    /// Whether anything, even a dangling symbolic link, has this name.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Whether two names are links to one file (same device and inode; symbolic links not followed).
    package static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        return lstat(first, &a) == 0 && lstat(second, &b) == 0 && sameInode(a, b)
    }

    /// Whether two open descriptors are the same file.
    static func sameFile(_ first: Int32, _ second: Int32) -> Bool {
        var a = stat()
        var b = stat()
        return fstat(first, &a) == 0 && fstat(second, &b) == 0 && sameInode(a, b)
    }

    private static func sameInode(_ a: stat, _ b: stat) -> Bool {
        a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Opens a file that afcli writes or reads back (a partial file, a state file), never through
    /// a symbolic link: `O_NOFOLLOW` refuses a link at `path`, and the open file must be a regular
    /// file owned by the user running afcli. Anything else throws `unsafeFile` (or `cannotOpen`
    /// for an ordinary failure), so a planted link or device never receives the download.
    package static func openOwnedRegularFile(_ path: String, flags: Int32, mode: mode_t = 0o600) throws(DownloadError)
        -> Int32
    {
        // O_NONBLOCK: a FIFO planted at the name must not block the open; it is refused below.
        let descriptor = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw .unsafeFile(path: path, problem: .symbolicLink) }
            throw .cannotOpen(path: path, code: code)
        }
        if let problem = problem(withOpenFile: descriptor) {
            close(descriptor)
            throw .unsafeFile(path: path, problem: problem)
        }
        let status = fcntl(descriptor, F_GETFL)
        if status >= 0 { _ = fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) }
        return descriptor
    }

    /// What makes an open file unfit to be a download's own file: not a regular file, or owned
    /// by another user; nil when it is fine.
    package static func problem(withOpenFile descriptor: Int32) -> UnsafeFileProblem? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .notRegular }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notRegular }
        guard info.st_uid == geteuid() else { return .foreignOwner }
        return nil
    }

    /// What is at `path` itself, without following a symbolic link: nil for a regular file owned
    /// by the user or for nothing at all, else the problem.
    package static func problem(atPath path: String) -> UnsafeFileProblem? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .symbolicLink
        case S_IFREG: return info.st_uid == geteuid() ? nil : .foreignOwner
        default: return .notRegular
        }
    }

    /// Whether `path` (not followed) still names the file open as `descriptor`.
    package static func names(_ path: String, _ descriptor: Int32) -> Bool {
        var a = stat()
        var b = stat()
        return lstat(path, &a) == 0 && fstat(descriptor, &b) == 0 && sameInode(a, b)
    }

    /// The inode number of an open file, which ties a state file to its partial file.
    package static func inode(of descriptor: Int32) -> UInt64? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    /// The inode number of the file at `path` (not followed); nil when nothing is there.
    package static func inode(atPath path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    /// Bytes allocated on disk for an open file (`st_blocks` × 512).
    package static func allocatedBytes(of descriptor: Int32) -> Int64? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return Int64(info.st_blocks) * 512
    }

    /// The size of an open file; nil when fstat fails.
    package static func size(of descriptor: Int32) -> Int64? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Writes every byte, retrying after EINTR and short writes; false with errno set on failure.
    /// `written` is advanced by the bytes that did reach the file, even when it fails midway.
    @discardableResult
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, written: inout Int64) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, base + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            if count == 0 {
                errno = EIO
                return false
            }
            offset += count
            written += Int64(count)
        }
        return true
    }

    /// Writes every byte; false with errno set on failure.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var ignored: Int64 = 0
        return writeAll(descriptor, bytes, written: &ignored)
    }

    /// The directory part of a path (`.` for a bare name, `/` for a file in the root).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of a path (`big.iso` for `dir/big.iso`).
    package static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `directory/name`, or just `name` in the current directory.
    package static func join(_ directory: String, _ name: String) -> String {
        if directory == "." { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Checks that files can be created in `directory`; throws the errno that says why not.
    package static func checkWritableDirectory(_ directory: String) throws(DownloadError) {
        switch kind(of: directory) {
        case .directory:
            guard access(directory, W_OK | X_OK) == 0 else {
                throw .directoryNotWritable(path: directory, code: errno)
            }
        case .missing:
            throw .directoryNotWritable(path: directory, code: ENOENT)
        default:
            throw .directoryNotWritable(path: directory, code: ENOTDIR)
        }
    }

    /// Flushes a directory's entries (a rename or a new file in it) to disk; best effort, since
    /// some file systems refuse fsync on directories.
    package static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Seconds on the monotonic clock, for checkpoints and backoff.
    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    /// The names in a directory (without `.` and `..`); empty when it cannot be read.
    package static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// A fixed buffer in front of a file descriptor: libcurl hands over 16 KiB pieces, and gathering
/// them into 256 KiB writes saves most of the system calls without holding much memory.
///
/// `written` counts the bytes that reached the descriptor, exactly, even when a write fails
/// halfway (a full disk): the state file may only ever claim those.
package final class WriteBuffer {
    /// The buffer size.
    package static let capacity = 256 * 1024
    /// Chunks at least this big skip the buffer (libcurl delivers at most 16 KiB by default).
    package static let directThreshold = 16 * 1024

    /// Where the bytes go.
    package let descriptor: Int32
    /// The name used in errors.
    package let path: String
    /// Bytes handed to `write(2)` successfully so far, counted from `initialOffset`.
    package private(set) var written: Int64
    /// The memory, allocated once.
    private let storage: UnsafeMutableRawPointer
    /// Bytes waiting in `storage`.
    private var buffered = 0

    /// A buffer whose first byte lands at `initialOffset` of the file (the descriptor is already
    /// positioned there).
    package init(descriptor: Int32, path: String, initialOffset: Int64 = 0) {
        self.descriptor = descriptor
        self.path = path
        self.written = initialOffset
        storage = UnsafeMutableRawPointer.allocate(byteCount: Self.capacity, alignment: 4096)
    }

    deinit {
        storage.deallocate()
    }

    /// Bytes accepted, written or still buffered.
    package var accepted: Int64 { written + Int64(buffered) }

    /// Takes a chunk, writing out the buffer when it is full. A chunk of `directThreshold` bytes
    /// or more arriving at an empty buffer goes straight to the descriptor: copying it first would
    /// cost more than the system call it saves.
    package func append(_ chunk: UnsafeRawBufferPointer) throws(DownloadError) {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        if buffered + chunk.count > Self.capacity || (buffered == 0 && chunk.count >= Self.directThreshold) {
            try flush()
            if chunk.count >= Self.directThreshold {
                guard FileIO.writeAll(descriptor, chunk, written: &written) else {
                    throw .cannotWrite(path: path, code: errno)
                }
                return
            }
        }
        (storage + buffered).copyMemory(from: base, byteCount: chunk.count)
        buffered += chunk.count
    }

    /// Writes out whatever is buffered. After a failure the bytes that did not make it are
    /// dropped: the download is stopping, and `written` says what is on disk.
    package func flush() throws(DownloadError) {
        guard buffered > 0 else { return }
        let count = buffered
        buffered = 0
        guard FileIO.writeAll(descriptor, UnsafeRawBufferPointer(start: storage, count: count), written: &written)
        else { throw .cannotWrite(path: path, code: errno) }
    }

    /// Forgets buffered bytes without writing them (the file is being truncated).
    package func discard(resettingTo offset: Int64) {
        buffered = 0
        written = offset
    }
}

/// The wall clock, for dates that are shown (monotonic time measures durations).
package enum WallClock {
    /// Seconds since 1970.
    package static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
