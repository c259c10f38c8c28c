/// Writes a `JSONValue` as an XML property list 1.0, byte for byte as Apple's
/// `CFPropertyListCreateXMLData` does for AF's `AFPropertyListRequestSerializer`.
///
/// The layout follows CoreFoundation's `_CFAppendXML0`: one element per line, a tab per nesting
/// level, dictionary keys sorted with `CFStringCompare` (UTF-16 code unit order here), empty
/// containers as `<dict/>` and `<array/>`, and only `&`, `<` and `>` escaped in text.
package enum PropertyListWriter {
    /// The XML declaration, DOCTYPE and opening `plist` element every document starts with.
    private static let header =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
        + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        + "<plist version=\"1.0\">\n"

    /// The XML property list bytes of `value`; throws for a null, which plists cannot hold.
    package static func encode(_ value: JSONValue) throws(SerializationError) -> [UInt8] {
        var output = Array(header.utf8)
        try write(value, indentation: 0, keyPath: "", into: &output)
        output.append(contentsOf: "</plist>\n".utf8)
        return output
    }

    /// Appends one element at `indentation` tabs; `keyPath` names it for the null error.
    private static func write(
        _ value: JSONValue, indentation: Int, keyPath: String, into output: inout [UInt8]
    ) throws(SerializationError) {
        output.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: indentation))
        switch value {
        case .null:
            throw .propertyListNull(keyPath: keyPath)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "<true/>\n" : "<false/>\n").utf8)
        case .number(let literal):
            guard JSONParser.isValidNumber(literal) else { throw .invalidJSONNumber(literal) }
            let tag = isInteger(literal) ? "integer" : "real"
            output.append(contentsOf: "<\(tag)>\(literal)</\(tag)>\n".utf8)
        case .string(let text):
            output.append(contentsOf: "<string>".utf8)
            appendEscaped(text, into: &output)
            output.append(contentsOf: "</string>\n".utf8)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "<array/>\n".utf8)
                return
            }
            output.append(contentsOf: "<array>\n".utf8)
            for (position, element) in elements.enumerated() {
                try write(element, indentation: indentation + 1, keyPath: "\(keyPath)[\(position)]", into: &output)
            }
            appendClosing("array", indentation: indentation, into: &output)
        case .object(let members):
            guard !members.isEmpty else {
                output.append(contentsOf: "<dict/>\n".utf8)
                return
            }
            output.append(contentsOf: "<dict>\n".utf8)
            for member in members.sorted(by: { QueryStringSerializer.precedesByCodeUnit($0.key, $1.key) }) {
                output.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: indentation + 1))
                output.append(contentsOf: "<key>".utf8)
                appendEscaped(member.key, into: &output)
                output.append(contentsOf: "</key>\n".utf8)
                let path = keyPath.isEmpty ? member.key : "\(keyPath).\(member.key)"
                try write(member.value, indentation: indentation + 1, keyPath: path, into: &output)
            }
            appendClosing("dict", indentation: indentation, into: &output)
        }
    }

    /// Appends `</tag>` on its own line at `indentation` tabs.
    private static func appendClosing(_ tag: String, indentation: Int, into output: inout [UInt8]) {
        output.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: indentation))
        output.append(contentsOf: "</\(tag)>\n".utf8)
    }

    /// Appends text with `&`, `<` and `>` as entities, as CoreFoundation's `_appendEscapedString`.
    static func appendEscaped(_ text: String, into output: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            default: output.append(byte)
            }
        }
    }

    /// Whether a valid JSON number literal has neither fraction nor exponent, making it an
    /// `<integer>`; everything else is a `<real>` (CFNumber's float types), written as typed.
    private static func isInteger(_ literal: String) -> Bool {
        !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}
