#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The Content-Type of a file part, from its file name's extension.
///
/// AF asks the system's type registry (`UTTypeCreatePreferredIdentifierForTag`) and falls back to
/// `application/octet-stream`. On Linux the registry is `/etc/mime.types` (Debian's `media-types`
/// package); it is read only when a file part needs a type, once per new extension, and a built-in
/// table of common types covers systems without it. Extensions compare case-insensitively.
package final class MIMETypeTable: @unchecked Sendable {
    /// The type of a file whose extension nobody knows (AF's fallback).
    package static let fallback = "application/octet-stream"
    /// Where the system's table lives.
    package static let systemPath = "/etc/mime.types"
    /// The system's table as every request of the process reads it: a run of 2,000 POSTs of one
    /// file reads /etc/mime.types once, not once a request (a third of the run's CPU time).
    package static let shared = MIMETypeTable()

    /// The system table's path, or nil to use the built-in table alone.
    private let systemFile: String?
    /// Answers already looked up in the system table, by extension (nil: not listed there).
    private var systemAnswers: [String: String?] = [:]
    /// Guards `systemAnswers`: a shared table may be asked from several threads.
    private let monitor = Monitor()

    /// A table that consults `systemFile` (by default `/etc/mime.types`) before the built-in one.
    package init(systemFile: String? = MIMETypeTable.systemPath) {
        self.systemFile = systemFile
    }

    /// The media type for `path` (a path or a bare file name); `application/octet-stream` when
    /// the name has no extension or an unknown one.
    package func type(forPath path: String) -> String {
        guard let pathExtension = Self.pathExtension(of: path) else { return Self.fallback }
        if let type = systemType(for: pathExtension) { return type }
        return Self.builtIn[pathExtension] ?? Self.fallback
    }

    /// The lower-cased extension of the last path component: `png` for `a/b.PNG`; nil for names
    /// without one and for dot files such as `.bashrc`, as Python's `mimetypes` reads them.
    package static func pathExtension(of path: String) -> String? {
        // Scanned backwards over the UTF-8 bytes: `/` and `.` are ASCII, so every index met at
        // one is a boundary of the string.
        let bytes = path.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: "/") {
            end = bytes.index(before: end)
        }
        var start = end
        var dot: String.Index?
        while start > bytes.startIndex {
            let previous = bytes.index(before: start)
            let byte = bytes[previous]
            if byte == UInt8(ascii: "/") { break }
            if byte == UInt8(ascii: "."), dot == nil { dot = previous }
            start = previous
        }
        guard let dot, dot != start else { return nil }
        let extensionStart = bytes.index(after: dot)
        guard extensionStart < end else { return nil }
        return String(decoding: bytes[extensionStart..<end], as: UTF8.self).lowercased()
    }

    /// The type the mime.types text `text` gives `pathExtension` (lower case): lines are
    /// `type ext ext…`, `#` starts a comment, extensions compare case-insensitively, and the first
    /// line that lists the extension wins, as in Python's `mimetypes` and nginx.
    ///
    /// The text is scanned, not turned into a dictionary of its two thousand lines, so looking up
    /// the type of one upload costs no memory beyond the file's bytes.
    package static func lookup(_ pathExtension: String, in text: [UInt8]) -> String? {
        let wanted = Array(pathExtension.utf8)
        var lineStart = 0
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != 0x0A, text[lineEnd] != 0x23 { lineEnd += 1 }
            var fields: [Range<Int>] = []
            var index = lineStart
            while index < lineEnd {
                while index < lineEnd, isBlank(text[index]) { index += 1 }
                let start = index
                while index < lineEnd, !isBlank(text[index]) { index += 1 }
                if index > start { fields.append(start..<index) }
            }
            if fields.count >= 2, text[fields[0]].contains(0x2F),
                fields.dropFirst().contains(where: { equalIgnoringCase(text[$0], wanted) })
            {
                return String(decoding: text[fields[0]], as: UTF8.self)
            }
            while lineEnd < text.count, text[lineEnd] != 0x0A { lineEnd += 1 }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// The system table's answer for `pathExtension`, reading the file on each new extension.
    private func systemType(for pathExtension: String) -> String? {
        monitor.locked {
            if let answer = systemAnswers[pathExtension] { return answer }
            var answer: String?
            if let systemFile, let text = Self.readSmallFile(systemFile) {
                answer = Self.lookup(pathExtension, in: text)
            }
            systemAnswers[pathExtension] = answer
            return answer
        }
    }

    /// Whether `byte` separates fields in mime.types (space, tab, CR).
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }

    /// Whether `bytes` spell `lowercase` ignoring ASCII case.
    private static func equalIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: [UInt8]) -> Bool {
        bytes.count == lowercase.count
            && zip(bytes, lowercase).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0) == $1 }
    }

    /// The bytes of a file of at most 4 MiB, or nil when it cannot be read.
    private static func readSmallFile(_ path: String) -> [UInt8]? {
        try? SmallFile.read(path, limit: 4 * 1024 * 1024)
    }

    /// Common types, for systems without `/etc/mime.types` (minimal containers).
    static let builtIn: [String: String] = [
        "7z": "application/x-7z-compressed", "aac": "audio/aac", "apk": "application/vnd.android.package-archive",
        "avi": "video/x-msvideo", "avif": "image/avif", "bin": "application/octet-stream", "bmp": "image/bmp",
        "bz2": "application/x-bzip2", "c": "text/x-csrc", "css": "text/css", "csv": "text/csv",
        "deb": "application/vnd.debian.binary-package", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "eot": "application/vnd.ms-fontobject", "epub": "application/epub+zip", "flac": "audio/flac",
        "gif": "image/gif", "gz": "application/gzip", "h": "text/x-chdr", "heic": "image/heic", "htm": "text/html",
        "html": "text/html", "ico": "image/vnd.microsoft.icon", "ics": "text/calendar",
        "iso": "application/x-iso9660-image",
        "jar": "application/java-archive", "jpeg": "image/jpeg", "jpg": "image/jpeg", "js": "text/javascript",
        "json": "application/json", "jsonld": "application/ld+json", "m4a": "audio/mp4", "md": "text/markdown",
        "mid": "audio/midi", "mjs": "text/javascript", "mkv": "video/x-matroska", "mov": "video/quicktime",
        "mp3": "audio/mpeg", "mp4": "video/mp4", "mpeg": "video/mpeg",
        "odp": "application/vnd.oasis.opendocument.presentation",
        "ods": "application/vnd.oasis.opendocument.spreadsheet", "odt": "application/vnd.oasis.opendocument.text",
        "oga": "audio/ogg", "ogg": "audio/ogg", "ogv": "video/ogg", "otf": "font/otf", "pdf": "application/pdf",
        "plist": "application/x-plist", "png": "image/png", "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "rar": "application/vnd.rar", "rtf": "application/rtf", "sh": "application/x-sh", "svg": "image/svg+xml",
        "swift": "text/x-swift", "tar": "application/x-tar", "tgz": "application/gzip", "tif": "image/tiff",
        "tiff": "image/tiff", "toml": "application/toml", "ts": "video/mp2t", "ttf": "font/ttf", "txt": "text/plain",
        "wasm": "application/wasm", "wav": "audio/wav", "weba": "audio/webm", "webm": "video/webm",
        "webp": "image/webp", "woff": "font/woff", "woff2": "font/woff2", "xhtml": "application/xhtml+xml",
        "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xml": "application/xml", "xz": "application/x-xz", "yaml": "application/yaml", "yml": "application/yaml",
        "zip": "application/zip", "zst": "application/zstd",
    ]
}
