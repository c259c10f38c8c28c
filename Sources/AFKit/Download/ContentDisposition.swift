import AFCurl

/// The file name a `Content-Disposition` header suggests (RFC 6266), before any sanitising.
///
/// `filename*` (an RFC 8187 / 5987 extended value such as `UTF-8''na%C3%AFve.txt`) wins over
/// `filename`, as RFC 6266 §4.3 asks and browsers do; an extended value in a charset afcli does
/// not know (neither UTF-8 nor ISO-8859-1) or with bad percent-encoding falls back to `filename`.
package enum ContentDisposition {
    /// The suggested file name, or nil when the header has none usable.
    package static func filename(from header: String) -> String? {
        let parameters = parse(header)
        if let extended = parameters.last(where: { $0.name == "filename*" }),
            let decoded = decodeExtendedValue(extended.value)
        {
            return decoded
        }
        return parameters.last(where: { $0.name == "filename" })?.value
    }

    /// The `name=value` parameters after the disposition type, names lower-cased, quoted strings
    /// unquoted; malformed pieces are skipped rather than failing the whole header.
    package static func parse(_ header: String) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        var scalars = Substring(header).unicodeScalars[...]
        // The disposition type (`attachment`, `inline`) comes first and carries no parameter.
        skip(until: ";", in: &scalars)
        while !scalars.isEmpty {
            scalars = scalars.dropFirst()  // the ";"
            skipWhitespace(&scalars)
            var name = ""
            while let scalar = scalars.first, scalar != "=", scalar != ";" {
                name.unicodeScalars.append(scalar)
                scalars = scalars.dropFirst()
            }
            guard scalars.first == "=" else { continue }
            scalars = scalars.dropFirst()
            skipWhitespace(&scalars)
            let value: String
            if scalars.first == "\"" {
                value = quotedString(&scalars)
                skip(until: ";", in: &scalars)
            } else {
                var token = ""
                while let scalar = scalars.first, scalar != ";" {
                    token.unicodeScalars.append(scalar)
                    scalars = scalars.dropFirst()
                }
                value = trimmingWhitespace(token)
            }
            parameters.append((ASCIICase.lowercased(trimmingWhitespace(name)), value))
        }
        return parameters
    }

    /// Decodes `charset'language'pct-encoded` (RFC 8187 §3.2.1); nil for an unknown charset or
    /// bytes that are not valid in it.
    package static func decodeExtendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        let charset = ASCIICase.lowercased(String(pieces[0]))
        guard let bytes = URLPercentEncoding.decodedBytes(pieces[2], strict: true) else { return nil }
        switch charset {
        case "utf-8":
            return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1", "latin1", "us-ascii":
            var text = ""
            for byte in bytes { text.unicodeScalars.append(Unicode.Scalar(byte)) }
            return text
        default:
            return nil
        }
    }

    /// Reads a quoted string starting at its opening quote, undoing backslash escapes; an
    /// unterminated string runs to the end of the header.
    private static func quotedString(_ scalars: inout Substring.UnicodeScalarView.SubSequence) -> String {
        scalars = scalars.dropFirst()
        var text = ""
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if scalar == "\"" { break }
            if scalar == "\\", let escaped = scalars.first {
                text.unicodeScalars.append(escaped)
                scalars = scalars.dropFirst()
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// Advances to the next `stop` outside quotes (or to the end).
    private static func skip(until stop: Unicode.Scalar, in scalars: inout Substring.UnicodeScalarView.SubSequence) {
        var quoted = false
        while let scalar = scalars.first {
            if scalar == "\"" { quoted.toggle() }
            if scalar == stop && !quoted { return }
            if scalar == "\\" && quoted { scalars = scalars.dropFirst() }
            scalars = scalars.dropFirst()
        }
    }

    /// Drops spaces and tabs.
    private static func skipWhitespace(_ scalars: inout Substring.UnicodeScalarView.SubSequence) {
        while let scalar = scalars.first, scalar == " " || scalar == "\t" { scalars = scalars.dropFirst() }
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmingWhitespace(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(Substring(scalars))
    }
}
