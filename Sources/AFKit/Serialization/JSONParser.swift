/// A JSON syntax error: the UTF-8 byte offset it was found at and what was expected there.
package struct JSONParseError: ClassifiedError, Equatable, CustomStringConvertible {
    /// The UTF-8 byte offset of the offending byte; the input's length when the input ended early.
    package var offset: Int
    /// What went wrong, lower case and without the offset, for example `expected ',' or '}'`.
    package var reason: String

    package init(offset: Int, reason: String, depthLimit: Int? = nil) {
        self.offset = offset
        self.reason = reason
        self.depthLimit = depthLimit
    }

    /// JSON the user gave (an item, a config or session file) that does not parse.
    package var failureClass: FailureClass { .badInput }

    package var description: String { "\(reason) at offset \(offset)" }

    /// The nesting limit the text went past (valid JSON, maybe, but too deep); nil for any other
    /// error.
    package var depthLimit: Int?

    /// Whether the text went past its nesting limit.
    package var isTooDeep: Bool { depthLimit != nil }

    /// The offset counted in characters of `text`, for placing a caret under the error.
    package func characterOffset(in text: String) -> Int {
        var bytes = 0
        var characters = 0
        for character in text {
            let next = bytes + character.utf8.count
            if next > offset { break }
            bytes = next
            characters += 1
        }
        return characters
    }
}

/// A strict RFC 8259 parser that keeps number literals and member order as written.
///
/// Duplicate keys keep the position of their first occurrence and the value of their last (what
/// `JSONMember` promises). A leading UTF-8 byte order mark is ignored, as RFC 8259 §8.1 allows.
package enum JSONParser {
    /// The deepest nesting of arrays and objects accepted unless the caller says otherwise (a
    /// response body's readers take `--max-depth`); deeper input is an error, not a crash.
    package static let maximumDepth = FormattingLimits.maximumDepth

    /// Parses a whole JSON text.
    package static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses a whole JSON text given as UTF-8 bytes; invalid UTF-8 is an error. A `\u` escape of
    /// a lone surrogate (`"\ud800"`) is valid JSON (RFC 8259 §8.2) that a Swift string cannot
    /// hold: an error by default, U+FFFD with `replacingLoneSurrogates` (for reading what a
    /// server sent, where refusing the whole body over one character would be wrong).
    /// Nesting past `maximumDepth` levels is an error whose `depthLimit` says so.
    package static func parse(
        bytes: [UInt8], replacingLoneSurrogates: Bool = false, maximumDepth: Int = JSONParser.maximumDepth
    ) throws(JSONParseError) -> JSONValue {
        var cursor = JSONCursor(bytes: bytes, maximumDepth: maximumDepth)
        cursor.replacesLoneSurrogates = replacingLoneSurrogates
        return try cursor.parseDocument()
    }

    /// Whether `literal` is exactly one RFC 8259 number (`-0.5`, `1e400`, not `01` or `.5`).
    package static func isValidNumber(_ literal: String) -> Bool {
        let bytes = Array(literal.utf8)
        guard let end = try? scanNumber(bytes, from: 0) else { return false }
        return end == bytes.count
    }

    /// Scans the number starting at `start` and returns the index just past it.
    static func scanNumber(_ bytes: [UInt8], from start: Int) throws(JSONParseError) -> Int {
        var index = start
        func digits() -> Int {
            let first = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw JSONParseError(offset: index, reason: "expected a digit")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw JSONParseError(offset: index, reason: "leading zeros are not allowed")
            }
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw JSONParseError(offset: index, reason: "expected a digit") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw JSONParseError(offset: index, reason: "expected a digit") }
        }
        return index
    }

    /// Whether `byte` is an ASCII digit.
    fileprivate static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// The parser's position in its input; one recursive-descent method per JSON production.
/// JSONParser+Lookup.swift adds the walk that checks a text without building it.
struct JSONCursor {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    /// The deepest nesting accepted.
    let maximumDepth: Int
    /// Whether a lone surrogate escape becomes U+FFFD instead of an error.
    var replacesLoneSurrogates = false

