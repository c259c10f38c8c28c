/// Recognises, in one pass over its bytes, a typed URL that `RequestURL.makeReference` would send
/// exactly as typed: `http://` or `https://` in lower case, an ASCII host without user information
/// or brackets, an optional port from 1 to 65535, and a path, query and fragment with nothing to
/// percent-encode and no dot segment. Most typed URLs are such; they skip parsing into components,
/// validation and printing again. Anything else is left to the general path, which decides.
package enum PlainRequestURL {
    /// The byte offsets of the path in `text` when `text` goes out as typed; nil when the general
    /// path must handle it (it may still be valid, or it may be an error to report).
    package static func pathRange(_ text: String) -> Range<Int>? {
        text.utf8.withContiguousStorageIfAvailable { scan($0) } ?? nil
    }

    /// The path of `text` without its leading `/` (`EnvironmentURL.Joined.apiPath`) when `text`
    /// goes out as typed; nil when the general path must handle it.
    package static func apiPath(_ text: String) -> String? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard let path = scan(bytes) else { return nil }
            var start = path.lowerBound
            while start < path.upperBound, bytes[start] == UInt8(ascii: "/") { start += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<path.upperBound]), as: UTF8.self)
        } ?? nil
    }

    /// `pathRange` on the text's UTF-8 bytes.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let hostStart = schemeLength(bytes) else { return nil }
        var index = hostStart
        var colon: Int?
        // The authority runs to the first `/`, `?` or `#`, as `URLReference(parsing:)` cuts it.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: ":") {
                // A second colon makes the host invalid: the general path reports it.
                guard colon == nil else { return nil }
                colon = index
            } else if colon == nil {
                guard isPlainHostByte(byte) else { return nil }
            } else {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            }
            index += 1
        }
        guard (colon ?? index) > hostStart else { return nil }
        if let colon, !isPortInRange(UnsafeBufferPointer(rebasing: bytes[(colon + 1)..<index])) { return nil }
        // The path, checked for dot segments on the way (as `URLReference.hasDotSegment`): the
        // dots since the segment's start, or -1 once it holds anything else.
        let pathStart = index
        var dots = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") {
                if dots == 1 || dots == 2 { return nil }
                dots = 0
            } else if byte == UInt8(ascii: ".") {
                if dots >= 0 { dots += 1 }
            } else if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                break
            } else {
                // `%` included: a typed escape is kept, but the general path checks it.
                guard URLPercentEncoding.isAllowed(byte) else { return nil }
                dots = -1
            }
            index += 1
        }
        if dots == 1 || dots == 2 { return nil }
        let path = pathStart..<index
        // The query (`?` may repeat in it), then the fragment, where a second `#` would be encoded.
        var inFragment = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") {
                guard !inFragment else { return nil }
                inFragment = true
            } else if !URLPercentEncoding.isAllowed(byte) {
                return nil
            }
            index += 1
        }
        return path
    }

    /// The length of a leading `http://` or `https://`; nil for any other start.
    private static func schemeLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count > 7, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"),
            bytes[2] == UInt8(ascii: "t"), bytes[3] == UInt8(ascii: "p")
        else { return nil }
        var index = 4
        if bytes[index] == UInt8(ascii: "s") { index += 1 }
        guard bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return nil }
        return index + 3
    }

    /// Whether `byte` may stand in a registered name that IDNA leaves alone: printable ASCII other
    /// than the bytes `URLReference.isValidHost` refuses.
    private static func isPlainHostByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !URLReference.isForbiddenHostByte(byte)
    }

    /// Whether `digits` (decimal digits only) name a port from 1 to 65535; an empty port is not
    /// plain (validation drops it).
    private static func isPortInRange(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        var value = 0
        for digit in digits {
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
            if value > 65535 { return false }
        }
        return value >= 1
    }
}
