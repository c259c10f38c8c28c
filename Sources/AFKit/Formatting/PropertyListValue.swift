/// A property-list value as read from a binary (`bplist00`) or XML property list, kept close to
/// its source: numbers as their decimal text, dates as ISO 8601 text, data as bytes.
package indirect enum PropertyListValue: Equatable, Sendable {
    /// Keys in document order.
    case dictionary([(key: String, value: PropertyListValue)])
    case array([PropertyListValue])
    case string(String)
    /// Decimal digits with an optional sign.
    case integer(String)
    /// A real number as text (`1.5`, `nan`, `+infinity` in XML).
    case real(String)
    case boolean(Bool)
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    case date(String)
    case data([UInt8])
    /// A keyed-archiver object reference (binary lists only), shown as `{"CF$UID": n}` as Apple does.
    case uid(UInt64)

    package static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.uid(let a), .uid(let b)): return a == b
        default: return false
        }
    }
}

extension PropertyListValue {
    /// Apple's XML property list for the value, without indentation (the XML formatter lays it out).
    package var xmlDocument: [UInt8] {
        var out = Array(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
                + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">").utf8)
        writeXML(into: &out)
        out.append(contentsOf: "</plist>\n".utf8)
        return out
    }

    /// Appends the value's XML elements.
    private func writeXML(into out: inout [UInt8]) {
        func element(_ name: String, _ text: String) {
            out.append(contentsOf: "<\(name)>".utf8)
            PropertyListWriter.appendEscaped(text, into: &out)
            out.append(contentsOf: "</\(name)>".utf8)
        }
        switch self {
        case .dictionary(let members):
            out.append(contentsOf: "<dict>".utf8)
            for member in members {
                element("key", member.key)
                member.value.writeXML(into: &out)
            }
            out.append(contentsOf: "</dict>".utf8)
        case .array(let elements):
            out.append(contentsOf: "<array>".utf8)
            for element in elements { element.writeXML(into: &out) }
            out.append(contentsOf: "</array>".utf8)
        case .string(let text): element("string", text)
        case .integer(let text): element("integer", text)
        case .real(let text): element("real", text)
        case .boolean(let flag): out.append(contentsOf: (flag ? "<true/>" : "<false/>").utf8)
        case .date(let text): element("date", text)
        case .data(let bytes): element("data", Base64.encode(bytes))
        case .uid(let value):
            out.append(contentsOf: "<dict><key>CF$UID</key><integer>\(value)</integer></dict>".utf8)
        }
    }

    /// The value as compact JSON: data as base64 text, dates as ISO 8601 text, reals that JSON
    /// cannot spell (`nan`, `inf`) as text.
    package var json: [UInt8] {
        var out: [UInt8] = []
        writeJSON(into: &out)
        return out
    }

    /// Appends the value as compact JSON.
    private func writeJSON(into out: inout [UInt8]) {
        switch self {
        case .dictionary(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.writeJSON(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let text), .date(let text):
            JSONWriter.writeString(text, into: &out)
        case .integer(let text), .real(let text):
            let literal = text.hasPrefix("+") ? String(text.dropFirst()) : text
            if JSONParser.isValidNumber(literal) {
                out.append(contentsOf: literal.utf8)
            } else {
                JSONWriter.writeString(text, into: &out)
            }
        case .boolean(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .data(let bytes):
            JSONWriter.writeString(Base64.encode(bytes), into: &out)
        case .uid(let value):
            out.append(contentsOf: "{\"CF$UID\":\(value)}".utf8)
        }
    }
}

/// Why a property list could not be read; lower case, for warnings.
package struct PropertyListError: ClassifiedError, Equatable, CustomStringConvertible {
    package var description: String

    /// A property list that cannot be read (a response's, shown as received instead) is a failure.
    package var failureClass: FailureClass { .failure }

    package init(_ description: String) {
        self.description = description
    }
}
