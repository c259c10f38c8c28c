/// Rewrites one JSON value compactly with every object's members sorted by key, for `--sorted`.
///
/// Strings and numbers are copied exactly as received; keys compare by their decoded text in
/// code point order (what Python's `sort_keys` does, and so HTTPie), equal keys keeping their
/// order. The whole value is in memory while it is sorted: the formatter hands over one object
/// at a time (each element of a top-level array separately).
package enum JSONKeySorter {
    /// The sorted compact form of the JSON value in `bytes`; throws for invalid JSON, and for
    /// nesting deeper than `maximumDepth` (which also keeps the recursion off the stack's end),
    /// with the offset into `bytes`.
    package static func sorted(
        _ bytes: [UInt8], maximumDepth: Int = FormattingLimits.maximumDepth
    ) throws(JSONParseError) -> [UInt8] {
        // One frame or two a level: on a stack that holds them (`DeepStack`).
        try DeepStack.run(levels: maximumDepth) { () throws(JSONParseError) -> [UInt8] in
            var reader = SortingReader(bytes: bytes, maximumDepth: maximumDepth)
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            reader.skipWhitespace()
            try reader.value(into: &output, depth: 0)
            reader.skipWhitespace()
            guard reader.index == bytes.count else {
                throw JSONParseError(offset: reader.index, reason: "unexpected data after the JSON value")
            }
            return output
        }
    }
}

/// The cursor `JSONKeySorter` reads with; the grammar matches `JSONStreamFormatter`'s.
private struct SortingReader {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Steps over JSON white space.
    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    /// An error at the cursor; at the end of the input, `unexpected end of JSON`.
    func failure(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: index < bytes.count ? reason : "unexpected end of JSON")
    }

    /// Copies one value, with objects sorted, to `output`.
    mutating func value(into output: inout [UInt8], depth: Int) throws(JSONParseError) {
        guard index < bytes.count else { throw failure("expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try object(into: &output, depth: depth + 1)
        case UInt8(ascii: "["):
            try array(into: &output, depth: depth + 1)
        case UInt8(ascii: "\""):
            let start = index
            try string()
            output.append(contentsOf: bytes[start..<index])
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            var state: UInt8 = 0xFE
            let start = index
            while index < bytes.count {
                let next =
                    state == 0xFE
                    ? (bytes[index] == UInt8(ascii: "-") ? 0 : JSONFormatterCore.numberStep(0, bytes[index]))
                    : JSONFormatterCore.numberStep(state, bytes[index])
                if next == 0xFF { break }
                state = next
                index += 1
            }
            guard [1, 2, 4, 7].contains(state) else { throw failure("invalid number") }
            output.append(contentsOf: bytes[start..<index])
        case UInt8(ascii: "t"):
            try word("true", into: &output)
        case UInt8(ascii: "f"):
            try word("false", into: &output)
        case UInt8(ascii: "n"):
            try word("null", into: &output)
        default:
            throw failure("expected a value")
        }
    }

    /// Copies the literal `text` (`true`, `false`, `null`), which must come next.
    mutating func word(_ text: StaticString, into output: inout [UInt8]) throws(JSONParseError) {
        let word = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        for byte in word {
            guard index < bytes.count, bytes[index] == byte else { throw failure("invalid literal") }
            index += 1
        }
        output.append(contentsOf: word)
    }

    /// Copies an array, element by element.
    mutating func array(into output: inout [UInt8], depth: Int) throws(JSONParseError) {
        guard depth <= maximumDepth else {
            throw JSONParseError(
                offset: index, reason: "nesting deeper than \(maximumDepth) levels", depthLimit: maximumDepth)
        }
        output.append(UInt8(ascii: "["))
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            output.append(UInt8(ascii: "]"))
            return
        }
        while true {
            skipWhitespace()
            try value(into: &output, depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw failure("expected ',' or a closing bracket") }
            if bytes[index] == UInt8(ascii: ",") {
                output.append(UInt8(ascii: ","))
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                output.append(UInt8(ascii: "]"))
                return
            } else {
                throw failure(bytes[index] == UInt8(ascii: "}") ? "expected ']'" : "expected ',' or a closing bracket")
            }
        }
    }

    /// Reads every member of an object, then writes them sorted by decoded key (ties in order).
    mutating func object(into output: inout [UInt8], depth: Int) throws(JSONParseError) {
        guard depth <= maximumDepth else {
            throw JSONParseError(
                offset: index, reason: "nesting deeper than \(maximumDepth) levels", depthLimit: maximumDepth)
        }
        index += 1
        var members: [(key: [UInt8], position: Int, bytes: [UInt8])] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            output.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let keyStart = index
            try string()
            var member = Array(bytes[keyStart..<index])
            let key = Self.decodedKey(bytes[(keyStart + 1)..<(index - 1)])
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            member.append(UInt8(ascii: ":"))
            skipWhitespace()
            try value(into: &member, depth: depth)
            members.append((key, members.count, member))
            skipWhitespace()
            guard index < bytes.count else { throw failure("expected ',' or a closing bracket") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                break
            } else {
                throw failure(bytes[index] == UInt8(ascii: "]") ? "expected '}'" : "expected ',' or a closing bracket")
            }
        }
        members.sort { $0.key == $1.key ? $0.position < $1.position : $0.key.lexicographicallyPrecedes($1.key) }
        output.append(UInt8(ascii: "{"))
        for (offset, member) in members.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: member.bytes)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Steps over a string, checking escapes and control characters.
    mutating func string() throws(JSONParseError) {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {
                index += 1
                return
            }
            if byte < 0x20 { throw failure("control character in string") }
            if byte == 0x5C {
                index += 1
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    for _ in 0..<4 {
                        index += 1
                        guard index < bytes.count, JSONFormatterCore.isHexDigit(bytes[index]) else {
                            throw failure("invalid \\u escape in string")
                        }
                    }
                default:
                    throw failure("invalid escape in string")
                }
            }
            index += 1
        }
        throw failure("unexpected end of JSON")
    }

    /// A key's text as UTF-8 with escapes decoded, for comparing (UTF-8 order is code point order).
    static func decodedKey(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        guard raw.contains(0x5C) else { return Array(raw) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var i = raw.startIndex
        var pendingHigh: UInt32?
        func flushUTF8() {
            if !utf8.isEmpty {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
        }
        while i < raw.endIndex {
            let byte = raw[i]
            guard byte == 0x5C, i + 1 < raw.endIndex else {
                utf8.append(byte)
                i += 1
                continue
            }
            let kind = raw[i + 1]
            if kind == UInt8(ascii: "u"), i + 6 <= raw.endIndex,
                let unit = UInt32(String(decoding: raw[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16)
            {
                flushUTF8()
                if let high = pendingHigh, (0xDC00...0xDFFF).contains(unit) {
                    let scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                    scalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}")
                    pendingHigh = nil
                } else if (0xD800...0xDBFF).contains(unit) {
                    pendingHigh = unit
                } else {
                    scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
                i += 6
                continue
            }
            let decoded: UInt8
            switch kind {
            case UInt8(ascii: "b"): decoded = 0x08
            case UInt8(ascii: "f"): decoded = 0x0C
            case UInt8(ascii: "n"): decoded = 0x0A
            case UInt8(ascii: "r"): decoded = 0x0D
            case UInt8(ascii: "t"): decoded = 0x09
            default: decoded = kind
            }
            utf8.append(decoded)
            i += 2
        }
        flushUTF8()
        return Array(String(scalars).utf8)
    }
}
