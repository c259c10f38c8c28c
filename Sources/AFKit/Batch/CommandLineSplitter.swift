/// Splits one line into words the way a POSIX shell does, without any expansion: the line format
/// of `afcli run -` (`post :8080/users name='Ann Lee' X-Tag:"a b"`).
///
/// Blanks (space, tab) separate words; `'…'` keeps everything literally; `"…"` keeps everything
/// but lets a backslash escape `"`, `\`, `$` and `` ` `` (before any other character the backslash
/// stays, as in sh); an unquoted backslash keeps the next character literally; an unquoted `#` at
/// the start of a word begins a comment that runs to the end of the line. Nothing is expanded:
/// `$HOME`, `~`, `*` and `{a,b}` are words as written.
package enum CommandLineSplitter {
    /// The words of `line`; empty for a blank line or a comment.
    package static func split(_ line: String) throws(CommandLineSplitError) -> [String] {
        // Most lines quote nothing: their words are the runs between blanks.
        if let plain = line.utf8.withContiguousStorageIfAvailable(plainWords), let plain { return plain }
        let bytes = Array(line.utf8)
        var words: [String] = []
        var word: [UInt8] = []
        // No word is longer than the line: the buffer never grows.
        word.reserveCapacity(bytes.count)
        var inWord = false
        // `index` is the next byte to read; a byte's column is its index plus one.
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                if inWord { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
                inWord = false
            case UInt8(ascii: "#") where !inWord:
                return words
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw .trailingBackslash(column: index) }
                word.append(bytes[index])
                index += 1
                inWord = true
            case UInt8(ascii: "'"):
                let start = index
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "'")) else {
                    throw .unterminatedQuote("'", column: start)
                }
                word += bytes[index..<close]
                index = close + 1
                inWord = true
            case UInt8(ascii: "\""):
                let start = index
                inWord = true
                while true {
                    guard index < bytes.count else { throw .unterminatedQuote("\"", column: start) }
                    let next = bytes[index]
                    index += 1
                    if next == UInt8(ascii: "\"") { break }
                    if next == UInt8(ascii: "\\"), index < bytes.count, escapableInDoubleQuotes.contains(bytes[index]) {
                        word.append(bytes[index])
                        index += 1
                    } else {
                        word.append(next)
                    }
                }
            default:
                word.append(byte)
                inWord = true
            }
        }
        if inWord { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// The words of a line that neither quotes nor escapes nor may hold a comment: the runs of
    /// bytes between blanks. Nil for any other line.
    private static func plainWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var words: [String] = []
        // The start of the word being read, or nil between words.
        var start: Int?
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                if let first = start {
                    words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self))
                    start = nil
                }
            } else if isSpecial(byte) {
                return nil
            } else if start == nil {
                start = index
            }
        }
        if let first = start {
            words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[first...]), as: UTF8.self))
        }
        return words
    }

    /// Whether `byte` quotes, escapes or may begin a comment: a line without any is split on blanks.
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || byte == UInt8(ascii: "#")
    }

    /// The characters a backslash escapes inside double quotes (POSIX).
    private static let escapableInDoubleQuotes: Set<UInt8> = [
        UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "$"), UInt8(ascii: "`"),
    ]
}

/// Why a line could not be split into words; `column` counts bytes from 1.
package enum CommandLineSplitError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// A quote opened at `column` and never closed.
    case unterminatedQuote(Character, column: Int)
    /// A backslash ended the line (lines do not continue).
    case trailingBackslash(column: Int)

    /// A line that cannot be split is bad input.
    package var failureClass: FailureClass { .badInput }

    package var description: String {
        switch self {
        case .unterminatedQuote(let quote, let column):
            return "the quote \(quote) at column \(column) is never closed"
        case .trailingBackslash(let column):
            return "a backslash at column \(column) ends the line (a request is one line)"
        }
    }
}
