/// One `KEY<separator>VALUE` argument, typed by its separator (HTTPie's request-item grammar).
///
/// The separator table is HTTPie's: at each position of the argument the longest separator that
/// matches wins, and the earliest position with any match decides (`a=b:=c` is the field `a` with
/// the value `b:=c`; `a:=1` is JSON because `:=` is longer than `:`). A backslash before a
/// separator character makes it part of the key.
package struct RequestItem: Equatable, Sendable {
    /// The argument exactly as typed, for error messages.
    package var original: String
    /// The key with escapes removed.
    package var key: String
    /// The key as typed (escapes kept), for nested-key parsing where `\[` matters.
    package var rawKey: String
    /// The value as typed after the separator (escapes removed).
    package var value: String
    /// What the separator makes of the item.
    package var kind: Kind

    /// The kinds of request item, one per separator.
    package enum Kind: String, Equatable, Sendable, CaseIterable {
        /// `Name:value`, and `Name:` which unsets the header.
        case header = ":"
        /// `Name;`: the header with an empty value.
        case emptyHeader = ";"
        /// `Name:@file`: header value read from a file.
        case headerFromFile = ":@"
        /// `name==value`.
        case query = "=="
        /// `name==@file`: query value read from a file.
        case queryFromFile = "==@"
        /// `field=value`: a string data field.
        case dataString = "="
        /// `field:=json`: a raw JSON data field.
        case dataJSON = ":="
        /// `field=@file`: a string data field read from a file.
        case dataStringFromFile = "=@"
        /// `field:=@file`: a JSON data field read from a file.
        case dataJSONFromFile = ":=@"
        /// `field@file` (form file), or `@file` with no field: the raw request body.
        case file = "@"
    }

    /// Separators longest first, so a tie at one position goes to the longest.
    static let separatorsLongestFirst: [Kind] = Kind.allCases.sorted {
        $0.rawValue.utf8.count > $1.rawValue.utf8.count
    }

    /// Characters that can start a separator and so can be escaped with a backslash.
    static let separatorCharacters: Set<Character> = [":", "=", "@", ";"]

    /// Parses one argument; returns nil when it contains no unescaped separator.
    package static func parse(_ argument: String) -> RequestItem? {
        // Among ASCII bytes every separator and backslash is a whole Character (only `\r\n` is a
        // Character of two bytes, and neither is special), so bytes give the same cuts as
        // Characters without grapheme breaking.
        let isASCII = argument.utf8.withContiguousStorageIfAvailable { !$0.contains { $0 >= 0x80 } } ?? false
        if isASCII { return parseASCII(argument) }
        return parseCharacters(argument)
    }

    /// `parse` on Characters, for any argument.
    static func parseCharacters(_ argument: String) -> RequestItem? {
        let chars = Array(argument)
        var key = ""
        var rawKey = ""
        var index = 0
        while index < chars.count {
            let char = chars[index]
            if char == "\\", index + 1 < chars.count,
                separatorCharacters.contains(chars[index + 1]) || chars[index + 1] == "\\"
            {
                key.append(chars[index + 1])
                rawKey.append(char)
                rawKey.append(chars[index + 1])
                index += 2
                continue
            }
            // Only a separator character can start a separator: most characters skip the table.
            if separatorCharacters.contains(char) {
                for kind in separatorsLongestFirst where matches(kind.rawValue, in: chars, at: index) {
                    let valueStart = index + kind.rawValue.count
                    let value = unescape(String(chars[valueStart...]))
                    return RequestItem(original: argument, key: key, rawKey: rawKey, value: value, kind: kind)
                }
            }
            key.append(char)
            rawKey.append(char)
            index += 1
        }
        return nil
    }

    /// `parse` for an ASCII argument, on its bytes. The key as typed is the bytes before the
    /// separator: an escape pair never straddles it, so the key is that text unescaped.
    private static func parseASCII(_ argument: String) -> RequestItem? {
        argument.utf8.withContiguousStorageIfAvailable { bytes -> RequestItem? in
            var escaped = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count,
                    isSeparatorByte(bytes[index + 1]) || bytes[index + 1] == UInt8(ascii: "\\")
                {
                    escaped = true
                    index += 2
                    continue
                }
                if let kind = separator(in: bytes, at: index) {
                    let rawKey = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<index]), as: UTF8.self)
                    let valueStart = index + kind.rawValue.utf8.count
                    let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart...]), as: UTF8.self)
                    return RequestItem(
                        original: argument, key: escaped ? unescape(rawKey) : rawKey, rawKey: rawKey,
                        value: unescape(value), kind: kind)
                }
                index += 1
            }
            return nil
        } ?? parseCharacters(argument)
    }

    /// The longest separator that starts at `bytes[index]`, as `separatorsLongestFirst` finds it.
    private static func separator(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Kind? {
        func byte(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        switch bytes[index] {
        case UInt8(ascii: ":"):
            if byte(1) == UInt8(ascii: "=") { return byte(2) == UInt8(ascii: "@") ? .dataJSONFromFile : .dataJSON }
            return byte(1) == UInt8(ascii: "@") ? .headerFromFile : .header
        case UInt8(ascii: "="):
            if byte(1) == UInt8(ascii: "=") { return byte(2) == UInt8(ascii: "@") ? .queryFromFile : .query }
            return byte(1) == UInt8(ascii: "@") ? .dataStringFromFile : .dataString
        case UInt8(ascii: ";"):
            return .emptyHeader
        case UInt8(ascii: "@"):
            return .file
        default:
            return nil
        }
    }

    /// Whether `byte` is one of `separatorCharacters`.
    private static func isSeparatorByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ":") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "@")
            || byte == UInt8(ascii: ";")
    }

    private static func matches(_ separator: String, in chars: [Character], at index: Int) -> Bool {
        var offset = index
        for char in separator {
            guard offset < chars.count, chars[offset] == char else { return false }
            offset += 1
        }
        return true
    }

    /// Removes backslashes that escape separator characters or backslashes in a value.
    static func unescape(_ text: String) -> String {
        // Without a backslash byte there is no backslash Character: nothing to remove.
        guard text.containsUTF8Byte(UInt8(ascii: "\\")) else { return text }
        var result = ""
        var escaping = false
        for char in text {
            if escaping {
                if !(separatorCharacters.contains(char) || char == "\\") { result.append("\\") }
                result.append(char)
                escaping = false
            } else if char == "\\" {
                escaping = true
            } else {
                result.append(char)
            }
        }
        if escaping { result.append("\\") }
        return result
    }
}
