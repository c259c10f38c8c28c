/// SHA-256 (FIPS 180-4), computed incrementally so a download is hashed while it is written.
///
/// Written here because afcli links no crypto library of its own and Foundation is off limits;
/// the block function works on raw pointers so hashing keeps pace with a local network.
package struct SHA256: Sendable {
    /// The size of a digest in bytes.
    package static let digestSize = 32

    /// The hash state H0…H7.
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes of an incomplete block, waiting for more input.
    private var pending: [UInt8] = []
    /// The number of bytes hashed so far.
    package private(set) var byteCount: UInt64 = 0

    /// A hash of nothing yet.
    package init() {
        pending.reserveCapacity(64)
    }

    /// Adds bytes to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress, bytes.count > 0 else { return }
        var count = bytes.count
        byteCount &+= UInt64(count)
        if !pending.isEmpty {
            let take = min(64 - pending.count, count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            base += take
            count -= take
            guard pending.count == 64 else { return }
            do {
                // A copy, so the block is not read through `self` while `compress` mutates it.
                let block = pending
                block.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }
            }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = count / 64
        if whole > 0 {
            compress(base, blocks: whole)
            base += whole * 64
            count -= whole * 64
        }
        if count > 0 {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count))
        }
    }

    /// Adds an array of bytes to the message.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Pads the message and returns the 32-byte digest; the value is spent afterwards.
    package mutating func finalize() -> [UInt8] {
        let bitLength = byteCount &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { compress($0.baseAddress!, blocks: $0.count / 64) }
        pending.removeAll()
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in words {
            digest += [
                UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                UInt8(truncatingIfNeeded: word),
            ]
        }
        return digest
    }

    /// The digest of `bytes` in one call.
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Lower-case hexadecimal, the spelling `sha256sum` prints.
    package static func hex(_ digest: [UInt8]) -> String {
        let digits = HexDigits.lower
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses 64 hexadecimal digits (either case) into a digest; nil for anything else.
    package static func parseHex(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count == digestSize * 2 else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(digestSize)
        var index = 0
        while index < bytes.count {
            guard let high = HexDigits.value(bytes[index]), let low = HexDigits.value(bytes[index + 1]) else {
                return nil
            }
            digest.append(high << 4 | low)
            index += 2
        }
        return digest
    }

    // MARK: - Compression

    /// The round constants K0…K63: the first 32 bits of the fractional parts of the cube roots
    /// of the first 64 primes (FIPS 180-4 §4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Runs the compression function over `blocks` consecutive 64-byte blocks at `base`.
    private mutating func compress(_ base: UnsafeRawPointer, blocks: Int) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        Self.roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for block in 0..<blocks {
                    let bytes = base + block * 64
                    for t in 0..<16 {
                        let b = bytes + t * 4
                        w[t] =
                            UInt32(b.load(as: UInt8.self)) << 24 | UInt32(b.load(fromByteOffset: 1, as: UInt8.self))
                            << 16
                            | UInt32(b.load(fromByteOffset: 2, as: UInt8.self)) << 8
                            | UInt32(b.load(fromByteOffset: 3, as: UInt8.self))
                    }
                    for t in 16..<64 {
                        let x = w[t - 15]
                        let y = w[t - 2]
                        let s0 = x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3)
                        let s1 = y.rotatedRight(17) ^ y.rotatedRight(19) ^ (y >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var a = h0
                    var b = h1
                    var c = h2
                    var d = h3
                    var e = h4
                    var f = h5
                    var g = h6
                    var h = h7
                    for t in 0..<64 {
                        let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                        let choice = (e & f) ^ (~e & g)
                        let temp1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
                        let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let temp2 = s0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ temp1
                        d = c
                        c = b
                        b = a
                        a = temp1 &+ temp2
                    }
                    h0 = h0 &+ a
                    h1 = h1 &+ b
                    h2 = h2 &+ c
                    h3 = h3 &+ d
                    h4 = h4 &+ e
                    h5 = h5 &+ f
                    h6 = h6 &+ g
                    h7 = h7 &+ h
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }
}

extension UInt32 {
    /// The bits rotated right by `count` (0 < count < 32).
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
