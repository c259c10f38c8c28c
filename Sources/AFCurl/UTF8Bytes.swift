import Glibc

/// Byte-exact comparison of text, for caches keyed by what goes on the wire: `String ==`
/// compares canonical equivalence, under which "é" precomposed equals "e" with a combining
/// accent, though their bytes differ.
package enum UTF8Bytes {
    /// Whether `lhs` and `rhs` have the same UTF-8 bytes.
    package static func equal(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Native strings (nearly all) are compared in their own buffers, without copies.
        let fast = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return memcmp(leftBase, rightBase, left.count) == 0
            }
        }
        if let fast, let result = fast { return result }
        return lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// Whether `lhs` and `rhs` hold strings with the same UTF-8 bytes, in the same order; the
    /// same array (shared storage) is recognised without looking at its strings.
    package static func equal(_ lhs: [String], _ rhs: [String]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        let shared = lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
        }
        if shared { return true }
        for index in lhs.indices where !equal(lhs[index], rhs[index]) {
            return false
        }
        return true
    }
}
