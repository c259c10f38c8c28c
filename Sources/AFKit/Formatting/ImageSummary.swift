/// What an image's header says: its format and, when the header shows them, its dimensions.
package struct ImageHeader: Equatable, Sendable {
    /// `PNG`, `JPEG`, `GIF`, `BMP`, `ICO`, `TIFF` or `WebP`.
    package var format: String
    package var width: Int?
    package var height: Int?

    package init(format: String, width: Int? = nil, height: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the header at the start of `bytes`; nil when the format is not recognised.
    package static func parse(_ bytes: [UInt8]) -> ImageHeader? {
        let reader = ByteReader(bytes: bytes)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard reader.ascii(12, 4) == "IHDR" else { return ImageHeader(format: "PNG") }
            return ImageHeader(format: "PNG", width: reader.big(16, 4), height: reader.big(20, 4))
        }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            return ImageHeader(format: "GIF", width: reader.little(6, 2), height: reader.little(8, 2))
        }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpeg(reader) }
        if bytes.starts(with: Array("BM".utf8)), let headerSize = reader.little(14, 4) {
            if headerSize == 12 {
                return ImageHeader(format: "BMP", width: reader.little(18, 2), height: reader.little(20, 2))
            }
            // A negative height means the rows are stored top-down.
            let height = reader.little(22, 4).map { abs(Int(Int32(truncatingIfNeeded: $0))) }
            return ImageHeader(format: "BMP", width: reader.little(18, 4), height: height)
        }
        if bytes.starts(with: [0, 0, 1, 0]), let count = reader.little(4, 2), count > 0 {
            // The largest of the icon's images; a size byte of 0 means 256.
            var best: (Int, Int)?
            for index in 0..<min(count, 256) {
                guard let width = reader.little(6 + 16 * index, 1), let height = reader.little(7 + 16 * index, 1) else {
                    break
                }
                let size = (width == 0 ? 256 : width, height == 0 ? 256 : height)
                if best.map({ size.0 * size.1 > $0.0 * $0.1 }) ?? true { best = size }
            }
            return ImageHeader(format: "ICO", width: best?.0, height: best?.1)
        }
        if bytes.starts(with: Array("II*\0".utf8)) || bytes.starts(with: Array("MM\0*".utf8)) {
            return tiff(ByteReader(bytes: bytes, bigEndian: bytes[0] == UInt8(ascii: "M")))
        }
        if reader.ascii(0, 4) == "RIFF", reader.ascii(8, 4) == "WEBP" { return webp(reader) }
        return nil
    }

    /// JPEG: walks the segments to the first start-of-frame marker (SOF0 to SOF15, except DHT,
    /// JPG and DAC), which holds the height and width.
    private static func jpeg(_ reader: ByteReader) -> ImageHeader {
        var offset = 2
        while let marker = reader.little(offset + 1, 1), reader.little(offset, 1) == 0xFF {
            if marker == 0xFF {
                offset += 1
                continue
            }
            if (0xD0...0xD9).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            guard let length = reader.big(offset + 2, 2), length >= 2 else { break }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return ImageHeader(format: "JPEG", width: reader.big(offset + 7, 2), height: reader.big(offset + 5, 2))
            }
            offset += 2 + length
        }
        return ImageHeader(format: "JPEG")
    }

    /// TIFF: tags 256 (ImageWidth) and 257 (ImageLength) of the first image file directory.
    private static func tiff(_ reader: ByteReader) -> ImageHeader {
        var header = ImageHeader(format: "TIFF")
        guard let directory = reader.integer(4, 4), let count = reader.integer(directory, 2) else { return header }
        for index in 0..<count {
            let entry = directory + 2 + 12 * index
            guard let tag = reader.integer(entry, 2), let type = reader.integer(entry + 2, 2) else { break }
            let value = type == 3 ? reader.integer(entry + 8, 2) : reader.integer(entry + 8, 4)
            if tag == 256 { header.width = value }
            if tag == 257 { header.height = value }
        }
        return header
    }

    /// WebP: the canvas of an extended file, or the frame of a lossless or lossy one.
    private static func webp(_ reader: ByteReader) -> ImageHeader {
        switch reader.ascii(12, 4) {
        case "VP8X":
            return ImageHeader(
                format: "WebP", width: reader.little(24, 3).map { $0 + 1 }, height: reader.little(27, 3).map { $0 + 1 })
        case "VP8L":
            guard let bits = reader.little(21, 4) else { return ImageHeader(format: "WebP") }
            return ImageHeader(format: "WebP", width: bits & 0x3FFF + 1, height: (bits >> 14) & 0x3FFF + 1)
        case "VP8 ":
            return ImageHeader(
                format: "WebP", width: reader.little(26, 2).map { $0 & 0x3FFF },
                height: reader.little(28, 2).map { $0 & 0x3FFF })
        default:
            return ImageHeader(format: "WebP")
        }
    }
}

/// Bounds-checked integer reads from a header.
private struct ByteReader {
    let bytes: [UInt8]
    var bigEndian = false

    func integer(_ offset: Int, _ size: Int) -> Int? {
        bigEndian ? big(offset, size) : little(offset, size)
    }

    func big(_ offset: Int, _ size: Int) -> Int? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        return bytes[offset..<(offset + size)].reduce(0) { $0 << 8 | Int($1) }
    }

    func little(_ offset: Int, _ size: Int) -> Int? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        return bytes[offset..<(offset + size)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    func ascii(_ offset: Int, _ size: Int) -> String? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<(offset + size)], as: UTF8.self)
    }
}

/// Shows an image body on a terminal as one line instead of its bytes: format, dimensions and
/// size (`PNG image, 640 × 480, 15 234 bytes`). Holds at most the first 256 KiB, for the header.
package final class ImageSummaryFormatter: BodyFormatter {
    private let mediaType: String
    private let colors: SyntaxColors
    private let sink: ByteSink
    private var prefix: [UInt8] = []
    private var size = 0
    private let prefixLimit = 256 * 1024

    /// A summary for a body of `mediaType` (named when the header is not recognised).
    package init(mediaType: String, colors: SyntaxColors = .none, sink: ByteSink) {
        self.mediaType = mediaType.escapingTerminalControls
        self.colors = colors
        self.sink = sink
    }

    package var warnings: [String] { [] }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        size += chunk.count
        if prefix.count < prefixLimit { prefix.append(contentsOf: chunk.prefix(prefixLimit - prefix.count)) }
    }

    package func finish() throws {
        guard size > 0 else { return }
        var line = Array(Self.line(header: ImageHeader.parse(prefix), mediaType: mediaType, size: size).utf8)
        if colors.isEnabled { line = colors.emphasis.array + line + colors.reset.array }
        line.append(0x0A)
        try line.withUnsafeBytes { try sink.write($0) }
    }

    /// Summarises what arrived before the transfer failed.
    package func abandon() throws {
        try finish()
    }

    /// The summary text, without a line end.
    package static func line(header: ImageHeader?, mediaType: String, size: Int) -> String {
        var parts = [header.map { "\($0.format) image" } ?? (mediaType.isEmpty ? "image" : mediaType)]
        if let width = header?.width, let height = header?.height { parts.append("\(width) × \(height)") }
        parts.append(size == 1 ? "1 byte" : "\(grouped(size)) bytes")
        return parts.joined(separator: ", ")
    }

    /// `15234` as `15 234`: digits grouped by three with spaces, readable in any locale.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(" ") }
            text.append(digit)
        }
        return text
    }
}