    init(bytes: [UInt8], maximumDepth: Int = JSONParser.maximumDepth) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses one value surrounded by optional whitespace and nothing else.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("expected end of input") }
        return value
    }

    /// Parses the value starting at the current byte.
    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw failure("expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseText())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            index = try JSONParser.scanNumber(bytes, from: start)
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        default:
            throw failure("expected a value")
        }
    }

    /// Parses `true`, `false` or `null`.
    mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        guard bytes.count - index >= count, bytes[index..<index + count].elementsEqual(expected) else {
            throw failure("expected a value")
        }
        index += count
        return value
    }

    /// Parses an object; a repeated key replaces the earlier value in place.
    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        var members: [JSONMember] = []
        guard try enter(closing: UInt8(ascii: "}")) else { return .object(members) }
        // Keys are compared as bytes: Swift's String equality would merge canonically equivalent
        // keys that JSON treats as different. Small objects (most of them) are searched linearly;
        // the index is built once an object grows past `linearKeyLimit` members.
        var positions: [[UInt8]: Int] = [:]
        repeat {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a string key")
            }
            let key = try parseText()
            try skipColon()
            let value = try parseValue()
            if let position = JSONCursor.position(of: key, in: members, index: &positions) {
                members[position].value = value
            } else {
                if !positions.isEmpty { positions[Array(key.utf8)] = members.count }
                members.append(JSONMember(key: key, value: value))
            }
        } while try next(closing: UInt8(ascii: "}"))
        return .object(members)
    }

    /// Members up to which an object's keys are searched linearly instead of through a dictionary.
    static let linearKeyLimit = 16

    /// The position of the member named `key` (compared as bytes), building `index` for large
    /// objects.
    static func position(of key: String, in members: [JSONMember], index: inout [[UInt8]: Int]) -> Int? {
        if members.count <= linearKeyLimit {
            return members.firstIndex { $0.key.utf8.elementsEqual(key.utf8) }
        }
        if index.count != members.count {
            index = [:]
            for (position, member) in members.enumerated() { index[Array(member.key.utf8)] = position }
        }
        return index[Array(key.utf8)]
    }

    /// Parses an array.
    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        var elements: [JSONValue] = []
        guard try enter(closing: UInt8(ascii: "]")) else { return .array(elements) }
        repeat {
            elements.append(try parseValue())
        } while try next(closing: UInt8(ascii: "]"))
        return .array(elements)
    }

    /// Enters the object or array at the cursor, up to its first member or element; false when it
    /// is empty, and then already left.
    mutating func enter(closing: UInt8) throws(JSONParseError) -> Bool {
        try enterContainer()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// Moves past what follows a member or an element: to the next one (true), or out of the
    /// container at its closing bracket (false).
    mutating func next(closing: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
            return true
        }
        guard index < bytes.count, bytes[index] == closing else {
            throw failure(closing == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'")
        }
        index += 1
        depth -= 1
        return false
    }

    /// Moves past the `:` after a member's key, up to its value.
    mutating func skipColon() throws(JSONParseError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
        index += 1
        skipWhitespace()
    }

    /// Counts one more level of nesting and refuses to go past the limit.
    mutating func enterContainer() throws(JSONParseError) {
        guard depth < maximumDepth else {
            throw JSONParseError(
                offset: index, reason: "nesting deeper than \(maximumDepth) levels", depthLimit: maximumDepth)
        }
        depth += 1
    }

    /// Parses a string literal as text: one of printable ASCII without escapes (most keys and
    /// many values) straight from the input, others through `parseString`.
    mutating func parseText() throws(JSONParseError) -> String {
        let start = index + 1
        let end = plainRunEnd(from: start)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            return String(decoding: try parseString(), as: UTF8.self)
        }
        index = end + 1
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Where the run of printable ASCII without quote or backslash that starts at `start` ends.
    func plainRunEnd(from start: Int) -> Int {
        var end = start
        while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\""),
            bytes[end] != UInt8(ascii: "\\")
        {
            end += 1
        }
        return end
    }

    /// Parses a string literal and returns its decoded UTF-8 bytes (already validated).
    mutating func parseString() throws(JSONParseError) -> [UInt8] {
        index += 1
        // Fast path: a run of printable ASCII up to the closing quote is copied in one go.
        let start = index
        index = plainRunEnd(from: start)
        var result = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return result
            case UInt8(ascii: "\\"):
                try parseEscape(into: &result)
            case 0..<0x20:
                throw failure("control character in string")
            case 0x20..<0x80:
                result.append(byte)
                index += 1
            default:
                let length = try utf8SequenceLength()
                result.append(contentsOf: bytes[index..<index + length])
                index += length
            }
        }
    }

    /// Decodes the escape sequence at the current backslash, joining UTF-16 surrogate pairs.
    mutating func parseEscape(into result: inout [UInt8]) throws(JSONParseError) {
        let start = index
        guard index + 1 < bytes.count else { throw failure("unterminated string", at: bytes.count) }
        let simple: UInt8?
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw failure("invalid escape")
        }
        if let simple {
            result.append(simple)
            index += 2
            return
        }
        let high = try hexQuad(at: index + 2, escapeStart: start)
        index += 6
        var scalarValue = UInt32(high)
        func loneSurrogate() throws(JSONParseError) {
            guard replacesLoneSurrogates else { throw failure("unpaired surrogate", at: start) }
            result.append(contentsOf: [0xEF, 0xBF, 0xBD])
        }
        if (0xDC00...0xDFFF).contains(high) { return try loneSurrogate() }
        if (0xD800...0xDBFF).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return try loneSurrogate() }
            let low = try hexQuad(at: index + 2, escapeStart: index)
            // A high surrogate followed by an escape that is not a low one: the high one is lone,
            // and the next escape is read on its own.
            guard (0xDC00...0xDFFF).contains(low) else { return try loneSurrogate() }
            index += 6
            scalarValue = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw failure("unpaired surrogate", at: start) }
        result.append(contentsOf: String(Character(scalar)).utf8)
    }

    /// Reads the four hex digits of a `\u` escape.
    func hexQuad(at position: Int, escapeStart: Int) throws(JSONParseError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw failure("invalid unicode escape", at: escapeStart) }
        var value: UInt16 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid unicode escape", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at the current byte (Unicode table 3-7).
    func utf8SequenceLength() throws(JSONParseError) -> Int {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: throw failure("invalid utf-8")
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else {
            throw failure("invalid utf-8")
        }
        for position in index + 2..<index + length where !(0x80...0xBF).contains(bytes[position]) {
            throw failure("invalid utf-8")
        }
        return length
    }

    /// Skips JSON whitespace: space, tab, line feed and carriage return.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// An error at `offset`, by default the current position.
    func failure(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? index, reason: reason)
    }
}
