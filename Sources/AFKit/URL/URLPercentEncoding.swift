/// Percent-encoding for the parts of a URL the user typed (RFC 3986 §2.1).
///
/// Only what can never stand in a URL is encoded: control characters, space, `"`, `#` (inside a
/// fragment), `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, DEL and every non-ASCII byte (as UTF-8).
/// Existing `%XX` sequences are kept and a lone `%` becomes `%25`. `[` and `]` are kept as typed,
/// as Python requests and curl send them, because servers read `a[]=1` and `a%5B%5D=1` alike.
package enum URLPercentEncoding {
    /// `text` with every byte that cannot appear in a path, query, fragment or user information
    /// written as `%XX` (upper-case hex).
    package static func encodeInvalidCharacters(_ text: some StringProtocol) -> String {
        // Most URLs need nothing encoded: they are returned as they are, without a copy of their bytes.
        if text.utf8.allSatisfy(isAllowed) { return String(text) }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < bytes.count, HexDigits.value(bytes[index + 1]) != nil,
                    HexDigits.value(bytes[index + 2]) != nil
                {
                    output.append(byte)
                } else {
                    appendEscaped(byte, into: &output)
                }
            } else if isAllowed(byte) {
                output.append(byte)
            } else {
                appendEscaped(byte, into: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with every `%XX` decoded; malformed sequences stay as typed and bytes that are not
    /// UTF-8 become U+FFFD.
    package static func decode(_ text: some StringProtocol) -> String {
        String(decoding: decodedBytes(text, strict: false) ?? [], as: UTF8.self)
    }

    /// The bytes of `text` with every `%XX` decoded. A `%` not followed by two hex digits stays
    /// as typed, or, when `strict`, makes the whole value nil.
    package static func decodedBytes(_ text: some StringProtocol, strict: Bool) -> [UInt8]? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                if index + 2 < bytes.count, let high = HexDigits.value(bytes[index + 1]),
                    let low = HexDigits.value(bytes[index + 2])
                {
                    output.append(high << 4 | low)
                    index += 3
                    continue
                }
                if strict { return nil }
            }
            output.append(bytes[index])
            index += 1
        }
        return output
    }

    /// Whether an ASCII byte other than `%` may appear unencoded after the authority: RFC 3986
    /// unreserved, sub-delims, `:`, `@`, `/`, `?`, plus `[` and `]` (see the type's note).
    static func isAllowed(_ byte: UInt8) -> Bool {
        // One bit a byte, tested without branching on the byte: this runs for every byte of a URL.
        byte < 64
            ? allowedBelow64 &>> UInt64(byte) & 1 != 0
            : byte < 128 && allowedFrom64 &>> UInt64(byte &- 64) & 1 != 0
    }

    /// `isAllowed` for bytes 0-63: `0`-`9` and `!$&'()*+,-./:;=?`.
    static let allowedBelow64: UInt64 = 0xAFFF_FFD2_0000_0000
    /// `isAllowed` for bytes 64-127 (bit 0 is `@`): `@`, `A`-`Z`, `[]_`, `a`-`z` and `~`.
    static let allowedFrom64: UInt64 = 0x47FF_FFFE_AFFF_FFFF

    /// Appends `%XX` for `byte`.
    private static func appendEscaped(_ byte: UInt8, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(HexDigits.upper[Int(byte >> 4)])
        output.append(HexDigits.upper[Int(byte & 0x0F)])
    }
}
