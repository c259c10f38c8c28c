/// One string of a `cxml_push` record: borrowed bytes, valid until the event buffer is cleared.
struct EventString {
    /// The first byte; nil for an absent string (a DOCTYPE without a public identifier).
    let base: UnsafePointer<UInt8>?
    let count: Int

    var isPresent: Bool { base != nil }

    var first: UInt8? { count > 0 ? base?[0] : nil }

    /// Whether every byte is XML white space (space, tab, CR, LF).
    var isWhitespace: Bool {
        guard let base else { return true }
        for index in 0..<count {
            let byte = base[index]
            if byte != 0x20, byte != 0x0A, byte != 0x09, byte != 0x0D { return false }
        }
        return true
    }

    func startsWith(_ prefix: StaticString) -> Bool {
        guard let base, count >= prefix.utf8CodeUnitCount else { return false }
        for index in 0..<prefix.utf8CodeUnitCount where base[index] != prefix.utf8Start[index] { return false }
        return true
    }
}

/// Reads the strings of one record after another.
struct EventCursor {
    var position: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>

    /// The next string: a 32-bit length (0xFFFFFFFF for none) and its bytes.
    mutating func next() -> EventString {
        guard end - position >= 4 else { return EventString(base: nil, count: 0) }
        let length = UnsafeRawPointer(position).loadUnaligned(as: UInt32.self)
        position += 4
        if length == UInt32.max { return EventString(base: nil, count: 0) }
        let count = min(Int(length), end - position)
        defer { position += count }
        return EventString(base: position, count: count)
    }
}

extension OutputBuffer {
    /// Appends an event string's bytes.
    mutating func append(_ string: EventString) throws {
        if let base = string.base, string.count > 0 { try append(base, string.count) }
    }
}

extension XMLEventWriter {
    /// Writes text content with `&`, `<`, `>` and CR escaped, copying the runs between them.
    mutating func escapeText(_ value: EventString) throws {
        guard let base = value.base else { return }
        let count = value.count
        var start = 0
        var index = 0
        while index < count {
            // Eight bytes at a time while none of them needs escaping (SWAR zero-byte test).
            if index + 8 <= count, !Self.hasSpecialByte(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let replacement: StaticBytes
            switch base[index] {
            case UInt8(ascii: "&"): replacement = escapes.ampersand
            case UInt8(ascii: "<"): replacement = escapes.lessThan
            case UInt8(ascii: ">"): replacement = escapes.greaterThan
            case 0x0D: replacement = escapes.carriageReturn
            default:
                index += 1
                continue
            }
            if index > start { try out.append(base + start, index - start) }
            try out.append(replacement)
            index += 1
            start = index
        }
        if count > start { try out.append(base + start, count - start) }
    }

    /// Whether any byte of `word` is `&`, `<`, `>` or CR.
    @inline(__always) static func hasSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        return hasZero(word ^ (ones &* 0x26)) || hasZero(word ^ (ones &* 0x3C)) || hasZero(word ^ (ones &* 0x3E))
            || hasZero(word ^ (ones &* 0x0D))
    }

    /// Writes an attribute value between double quotes. libxml2 passes `&amp;` on as `&#38;` and
    /// keeps other entity references as written, so `&` is left alone; `<`, `"`, `>` and the
    /// white space that attribute normalization would change are escaped.
    mutating func escapeAttribute(_ value: EventString) throws {
        guard let base = value.base else { return }
        var start = 0
        var index = 0
        while index < value.count {
            let replacement: StaticBytes
            var skip = 1
            switch base[index] {
            case UInt8(ascii: "&"):
                guard EventString(base: base + index, count: value.count - index).startsWith("&#38;") else {
                    index += 1
                    continue
                }
                replacement = escapes.ampersand
                skip = 5
            case UInt8(ascii: "<"): replacement = escapes.lessThan
            case UInt8(ascii: ">"): replacement = escapes.greaterThan
            case UInt8(ascii: "\""): replacement = escapes.quote
            case 0x0A: replacement = escapes.lineFeed
            case 0x0D: replacement = escapes.carriageReturn
            case 0x09: replacement = escapes.tab
            default:
                index += 1
                continue
            }
            if index > start { try out.append(base + start, index - start) }
            try out.append(replacement)
            index += skip
            start = index
        }
        if value.count > start { try out.append(base + start, value.count - start) }
    }

}

/// The fixed strings the XML writer copies, created once per process.
struct XMLEscapes {
    let ampersand = Self.shared.0
    let lessThan = Self.shared.1
    let greaterThan = Self.shared.2
    let quote = Self.shared.3
    let lineFeed = Self.shared.4
    let carriageReturn = Self.shared.5
    let tab = Self.shared.6
    let commentOpen = Self.markers.0
    let commentClose = Self.markers.1
    let cdataOpen = Self.markers.2
    let cdataClose = Self.markers.3
    let doctypeOpen = Self.markers.4
    let publicKeyword = Self.markers.5
    let systemKeyword = Self.markers.6

    private static let shared = (
        StaticBytes("&amp;"), StaticBytes("&lt;"), StaticBytes("&gt;"), StaticBytes("&quot;"), StaticBytes("&#10;"),
        StaticBytes("&#13;"), StaticBytes("&#9;")
    )
    private static let markers = (
        StaticBytes("<!--"), StaticBytes("-->"), StaticBytes("<![CDATA["), StaticBytes("]]>"),
        StaticBytes("<!DOCTYPE "), StaticBytes(" PUBLIC \""), StaticBytes(" SYSTEM \"")
    )
}

/// The XML declaration (`<?xml version="1.0" encoding="…"?>`) at the start of a document.
enum XMLDeclaration {
    /// The declaration at the start of `raw` (after a UTF-8 byte order mark), with a non-UTF-8
    /// encoding replaced by UTF-8; nil when the document has none.
    static func find(in raw: [UInt8]) -> [UInt8]? {
        var start = 0
        if raw.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        let prefix = Array("<?xml".utf8)
        guard raw.count >= start + 6, Array(raw[start..<(start + 5)]) == prefix,
            [0x20, 0x09, 0x0A, 0x0D].contains(raw[start + 5])
        else { return nil }
        var end = start + 5
        while end + 1 < raw.count, !(raw[end] == UInt8(ascii: "?") && raw[end + 1] == UInt8(ascii: ">")) { end += 1 }
        guard end + 1 < raw.count else { return nil }
        let declaration = Array(raw[start...(end + 1)])
        guard let value = encodingValue(in: declaration) else { return declaration }
        let name = String(decoding: declaration[value], as: UTF8.self)
        if name.lowercased() == "utf-8" { return declaration }
        return Array(declaration[..<value.lowerBound]) + Array("UTF-8".utf8) + Array(declaration[value.upperBound...])
    }

    /// Where the value of the `encoding` pseudo-attribute is, between its quotes.
    private static func encodingValue(in declaration: [UInt8]) -> Range<Int>? {
        let name = Array("encoding".utf8)
        guard
            let at = (0...(declaration.count - name.count)).first(where: {
                declaration[$0..<($0 + name.count)].elementsEqual(name)
            })
        else { return nil }
        var index = at + name.count
        while index < declaration.count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains(declaration[index]) {
            index += 1
        }
        guard index < declaration.count,
            declaration[index] == UInt8(ascii: "\"") || declaration[index] == UInt8(ascii: "'")
        else { return nil }
        let quote = declaration[index]
        guard let close = declaration[(index + 1)...].firstIndex(of: quote) else { return nil }
        return (index + 1)..<close
    }
}
