/// Writes a `JSONValue` as compact UTF-8 JSON, the way afcli sends JSON bodies.
///
/// AF uses `NSJSONSerialization` without options: no whitespace. Unlike Apple's writer, afcli does
/// not escape `/` (spec §2), writes non-ASCII as raw UTF-8 and keeps number literals as written.
package enum JSONWriter {
    /// The compact JSON bytes of `value`; throws when a number literal is not valid JSON.
    package static func encode(_ value: JSONValue) throws(SerializationError) -> [UInt8] {
        var output: [UInt8] = []
        try write(value, into: &output)
        return output
    }

    /// The compact JSON text of `value`, for messages and tests.
    package static func encodeToString(_ value: JSONValue) throws(SerializationError) -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    /// Appends the compact JSON bytes of `value` to `output`.
    package static func write(_ value: JSONValue, into output: inout [UInt8]) throws(SerializationError) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let literal):
            // AF refuses parameters that are not valid JSON before sending anything.
            guard JSONParser.isValidNumber(literal) else { throw .invalidJSONNumber(literal) }
            output.append(contentsOf: literal.utf8)
        case .string(let text):
            writeString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                try write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                try write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as a JSON string literal: `"` and `\` escaped, control characters as short
    /// escapes or `\u00XX`, everything else (including `/` and non-ASCII) written raw.
    package static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        writeEscaped(text, into: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// Whether `bytes` can stand inside a JSON string as they are: no control character, quote
    /// or backslash.
    package static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Appends `text` escaped as inside a JSON string, without the quotes.
    package static func writeEscaped(_ text: String, into output: inout [UInt8]) {
        // Most text needs no escape: appended in one piece, from the string's own bytes.
        var text = text
        let appended = text.withUTF8 { bytes in
            guard needsNoEscape(bytes) else {
                return false
            }
            output.append(contentsOf: bytes)
            return true
        }
        if appended { return }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
    }

    /// Lower-case hex digits, as JavaScript's `JSON.stringify` and Foundation write `\u001f`.
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
