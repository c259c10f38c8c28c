import AFCurl
import Glibc

/// The Accept-Encoding libcurl decodes, remembered in the cache directory, so that a request
/// the cache answers never loads libcurl just to learn it: loading libcurl and its dependencies
/// is most of afcli's start-up, and an answer from the cache needs neither.
///
/// The file (`accept-encoding`, 0600) names the libcurl file it was learnt from with that file's
/// device, inode, size and modification time; a libcurl upgraded or replaced since then no longer
/// matches, and the value is learnt again (loading libcurl) and remembered anew.
package enum RememberedAcceptEncoding {
    static let fileName = "accept-encoding"

    /// The Accept-Encoding for requests sent with the cache in `directory`.
    package static func value(cacheDirectory directory: String) -> String {
        let path = directory + "/" + fileName
        if let remembered = read(path) { return remembered }
        let value = CurlRuntime.supportedEncodings
        if let library = CurlRuntime.libraryPath, let identity = identity(of: library) {
            remember(value, library: library, identity: identity, in: directory)
        }
        return value
    }

    /// The remembered value, when the file is ours and its libcurl file is unchanged.
    private static func read(_ path: String) -> String? {
        guard let descriptor = try? FileIO.openOwnedRegularFile(path, flags: O_RDONLY) else { return nil }
        defer { close(descriptor) }
        guard let bytes = try? FileDescriptorIO.readAll(descriptor, limit: 8192) else { return nil }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard lines.count >= 3, identity(of: lines[0]) == lines[1] else { return nil }
        return lines[2]
    }

    /// What tells one version of a file from another without reading it.
    private static func identity(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec) \(info.st_mtim.tv_nsec)"
    }

    /// Writes the file atomically (a temporary file renamed into place); a failure is harmless.
    private static func remember(_ value: String, library: String, identity: String, in directory: String) {
        guard (try? CacheDirectory.prepare(directory)) != nil else { return }
        let temporary = directory + "/" + fileName + ".tmp-\(getpid())"
        guard let descriptor = try? FileIO.openOwnedRegularFile(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
        else { return }
        let text = Array((library + "\n" + identity + "\n" + value + "\n").utf8)
        let written = text.withUnsafeBytes { FileIO.writeAll(descriptor, $0) }
        close(descriptor)
        if !written || rename(temporary, directory + "/" + fileName) != 0 { unlink(temporary) }
    }
}
