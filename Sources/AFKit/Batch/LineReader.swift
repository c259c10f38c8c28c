#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a descriptor (standard input, a pipe) line by line, one buffer at a time, so a long
/// stream is never held whole; a line longer than `maximumLineLength` is refused, not grown.
///
/// Lines end at LF; a CR before the LF is dropped; a last line without LF still counts. Lines must
/// be UTF-8. A read interrupted by Ctrl-C stops with `.interrupted`.
package struct LineReader {
    /// The longest line accepted, in bytes (64 KiB).
    package static let defaultMaximumLineLength = 64 << 10

    private let descriptor: Int32
    private let maximumLineLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The number of the line last returned, from 1.
    package private(set) var lineNumber = 0

    package init(descriptor: Int32, maximumLineLength: Int = defaultMaximumLineLength) {
        self.descriptor = descriptor
        self.maximumLineLength = maximumLineLength
    }

    /// The next line without its end, or nil at the end of the input.
    package mutating func next() throws(LineReaderError) -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = try finish(buffer[start..<newline])
                start = newline + 1
                return line
            }
            // One byte more may be the CR dropped before the LF that has not been read yet.
            if buffer.count - start > maximumLineLength + 1 {
                throw .lineTooLong(line: lineNumber + 1, limit: maximumLineLength)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = try finish(buffer[start...])
                start = buffer.count
                return line
            }
            try fill()
        }
    }

    /// Checks and decodes one line, counting it.
    private mutating func finish(_ bytes: ArraySlice<UInt8>) throws(LineReaderError) -> String {
        lineNumber += 1
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        if bytes.count > maximumLineLength { throw .lineTooLong(line: lineNumber, limit: maximumLineLength) }
        guard let text = bytes.withUnsafeBufferPointer(String.init(validatingLine:)) else {
            throw .notUTF8(line: lineNumber)
        }
        return text
    }

    /// Reads the next chunk after the unread bytes, dropping the ones already returned.
    private mutating func fill() throws(LineReaderError) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            if Interruption.isInterrupted { throw .interrupted }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason: SystemError.message(errno))
            }
            if count == 0 { atEnd = true } else { buffer += chunk[0..<count] }
            return
        }
    }
}

/// Why lines could not be read; the line's number is in the case, for the caller to place it
/// (`stdin:3: the line is not UTF-8`).
package enum LineReaderError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    case lineTooLong(line: Int, limit: Int)
    case notUTF8(line: Int)
    case unreadable(reason: String)
    case interrupted

    /// Lines that cannot be read are bad input; Ctrl-C is an interrupt.
    package var failureClass: FailureClass {
        switch self {
        case .interrupted: return .interrupted
        case .lineTooLong, .notUTF8, .unreadable: return .badInput
        }
    }

    package var description: String {
        switch self {
        case .lineTooLong(_, let limit):
            return "the line is longer than \(limit / 1024) KiB, the most a line may be"
        case .notUTF8:
            return "the line is not UTF-8"
        case .unreadable(let reason):
            return "cannot read the requests: \(reason)"
        case .interrupted:
            return "interrupted"
        }
    }
}
