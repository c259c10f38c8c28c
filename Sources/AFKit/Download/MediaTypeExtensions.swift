import AFCurl

/// The file name extension for a response's media type, for names that came without one.
///
/// A short table of the types downloads actually carry (the common entries of Debian's
/// /etc/mime.types and of Python's `mimetypes`, which HTTPie uses); reading /etc/mime.types at
/// run time would make the name depend on the machine. `application/octet-stream` says nothing
/// about the content, so it adds no extension.
package enum MediaTypeExtensions {
    /// Extensions by lower-case media type, without parameters.
    static let table: [String: String] = [
        "application/epub+zip": "epub",
        "application/gzip": "gz",
        "application/java-archive": "jar",
        "application/javascript": "js",
        "application/json": "json",
        "application/ld+json": "jsonld",
        "application/msword": "doc",
        "application/ogg": "ogg",
        "application/pdf": "pdf",
        "application/pgp-signature": "sig",
        "application/postscript": "ps",
        "application/rss+xml": "rss",
        "application/rtf": "rtf",
        "application/vnd.debian.binary-package": "deb",
        "application/vnd.ms-excel": "xls",
        "application/vnd.oasis.opendocument.text": "odt",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
        "application/wasm": "wasm",
        "application/x-7z-compressed": "7z",
        "application/x-bzip2": "bz2",
        "application/x-gzip": "gz",
        "application/x-iso9660-image": "iso",
        "application/x-plist": "plist",
        "application/x-rpm": "rpm",
        "application/x-sh": "sh",
        "application/x-tar": "tar",
        "application/x-xz": "xz",
        "application/xhtml+xml": "xhtml",
        "application/xml": "xml",
        "application/yaml": "yaml",
        "application/zip": "zip",
        "application/zstd": "zst",
        "audio/flac": "flac",
        "audio/mpeg": "mp3",
        "audio/ogg": "oga",
        "audio/wav": "wav",
        "font/otf": "otf",
        "font/ttf": "ttf",
        "font/woff": "woff",
        "font/woff2": "woff2",
        "image/avif": "avif",
        "image/bmp": "bmp",
        "image/gif": "gif",
        "image/jpeg": "jpg",
        "image/png": "png",
        "image/svg+xml": "svg",
        "image/tiff": "tiff",
        "image/webp": "webp",
        "image/x-icon": "ico",
        "text/calendar": "ics",
        "text/css": "css",
        "text/csv": "csv",
        "text/html": "html",
        "text/javascript": "js",
        "text/markdown": "md",
        "text/plain": "txt",
        "text/tab-separated-values": "tsv",
        "text/xml": "xml",
        "text/yaml": "yaml",
        "video/mp4": "mp4",
        "video/mpeg": "mpeg",
        "video/ogg": "ogv",
        "video/quicktime": "mov",
        "video/webm": "webm",
        "video/x-matroska": "mkv",
    ]

    /// The extension (without the dot) for a `Content-Type` value such as
    /// `text/html; charset=utf-8`, or nil when the type is unknown or says nothing.
    package static func fileExtension(forContentType contentType: String) -> String? {
        let essence = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let trimmed = essence.filter { $0 != " " && $0 != "\t" }
        return table[ASCIICase.lowercased(trimmed)]
    }
}
