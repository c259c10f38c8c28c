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
        var words: [String] = []
        var word: [UInt8] = []
        var inWord = false
        var bytes = Array(line.utf8)[...]
        var column = 0
        func finishWord() {
            if inWord { words.append(String(decoding: word, as: UTF8.self)) }
            word.removeAll(keepingCapacity: true)
            inWord = false
        }
        while let byte = bytes.popFirst() {
            column += 1
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                finishWord()
            case UInt8(ascii: "#") where !inWord:
                return words
            case UInt8(ascii: "\\"):
                guard let next = bytes.popFirst() else { throw .trailingBackslash(column: column) }
                column += 1
                word.append(next)
                inWord = true
            case UInt8(ascii: "'"):
                let start = column
                inWord = true
                while true {
                    guard let next = bytes.popFirst() else { throw .unterminatedQuote("'", column: start) }
                    column += 1
                    if next == UInt8(ascii: "'") { break }
                    word.append(next)
                }
            case UInt8(ascii: "\""):
                let start = column
                inWord = true
                while true {
                    guard let next = bytes.popFirst() else { throw .unterminatedQuote("\"", column: start) }
                    column += 1
                    if next == UInt8(ascii: "\"") { break }
                    if next == UInt8(ascii: "\\"), let escaped = bytes.first, escapableInDoubleQuotes.contains(escaped)
                    {
                        bytes.removeFirst()
                        column += 1
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            default:
                word.append(byte)
                inWord = true
            }
        }
        finishWord()
        return words
    }

    /// The characters a backslash escapes inside double quotes (POSIX).
    private static let escapableInDoubleQuotes: Set<UInt8> = [
        UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "$"), UInt8(ascii: "`"),
    ]
}

/// Why a line could not be split into words; `column` counts bytes from 1.
package enum CommandLineSplitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A quote opened at `column` and never closed.
    case unterminatedQuote(Character, column: Int)
    /// A backslash ended the line (lines do not continue).
    case trailingBackslash(column: Int)

    package var description: String {
        switch self {
        case .unterminatedQuote(let quote, let column):
            return "the quote \(quote) at column \(column) is never closed"
        case .trailingBackslash(let column):
            return "a backslash at column \(column) ends the line (a request is one line)"
        }
    }
}
