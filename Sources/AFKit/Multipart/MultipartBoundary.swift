import AFCurl

/// The boundary that separates the parts of a multipart body (spec/AFNETWORKING.md §4).
///
/// AF's `AFCreateMultipartFormBoundary` writes `Boundary+` and two random 32-bit numbers as
/// 8 upper-case hex digits each: 25 characters, a new one per request. afcli draws the 64 bits
/// from the standard library's `SystemRandomNumberGenerator`, which on Linux reads `getrandom(2)`,
/// so two uploads started in the same microsecond still get different boundaries.
package enum MultipartBoundary {
    /// AF's fixed prefix.
    package static let prefix = "Boundary+"

    /// A fresh `Boundary+` + 16 upper-case hex digits.
    package static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(UInt64.random(in: UInt64.min...UInt64.max, using: &generator))
    }

    /// The boundary AF would write for the 64 random bits `bits` (high half first).
    package static func make(_ bits: UInt64) -> String {
        let hex = String(bits, radix: 16, uppercase: true)
        return prefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Why `text` cannot be a boundary, or nil when it can.
    ///
    /// RFC 2046 §5.1.1: 1 to 70 characters from `bchars` (letters, digits and `'()+_,-./:=?` and
    /// space), not ending in a space. Anything else could not be written unquoted in the
    /// Content-Type header or would be misread by servers.
    package static func problem(with text: String) -> String? {
        guard !text.isEmpty else { return "is empty" }
        guard text.utf8.count <= 70 else { return "is longer than 70 characters (RFC 2046)" }
        guard text.utf8.allSatisfy(isBoundaryByte) else {
            return "may only contain letters, digits, space and '()+_,-./:=? (RFC 2046)"
        }
        guard text.utf8.last != UInt8(ascii: " ") else { return "must not end with a space (RFC 2046)" }
        return nil
    }

    /// The boundary named by a `multipart/…; boundary=B` media type, unquoted; nil when there is none.
    package static func parameter(inContentType contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].filter { $0 != " " && $0 != "\t" }
            guard ASCIICase.lowercased(String(name)) == "boundary" else { continue }
            var value = Substring(pair[1])
            while value.first == " " || value.first == "\t" { value = value.dropFirst() }
            while value.last == " " || value.last == "\t" { value = value.dropLast() }
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
            }
            return String(value)
        }
        return nil
    }

    /// Whether `byte` is one of RFC 2046's `bchars`.
    private static func isBoundaryByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "'()+_,-./:=? ".utf8.contains(byte)
        }
    }
}
