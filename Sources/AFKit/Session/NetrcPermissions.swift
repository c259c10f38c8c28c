import Glibc

/// The one thing afcli checks in a netrc itself: whether passwords in it are open to others.
/// Parsing and matching are libcurl's (CURLOPT_NETRC_FILE); this only reads the file when its
/// mode lets the group or others read it, the case ssh and ftp clients warn about.
package enum NetrcPermissions {
    /// A warning for a netrc at `path` that holds a `password` and is readable by group or
    /// others; nil when it is private, holds no password, or cannot be read.
    package static func warning(forFileAt path: String) -> String? {
        inspect(path).warning
    }

    /// Whether anything is at `path` (when nothing is, libcurl need not be pointed at it), and the
    /// warning of `warning(forFileAt:)`; one `stat` for both.
    package static func inspect(_ path: String) -> (exists: Bool, warning: String?) {
        var info = stat()
        guard stat(path, &info) == 0 else { return (false, nil) }
        return (true, warning(path, info))
    }

    private static func warning(_ path: String, _ info: stat) -> String? {
        guard info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o044 != 0, holdsPassword(path) else { return nil }
        let mode = String(info.st_mode & 0o777, radix: 8)
        return "\(path) holds passwords and can be read by others (mode \(mode)); run: chmod 600 \(path)"
    }

    /// Whether the file has a `password` token (read up to 1 MiB; the rest does not matter).
    static func holdsPassword(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 1024 * 1024)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        let text = String(decoding: bytes[0..<count], as: UTF8.self)
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .contains("password")
    }
}
