import Glibc

/// Converts a text body from its declared charset (`Content-Type: text/plain; charset=GBK`) to
/// UTF-8 for display on a terminal, chunk by chunk with glibc's iconv (no ICU).
///
/// A multi-byte character split between chunks is carried over to the next one. Bytes that are
/// not valid in the charset become U+FFFD, so nothing stops the output.
package final class CharsetConverter {
    private let descriptor: iconv_t
    private var carry: [UInt8] = []
    /// The charset converted from, as named by the server.
    package let charset: String

    /// A converter from `charset` to UTF-8; nil when iconv does not know the charset, or when it
    /// is UTF-8 (or ASCII) already and nothing needs converting.
    package init?(charset: String) {
        let name = charset.lowercased()
        guard !["utf-8", "utf8", "us-ascii", "ascii"].contains(name) else { return nil }
        guard let descriptor = iconv_open("UTF-8", charset), descriptor != iconv_t(bitPattern: -1) else { return nil }
        self.descriptor = descriptor
        self.charset = charset
    }

    deinit {
        iconv_close(descriptor)
    }

    /// Converts the next chunk; `final` flushes a trailing incomplete character as U+FFFD.
    package func convert(_ chunk: UnsafeRawBufferPointer, final: Bool = false) -> [UInt8] {
        var input = carry
        input.append(contentsOf: chunk)
        carry = []
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        var produced = 0
        var consumedCount = 0
        input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                guard let inputBase = inputBuffer.baseAddress, let outputBase = outputBuffer.baseAddress else { return }
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inputBase)
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = inputBuffer.count
                while inLeft > 0 {
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outputBase + produced)
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = outputBuffer.count - produced
                    let before = outLeft
                    let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    produced += before - outLeft
                    if result != -1 { break }
                    if errno == EINVAL, !final { break }  // an incomplete character: keep it for later
                    if errno == E2BIG { break }  // cannot happen: 4 output bytes per input byte suffice
                    // An invalid (or, at the end, incomplete) sequence: replace one byte and go on.
                    guard produced + 3 <= outputBuffer.count else { break }
                    outputBase[produced] = 0xEF
                    outputBase[produced + 1] = 0xBF
                    outputBase[produced + 2] = 0xBD
                    produced += 3
                    inPointer = inPointer.map { $0 + 1 }
                    inLeft -= 1
                }
                consumedCount = inputBuffer.count - inLeft
            }
        }
        if consumedCount < input.count { carry = Array(input[consumedCount...]) }
        return Array(output[0..<produced])
    }
}
