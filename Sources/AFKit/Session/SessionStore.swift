import AFCurl
import Glibc

/// Where sessions live and how they are read and written.
///
/// A name resolves to `<config>/sessions/<host>[_<port>]/<name>.json` (HTTPie 3.2's layout); a
/// value with a `/` is a path. Files are read without following a symbolic link and only when
/// they are the user's own regular files; they are written 0600 in 0700 directories by atomic
/// replace (a new file created exclusively, fsync, rename), so a crash leaves the old session or
/// the new one, never a torn file, and a link planted at the name is replaced, not followed.
package enum SessionStore {
    /// The largest session file read (HTTPie's are a few KiB).
    package static let maximumSize = 4 * 1024 * 1024

    /// The session file for `value` (`--session`), the request `url` and the config directory
    /// (nil when the user has no home directory); a `Host` header given on the command line names
    /// the directory instead, as in HTTPie.
    package static func path(
        for value: String, url: String, hostHeader: String? = nil, configDirectory: String?
    ) throws(SessionError) -> String {
        if value.contains("/") { return value }
        // `.` and `..` would make the hidden files `..json` and `...json`.
        guard !value.isEmpty, value != ".", value != "..", value.utf8.allSatisfy(isNameByte) else {
            throw .invalidName(value)
        }
        guard let configDirectory else { throw .noConfigDirectory(value) }
        var hostPort: String
        if let hostHeader, !hostHeader.isEmpty {
            hostPort = ASCIICase.lowercased(hostHeader)
        } else {
            let reference = URLReference(parsing: url)
            hostPort = ASCIICase.lowercased(reference.host ?? "")
            if hostPort.isEmpty { hostPort = "localhost" }
            if let port = reference.port, !port.isEmpty { hostPort += ":" + port }
        }
        hostPort = hostPort.replacingColons
        guard hostPort != ".", hostPort != "..", !hostPort.contains("/") else { throw .invalidName(hostPort) }
        return FileIO.join(FileIO.join(FileIO.join(configDirectory, "sessions"), hostPort), value + ".json")
    }

    /// Whether a byte may appear in a session name (HTTPie's `[a-zA-Z0-9_.-]`).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// Refuses a `--cookie-jar` that sessions would refuse (the one rule for files that hold
    /// cookies): a symbolic link, which is never followed nor silently replaced by a regular file,
    /// anything but a regular file, or another user's file. A missing jar is fine.
    package static func checkCookieJar(_ path: String) throws(SessionError) {
        if let problem = FileIO.problem(atPath: path) { throw .unusableCookieJar(path: path, problem: problem) }
    }

    /// Reads the session at `path`; a missing file is an empty session.
    package static func load(_ path: String) throws(SessionError) -> SessionFile {
        try loadForUpdate(path).file
    }

    /// Reads the session at `path`, and whether the file exists with no group or other permission
    /// bits (an unchanged session in such a file need not be written back).
    package static func loadForUpdate(_ path: String) throws(SessionError) -> (file: SessionFile, isPrivate: Bool) {
        let descriptor: Int32
        do {
            descriptor = try FileIO.openOwnedRegularFile(path, flags: O_RDONLY)
        } catch {
            if case .cannotOpen(_, let code) = error, code == ENOENT { return (SessionFile(), false) }
            throw .unreadable(path: path, reason: String(describing: error))
        }
        defer { close(descriptor) }
        var info = stat()
        let isPrivate = fstat(descriptor, &info) == 0 && info.st_mode & 0o077 == 0
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readAll(descriptor, limit: maximumSize)
        } catch {
            if error.code == EFBIG { throw .invalid(path: path, reason: "larger than \(maximumSize) bytes") }
            throw .unreadable(path: path, reason: error.description)
        }
        return (try SessionFile.decode(bytes: bytes, path: path), isPrivate)
    }

    /// Writes `session` to `path` atomically, 0600, creating missing directories 0700.
    package static func save(_ session: SessionFile, to path: String) throws(SessionError) {
        try write(session.encoded(), to: path)
    }

    /// Replaces `path` with `bytes` atomically (temporary file, fsync, rename), 0600, creating
    /// missing parent directories 0700; shared with the cookie jar.
    package static func write(_ bytes: [UInt8], to path: String) throws(SessionError) {
        let directory = FileIO.directory(of: path)
        try makeDirectories(directory, for: path)
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        try write(bytes, named: FileIO.baseName(of: path), in: descriptor, path: path)
    }

    /// Replaces the file `name` in the open directory `directory` with `bytes` atomically
    /// (temporary file, fsync, rename, the directory synced), 0600; `path` names it in errors.
    package static func write(
        _ bytes: [UInt8], named name: String, in directory: Int32, path: String
    ) throws(SessionError) {
        let temporary = ".\(name).\(getpid()).tmp"
        unlinkat(directory, temporary, 0)
        let descriptor = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        let written = bytes.withUnsafeBytes { FileIO.writeAll(descriptor, $0) }
        let code = errno
        guard written, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(written ? errno : code))
            close(descriptor)
            unlinkat(directory, temporary, 0)
            throw .cannotWrite(path: path, reason: reason)
        }
        close(descriptor)
        guard renameat(directory, temporary, directory, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(directory, temporary, 0)
            throw .cannotWrite(path: path, reason: reason)
        }
        _ = fsync(directory)
    }

    /// Creates `directory` and its missing parents with mode 0700 (existing ones are left alone).
    package static func makeDirectories(_ directory: String, for path: String) throws(SessionError) {
        if case .directory = FileIO.kind(of: directory) { return }
        let parent = FileIO.directory(of: directory)
        if parent != directory { try makeDirectories(parent, for: path) }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw .cannotWrite(path: path, reason: "cannot create \(directory): \(String(cString: strerror(errno)))")
        }
    }
}

extension String {
    /// `host:port` → `host_port`, as HTTPie names session directories.
    fileprivate var replacingColons: String {
        String(map { $0 == ":" ? "_" : $0 })
    }
}
