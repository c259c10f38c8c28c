/// Standard base64 (RFC 4648 §4: `+` and `/`, `=` padding), for `Authorization: Basic`.
package enum Base64 {
    /// The 64 characters of the standard alphabet, in value order.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The base64 text of `bytes`, padded with `=` to a multiple of four characters.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            appendCharacters(of: group, count: 4, into: &output)
            index += 3
        }
        switch input.count - index {
        case 1:
            appendCharacters(of: UInt32(input[index]) << 16, count: 2, into: &output)
            output.append(contentsOf: "==".utf8)
        case 2:
            appendCharacters(of: UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8, count: 3, into: &output)
            output.append(UInt8(ascii: "="))
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The base64 text of a string's UTF-8 bytes.
    package static func encode(_ text: String) -> String {
        encode(text.utf8)
    }

    /// Appends the first `count` six-bit characters of a 24-bit group.
    private static func appendCharacters(of group: UInt32, count: Int, into output: inout [UInt8]) {
        for position in 0..<count {
            let shift = UInt32(18 - 6 * position)
            output.append(alphabet[Int((group >> shift) & 0x3F)])
        }
    }
}
