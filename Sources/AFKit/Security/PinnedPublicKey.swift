/// One pinned public key: the SHA-256 digest of a DER SubjectPublicKeyInfo, written as libcurl
/// and HPKP write it, `sha256//` plus standard base64 (spec/AFNETWORKING.md §6).
package struct PinnedPublicKey: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The prefix of every pin.
    package static let prefix = "sha256//"

    /// The 32 digest bytes.
    package let digest: [UInt8]

    /// A pin for a digest that is already known (from `afcli pin`, or a test).
    package init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        self.digest = digest
    }

    /// Parses `sha256//BASE64`; throws when the prefix, the base64 or the length is wrong.
    package init(parsing text: String) throws(SecurityPolicyError) {
        guard text.hasPrefix(Self.prefix), let bytes = Base64.decode(String(text.dropFirst(Self.prefix.count))),
            bytes.count == 32
        else { throw .malformedPublicKeyPin(text) }
        digest = bytes
    }

    /// Parses one pin or several joined by `;`, as libcurl's CURLOPT_PINNEDPUBLICKEY takes them.
    package static func parseList(_ text: String) throws(SecurityPolicyError) -> [PinnedPublicKey] {
        var pins: [PinnedPublicKey] = []
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            pins.append(try PinnedPublicKey(parsing: String(part)))
        }
        return pins
    }

    /// The `sha256//BASE64` spelling.
    package var description: String {
        Self.prefix + Base64.encode(digest)
    }
}

/// Decoding for `sha256//` pins (the encoder in Base64.swift only serves Basic credentials).
extension Base64 {
    /// The bytes of standard base64 text (RFC 4648 §4), with or without `=` padding; nil for any
    /// character outside the alphabet, misplaced padding or a dangling sixth bit group.
    package static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        while characters.last == UInt8(ascii: "=") { characters.removeLast() }
        guard text.utf8.count - characters.count <= 2, characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var group: UInt32 = 0
        var bits = 0
        for character in characters {
            guard let value = sextet(character) else { return nil }
            group = group << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
                group &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits must be zero, as every encoder writes them (RFC 4648 §3.5).
        guard group == 0 else { return nil }
        return output
    }

    /// The six-bit value of one character of the standard alphabet.
    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
