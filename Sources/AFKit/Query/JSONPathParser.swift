extension JSONPathQuery {
    /// Parses `text` as an RFC 9535 query; an invalid query throws the position and what is wrong.
    package init(parsing text: String, limits: JSONPathLimits = .standard) throws(JSONPathError) {
        var parser = JSONPathParser(text: text, limits: limits)
        self.text = text
        segments = try parser.parseQuery()
        singularPath = Self.singularPath(of: segments)
    }

    /// Parses the query `text` starts with, up to where the grammar ends (no segment follows),
    /// and returns it with the index just after it: for a query written inside a longer line
    /// (`?? jsonpath $.items[?@.age > 18].name exists`), where white space inside the query does
    /// not end it. What follows the query must be white space or nothing.
    package static func prefix(
        of text: Substring, limits: JSONPathLimits = .standard
    ) throws(JSONPathError) -> (query: JSONPathQuery, end: String.Index) {
        var parser = JSONPathParser(text: String(text), limits: limits)
        let segments = try parser.parseQueryPrefix()
        let end = text.unicodeScalars.index(text.startIndex, offsetBy: parser.index)
        let written = String(text[..<end])
        return (JSONPathQuery(text: written, segments: segments, singularPath: singularPath(of: segments)), end)
    }
}

/// A recursive-descent parser over the query's Unicode scalars, one method per grammar rule of
/// RFC 9535 (the filter rules are in JSONPathParser+Filter.swift).
struct JSONPathParser {
    let scalars: [Unicode.Scalar]
    let limits: JSONPathLimits
    var index = 0
    /// The current nesting of filters, parentheses, negations and calls.
    var depth = 0

    init(text: String, limits: JSONPathLimits) {
        scalars = Array(text.unicodeScalars)
        self.limits = limits
    }

    /// `jsonpath-query = root-identifier segments`, and nothing after it.
    mutating func parseQuery() throws(JSONPathError) -> [JSONPathSegment] {
        guard scalars.count <= limits.maximumQueryLength else {
            throw JSONPathError(position: limits.maximumQueryLength, reason: "query longer than \(limits.maximumQueryLength) characters")
        }
        guard peek == "$" else { throw failure("expected '$' at the start of the query") }
        index += 1
        let segments = try parseSegments()
        guard index == scalars.count else {
            throw failure(peek.map { isBlank($0) ? "unexpected white space" : "unexpected '\($0)'" } ?? "unexpected end")
        }
        return segments
    }

    /// `jsonpath-query` at the start of the text, which may go on after it with white space.
    mutating func parseQueryPrefix() throws(JSONPathError) -> [JSONPathSegment] {
        guard peek == "$" else { throw failure("expected '$' at the start of the query") }
        index += 1
        let segments = try parseSegments()
        if let next = peek, !isBlank(next) { throw failure("unexpected '\(next)'") }
        guard index <= limits.maximumQueryLength else {
            throw JSONPathError(position: limits.maximumQueryLength, reason: "query longer than \(limits.maximumQueryLength) characters")
        }
        return segments
    }

    /// `segments = *(S segment)`: stops (before any white space) where no segment follows.
    mutating func parseSegments() throws(JSONPathError) -> [JSONPathSegment] {
        var segments: [JSONPathSegment] = []
        while true {
            let start = index
            skipBlanks()
            guard let next = peek, next == "." || next == "[" else {
                index = start
                return segments
            }
            segments.append(try parseSegment())
        }
    }

    /// One child or descendant segment.
    mutating func parseSegment() throws(JSONPathError) -> JSONPathSegment {
        if peek == "[" {
            return JSONPathSegment(isDescendant: false, selectors: try parseBracketedSelection())
        }
        index += 1  // "."
        if peek == "." {
            index += 1
            if peek == "[" {
                return JSONPathSegment(isDescendant: true, selectors: try parseBracketedSelection())
            }
            return JSONPathSegment(isDescendant: true, selectors: [try parseShorthand()])
        }
        return JSONPathSegment(isDescendant: false, selectors: [try parseShorthand()])
    }

    /// `*` or a member-name-shorthand after `.` or `..`.
    mutating func parseShorthand() throws(JSONPathError) -> JSONPathSelector {
        if peek == "*" {
            index += 1
            return .wildcard
        }
        guard let first = peek, isNameFirst(first) else {
            throw failure("expected a member name or '*'")
        }
        var name = String.UnicodeScalarView()
        while let scalar = peek, isNameFirst(scalar) || ("0"..."9").contains(scalar) {
            name.append(scalar)
            index += 1
        }
        return .name(String(name))
    }

