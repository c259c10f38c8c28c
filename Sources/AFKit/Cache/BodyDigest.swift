import CDigestShim

/// SHA-256 of a body as it streams: libcrypto's when it can be used (several times faster on
/// bodies of gigabytes), else AFKit's own `SHA256`. The same digest either way.
final class BodyDigest {
    private var fast: OpaquePointer?
    private var portable: SHA256?

    init() {
        fast = afd_sha256_new()
        if fast == nil { portable = SHA256() }
    }

    deinit { afd_sha256_free(fast) }

    /// Adds bytes.
    func update(_ bytes: UnsafeRawBufferPointer) {
        if let fast, !bytes.isEmpty {
            if afd_sha256_update(fast, bytes.baseAddress, bytes.count) == 0 { return }
            // libcrypto failed midway: nothing sensible can follow; the digest will not match.
            afd_sha256_free(fast)
            self.fast = nil
            portable = SHA256()
            failed = true
        }
        portable?.update(bytes)
    }

    /// Whether the digest could not be computed (the body must then not be stored).
    private(set) var failed = false

    /// The digest in lower-case hex.
    func finalize() -> String {
        if let fast {
            var digest = [UInt8](repeating: 0, count: 32)
            if afd_sha256_final(fast, &digest) == 0 { return SHA256.hex(digest) }
            failed = true
            return ""
        }
        return SHA256.hex(portable?.finalize() ?? [])
    }
}
