import AFCurl

/// The SHA-256 of a request's body as it will be sent (after encryption and compression), for a
/// signature over it (`--aws-sigv4`) or a command that signs it (`--auth-cmd`).
///
/// A body built in memory is hashed as it is. A streamed body (a file, multipart with files, a
/// compressed stream) is read once, chunk by chunk through `BodyDigest`, and rewound, so memory
/// stays flat whatever its size; libcurl then reads it again from the start as it sends it.
package enum PayloadDigest {
    /// The SHA-256 of an empty body: what a request without a body signs.
    package static let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The lower-case hexadecimal SHA-256 of `request`'s body; `option` names who needs it, for
    /// the error when the body cannot be read twice.
    package static func sha256(of request: PreparedRequest, for option: String) throws -> String {
        if let bytes = request.bodyBytes { return SHA256.hex(SHA256.hash(bytes)) }
        guard let body = request.body else { return empty }
        let digest = BodyDigest()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try body.read(into: $0) }
            if count == 0 { break }
            chunk.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        do {
            try body.rewind()
        } catch {
            // Only standard input beyond its first chunk cannot start again.
            throw AuthStageError.bodyNotReplayable(option: option)
        }
        return digest.finalize()
    }
}