    /// `"[" S selector *(S "," S selector) S "]"`.
    mutating func parseBracketedSelection() throws(JSONPathError) -> [JSONPathSelector] {
        index += 1
        var selectors: [JSONPathSelector] = []
        while true {
            skipBlanks()
            selectors.append(try parseSelector())
            skipBlanks()
            switch peek {
            case ",": index += 1
            case "]":
                index += 1
                return selectors
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    /// A name, wildcard, index, slice or filter selector.
    mutating func parseSelector() throws(JSONPathError) -> JSONPathSelector {
        switch peek {
        case "\"", "'":
            return .name(try parseStringLiteral())
        case "*":
            index += 1
            return .wildcard
        case "?":
            index += 1
            skipBlanks()
            return .filter(try nested { (parser: inout JSONPathParser) throws(JSONPathError) in try parser.parseLogicalOr() })
        case ":":
            return try parseSlice(start: nil)
        case let scalar? where scalar == "-" || ("0"..."9").contains(scalar):
            let number = try parseInteger()
            let afterNumber = index
            skipBlanks()
            if peek == ":" { return try parseSlice(start: number) }
            index = afterNumber
            return .index(number)
        default:
            throw failure("expected a selector")
        }
    }

    /// The rest of `[start S] ":" S [end S] [":" [S step]]` after `start`.
    mutating func parseSlice(start: Int?) throws(JSONPathError) -> JSONPathSelector {
        index += 1  // ":"
        skipBlanks()
        var end: Int?
        var step: Int?
        if let scalar = peek, scalar == "-" || ("0"..."9").contains(scalar) {
            end = try parseInteger()
            skipBlanks()
        }
        if peek == ":" {
            index += 1
            skipBlanks()
            if let scalar = peek, scalar == "-" || ("0"..."9").contains(scalar) { step = try parseInteger() }
        }
        return .slice(start: start, end: end, step: step)
    }

    /// `int = "0" / (["-"] DIGIT1 *DIGIT)` within I-JSON's exact range (±(2^53 − 1)).
    mutating func parseInteger() throws(JSONPathError) -> Int {
        let start = index
        var negative = false
        if peek == "-" {
            negative = true
            index += 1
        }
        guard let first = peek, ("0"..."9").contains(first) else { throw failure("expected a digit") }
        if first == "0" {
            index += 1
            if negative { throw failure("-0 is not an integer here", at: start) }
            if let next = peek, ("0"..."9").contains(next) { throw failure("leading zeros are not allowed", at: start) }
            return 0
        }
        var value = 0
        while let digit = peek, ("0"..."9").contains(digit) {
            value = value * 10 + Int(digit.value - 48)
            index += 1
            if value > JSONPathParser.maximumExactInteger {
                throw failure("integer out of range (at most 2^53 - 1 in size)", at: start)
            }
        }
        return negative ? -value : value
    }

    /// The largest integer an index or slice may use (I-JSON, RFC 7493).
    static let maximumExactInteger = 9_007_199_254_740_991

    /// A single- or double-quoted string literal with its escapes decoded.
    mutating func parseStringLiteral() throws(JSONPathError) -> String {
        let quote = scalars[index]
        index += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw failure("unterminated string") }
            index += 1
            if scalar == quote { return String(result) }
            if scalar.value < 0x20 { throw failure("control character in string", at: index - 1) }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard let escaped = peek else { throw failure("unterminated string") }
            index += 1
            switch escaped {
            case "b": result.append("\u{08}")
            case "f": result.append("\u{0C}")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "/", "\\": result.append(escaped)
            case "u": result.append(try parseUnicodeEscape())
            case _ where escaped == quote: result.append(escaped)
            default: throw failure("invalid escape", at: index - 2)
            }
        }
    }

    /// The scalar of `\uXXXX` (after the `u`), joining a surrogate pair.
    mutating func parseUnicodeEscape() throws(JSONPathError) -> Unicode.Scalar {
        let start = index - 2
        let high = try hexQuad()
        if (0xDC00...0xDFFF).contains(high) { throw failure("lone low surrogate", at: start) }
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high)! }
        guard peek == "\\", index + 1 < scalars.count, scalars[index + 1] == "u" else {
            throw failure("lone high surrogate", at: start)
        }
        index += 2
        let low = try hexQuad()
        guard (0xDC00...0xDFFF).contains(low) else { throw failure("lone high surrogate", at: start) }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }

    /// Four hex digits.
    mutating func hexQuad() throws(JSONPathError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, let digit = hexValue(scalar) else { throw failure("expected four hex digits") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// The value of a hex digit, either case.
    private func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 48
        case "a"..."f": return scalar.value - 87
        case "A"..."F": return scalar.value - 55
        default: return nil
        }
    }

    /// Runs `body` one nesting level deeper, refusing to pass the query depth limit.
    mutating func nested<T>(_ body: (inout JSONPathParser) throws(JSONPathError) -> T) throws(JSONPathError) -> T {
        guard depth < limits.maximumQueryDepth else {
            throw failure("query nested deeper than \(limits.maximumQueryDepth) levels")
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    /// Whether the text at the current position starts with `word`.
    func looksAt(_ word: String) -> Bool {
        var position = index
        for scalar in word.unicodeScalars {
            guard position < scalars.count, scalars[position] == scalar else { return false }
            position += 1
        }
        return true
    }

    /// `S = *B`: space, tab, line feed, carriage return.
    mutating func skipBlanks() {
        while let scalar = peek, isBlank(scalar) { index += 1 }
    }

    func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    /// `name-first = ALPHA / "_" / %x80-D7FF / %xE000-10FFFF`.
    func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
    }

    /// An error at `position`, by default the current one.
    func failure(_ reason: String, at position: Int? = nil) -> JSONPathError {
        JSONPathError(position: position ?? index, reason: reason)
    }
}
