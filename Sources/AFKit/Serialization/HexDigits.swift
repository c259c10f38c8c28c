/// Hexadecimal digits, for percent-encoding (URLs, RFC 5987 file names) and SHA-256 digests.
package enum HexDigits {
    /// The value of an ASCII hex digit of either case, or nil.
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `0-9A-F` (RFC 3986 §2.1 recommends upper case for percent-encoding).
    package static let upper: [UInt8] = Array("0123456789ABCDEF".utf8)
    /// `0-9a-f`, the spelling `sha256sum` prints.
    package static let lower: [UInt8] = Array("0123456789abcdef".utf8)
}
