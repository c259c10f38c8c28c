import AFCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Builds a multipart/form-data body the way AF's `AFStreamingMultipartFormData` does, without
/// ever holding a file in memory: parts are described here and streamed by `MultipartBodySource`.
///
/// The layout (spec/AFNETWORKING.md §4): the first part starts with `--B` CRLF, every later one with
/// CRLF `--B` CRLF, the body ends with CRLF `--B--` CRLF; each part is its headers, a blank line and
/// its content. Every `append` checks its input first and throws a `SerializationError` for the
/// first problem, so a bad part is refused before a byte is sent.
package struct MultipartFormData {
    /// The boundary between parts (without the leading `--`).
    package let boundary: String
    /// The parts in the order they are sent.
    package private(set) var parts: [MultipartPart] = []
    /// Where file types come from when a file part has no explicit type.
    private let mimeTypes: MIMETypeTable

    /// An empty form with `boundary` (a fresh random one by default); throws `.invalidBoundary`
    /// for a boundary RFC 2046 does not allow.
    package init(
        boundary: String = MultipartBoundary.random(), mimeTypes: MIMETypeTable = .shared
    ) throws(SerializationError) {
        if let problem = MultipartBoundary.problem(with: boundary) {
            throw .invalidBoundary(boundary, reason: problem)
        }
        self.boundary = boundary
        self.mimeTypes = mimeTypes
    }

    /// The request's `Content-Type`: `multipart/form-data; boundary=B`.
    package var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    // MARK: - Appending

    /// Appends a plain field (AF's `appendPartWithFormData:name:`): no file name, no type.
    package mutating func append(field name: String, value: String) throws(SerializationError) {
        try check(name: name)
        parts.append(MultipartPart(name: name, filename: nil, contentType: nil, content: .bytes(Array(value.utf8))))
    }

    /// Appends file data held in memory (AF's `appendPartWithFileData:name:fileName:mimeType:`).
    package mutating func append(
        data: [UInt8], name: String, filename: String, contentType: String
    ) throws(SerializationError) {
        try check(name: name)
        try check(filename: filename, field: name)
        try check(contentType: contentType, field: name)
        parts.append(MultipartPart(name: name, filename: filename, contentType: contentType, content: .bytes(data)))
    }

    /// Appends the file at `path` (AF's `appendPartWithFileURL:name:fileName:mimeType:error:`).
    ///
    /// The checks, in order, each refusing with the first problem found:
    /// 1. the field name, the file name (default: the path's last component) and the type can be
    ///    written into the part's headers;
    /// 2. the path opens for reading (it exists, permissions allow it);
    /// 3. it is not a directory (AF would send a short body; afcli refuses, spec §4);
    /// 4. a regular file contributes its current size to the exact Content-Length and is reopened
    ///    when sent; anything else (a pipe, a device) is kept open and streamed with no length.
    ///
    /// Without `contentType` the type comes from the path's extension (`application/octet-stream`
    /// when unknown), as AF derives it from the file URL.
    package mutating func append(
        fileAt path: String, name: String, filename: String? = nil, contentType: String? = nil
    ) throws(SerializationError) {
        let filename = filename ?? Self.lastPathComponent(path)
        try check(name: name)
        try check(filename: filename, field: name)
        if let contentType { try check(contentType: contentType, field: name) }
        guard !path.isEmpty else { throw .unreadable(path: path, reason: "no such file or directory") }

        let (descriptor, info) = try SystemCall.openForReading(path)
        let kind = info.st_mode & mode_t(S_IFMT)
        let content: MultipartPart.Content
        if kind == mode_t(S_IFREG) {
            close(descriptor)
            content = .file(path: path, size: UInt64(info.st_size))
        } else {
            content = .stream(path: path, source: DescriptorStreamSource(descriptor: descriptor, path: path))
        }
        let type = contentType ?? mimeTypes.type(forPath: path)
        parts.append(MultipartPart(name: name, filename: filename, contentType: type, content: content))
    }

    /// Appends a part read from `source` as it is sent, of unknown length, so the body goes out
    /// chunked (AF's `appendPartWithInputStream:…` needs a length; afcli does not).
    ///
    /// `path` names the source in messages (`-` for standard input); the type defaults to
    /// `application/octet-stream`.
    package mutating func append(
        stream source: BodySource, path: String, name: String, filename: String, contentType: String? = nil
    ) throws(SerializationError) {
        try check(name: name)
        try check(filename: filename, field: name)
        if let contentType { try check(contentType: contentType, field: name) }
        parts.append(
            MultipartPart(
                name: name, filename: filename, contentType: contentType ?? MIMETypeTable.fallback,
                content: .stream(path: path, source: source)))
    }

    // MARK: - The whole body

    /// The exact number of bytes of the body, or nil when a part is a stream (then it is sent
    /// chunked). An empty form is the close delimiter `--B--\r\n` alone.
    package var contentLength: UInt64? {
        guard !parts.isEmpty else { return UInt64(boundary.utf8.count) + 6 }
        let delimiterLength = UInt64(boundary.utf8.count) + 4
        var total = delimiterLength + 4  // "\r\n--B--\r\n" ends the body.
        for (index, part) in parts.enumerated() {
            guard let contentLength = part.contentLength else { return nil }
            // The first delimiter has no leading CRLF: it opens the body.
            total += (index == 0 ? delimiterLength : delimiterLength + 2)
            total += UInt64(part.headerBytes.count) + contentLength
        }
        return total
    }

    /// The whole body when every part is in memory (fields, data), for printing and logging;
    /// nil when a part is a file or stream.
    package var inMemoryBytes: [UInt8]? {
        guard !parts.contains(where: \.isStreamed) else { return nil }
        var bytes: [UInt8] = []
        let source = makeBodySource()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = (try? chunk.withUnsafeMutableBytes { try source.read(into: $0) }) ?? 0
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// A source that streams the body: the exact wire bytes, or a preview for printing.
    package func makeBodySource(rendering: MultipartBodySource.Rendering = .wire) -> MultipartBodySource {
        MultipartBodySource(form: self, rendering: rendering)
    }

    // MARK: - Helpers

    /// The last component of `path`, as AF's `lastPathComponent` gives the default file name.
    static func lastPathComponent(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }

    private func check(name: String) throws(SerializationError) {
        if let problem = MultipartPart.problem(withName: name) {
            throw .invalidPartName(name, field: nil, reason: problem)
        }
    }

    private func check(filename: String, field: String) throws(SerializationError) {
        if let problem = MultipartPart.problem(withName: filename) {
            throw .invalidPartName(filename, field: field, reason: problem)
        }
    }

    private func check(contentType: String, field: String) throws(SerializationError) {
        guard MultipartPart.isWritableContentType(contentType) else {
            throw .invalidPartContentType(contentType, field: field)
        }
    }
}
