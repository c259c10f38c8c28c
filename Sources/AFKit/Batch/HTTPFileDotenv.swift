/// Reads a `.env` file, as the `dotenv` package the VS Code REST Client uses for
/// `{{$dotenv NAME}}` reads it: `NAME=value` lines (`export NAME=value` and `NAME: value` too),
/// `#` comments, values in single, double or back quotes that may span lines (in double quotes
/// `\n` and `\r` are line breaks), an unquoted value ending at `#` and trimmed; a later line of
/// one name wins. Lines that are none of these are skipped, as `dotenv` skips them.
package enum HTTPFileDotenv {
    /// The largest `.env` file read (1 MiB).
    package static let maximumFileSize = 1 << 20

    /// A `.env` file read and parsed when a `{{$dotenv}}` first asks for it, then kept: a file that
    /// uses none never reads it, so a `.env` that is no such file (a Python virtual environment's
    /// directory is often named so) troubles only a file that asks for its values.
    package final class Loader: @unchecked Sendable {
        private let monitor = Monitor()
        private let read: () -> Result<[UInt8]?, HTTPFileError>
        private var loaded: Result<[String: String]?, HTTPFileError>?

        /// `read` gives the file's bytes, nil when there is no file, or why it cannot be read.
        package init(read: @escaping () -> Result<[UInt8]?, HTTPFileError>) {
            self.read = read
        }

        /// Values already known (nil: no file), for tests and callers without a file system.
        package convenience init(values: [String: String]?) {
            self.init(read: { .success(nil) })
            loaded = .success(values)
        }

        /// The file's values, nil when there is none; read on the first call only.
        package func values() -> Result<[String: String]?, HTTPFileError> {
            monitor.locked {
                if let loaded { return loaded }
                let result = read().map { $0.map(HTTPFileDotenv.parse) }
                loaded = result
                return result
            }
        }
    }

    /// The name and value pairs of `bytes` (UTF-8; invalid bytes become U+FFFD).
    package static func parse(_ bytes: [UInt8]) -> [String: String] {
        let text = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var values: [String: String] = [:]
        var index = 0

        func skipBlanks() {
            while index < text.count, text[index] == " " || text[index] == "\t" { index += 1 }
        }
        func skipLine() {
            while index < text.count, text[index] != "\n" { index += 1 }
            index += 1
        }
        func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_.-".unicodeScalars.contains(scalar))
        }

        while index < text.count {
            skipBlanks()
            if text[index...].starts(with: "export ".unicodeScalars)
                || text[index...].starts(with: "export\t".unicodeScalars)
            {
                index += 7
                skipBlanks()
            }
            let nameStart = index
            while index < text.count, isNameCharacter(text[index]) { index += 1 }
            let name = String(String.UnicodeScalarView(text[nameStart..<index]))
            skipBlanks()
            guard !name.isEmpty, index < text.count, text[index] == "=" || text[index] == ":" else {
                skipLine()
                continue
            }
            index += 1
            skipBlanks()
            if index < text.count, let quote = ["'", "\"", "`"].first(where: { $0 == text[index] }),
                let close = closingQuote(quote, in: text, after: index)
            {
                var value = String(String.UnicodeScalarView(text[(index + 1)..<close]))
                if quote == "\"" {
                    value = value.replacing("\\n", with: "\n").replacing("\\r", with: "\r")
                }
                values[name] = value
                index = close + 1
                skipLine()
                continue
            }
            let valueStart = index
            while index < text.count, text[index] != "\n", text[index] != "#" { index += 1 }
            values[name] = String(String.UnicodeScalarView(text[valueStart..<index]))[...].trimmingBlanks()
                .trimmingSuffix("\r")
            skipLine()
        }
        return values
    }

    /// The index of the quote that closes the one at `start` (one after a backslash does not).
    private static func closingQuote(_ quote: Unicode.Scalar, in text: [Unicode.Scalar], after start: Int) -> Int? {
        var index = start + 1
        while index < text.count {
            if text[index] == "\\" {
                index += 2
                continue
            }
            if text[index] == quote { return index }
            index += 1
        }
        return nil
    }
}

extension String {
    /// The text without one trailing `suffix` (a CR left by a CRLF line end).
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)).trimmingCharacters() : self
    }

    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingCharacters() -> String { self[...].trimmingBlanks() }
}
