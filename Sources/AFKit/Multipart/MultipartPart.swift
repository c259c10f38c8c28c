import AFCurl

/// One part of a multipart/form-data body: its headers and where its content comes from, as AF's
/// `AFHTTPBodyPart` holds them.
///
/// Parts are only described here; `MultipartBodySource` opens files and reads streams when libcurl
/// reaches them, so a thousand file parts never hold a thousand descriptors.
package struct MultipartPart {
    /// Where a part's content comes from.
    package enum Content {
        /// Bytes held in memory: a form field's value, or file data given as bytes.
        case bytes([UInt8])
        /// A regular file of a known size, opened when the part is sent.
        case file(path: String, size: UInt64)
        /// A source of unknown length (standard input, a pipe); `path` names it in messages
        /// (`-` for standard input).
        case stream(path: String, source: BodySource)
    }

    /// The form field name (`name="…"`).
    package let name: String
    /// The file name (`filename="…"`); nil for a plain field.
    package let filename: String?
    /// The part's `Content-Type`; nil for a plain field, which AF sends without one.
    package let contentType: String?
    /// The content.
    package let content: Content

    /// A part; the caller has checked that the names and type can be written into headers.
    package init(name: String, filename: String?, contentType: String?, content: Content) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.content = content
    }

    /// The part's headers as AF writes them (`stringForHeaders`): `Content-Disposition`, then
    /// `Content-Type` when there is one, each ending in CRLF, then the blank line before the body.
    /// Names are written as UTF-8 between quotes, unescaped, as AF does.
    package var headerBytes: [UInt8] {
        var text = "Content-Disposition: form-data; name=\"\(name)\""
        if let filename { text += "; filename=\"\(filename)\"" }
        text += "\r\n"
        if let contentType { text += "Content-Type: \(contentType)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The number of content bytes, or nil for a stream.
    package var contentLength: UInt64? {
        switch content {
        case .bytes(let bytes): return UInt64(bytes.count)
        case .file(_, let size): return size
        case .stream: return nil
        }
    }

    /// Whether the content is a file or stream rather than bytes in memory.
    package var isStreamed: Bool {
        if case .bytes = content { return false }
        return true
    }

    // MARK: - Checks

    /// Why `name` cannot be written between quotes in a header, or nil when it can.
    ///
    /// AF writes names unescaped; a `"` would end the quoted string early and a CR or LF would end
    /// the header, so afcli refuses them (spec §4) rather than send a body servers misread.
    static func problem(withName name: String) -> String? {
        if name.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
            return "names cannot contain \", CR or LF"
        }
        return nil
    }

    /// Whether `type` can be written as a `Content-Type` value: not empty, no control characters.
    static func isWritableContentType(_ type: String) -> Bool {
        !type.isEmpty && !type.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
    }
}
