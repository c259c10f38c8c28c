/// HMAC-SHA256 (RFC 2104) over AFKit's own SHA-256: the key derivation and signature of AWS
/// Signature Version 4 hash a few short strings, so no library is loaded for it.
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    package static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        // Keys longer than a block are hashed first; shorter ones are padded with zeros.
        var block = key.count > 64 ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5C })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// The code of a UTF-8 string.
    package static func authenticate(_ message: String, key: [UInt8]) -> [UInt8] {
        authenticate(Array(message.utf8), key: key)
    }
}
