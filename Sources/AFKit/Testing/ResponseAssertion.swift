/// One check of a response, written in httpyac's `??` syntax: `?? FIELD [ARGUMENT] PREDICATE
/// [EXPECTED]` (`?? status == 200`, `?? header content-type includes json`, `?? body $.items
/// exists`, `?? duration < 200`, `?? xpath /slideshow/@title == Sample Slide Show`).
package struct ResponseAssertion: Equatable, Sendable {
    /// What of the response is checked.
    package enum Field: Equatable, Sendable {
        /// The final status code.
        case status
        /// A response header's value (the first of that name), compared case-insensitively by name.
        case header(String)
        /// The body as text; with a JSONPath (`$.items`, or a bare property path `form`, read as
        /// `$.form`), the value it selects in the JSON body.
        case body(path: String?)
        /// A JSONPath query on the JSON body (`?? jsonpath $.items[0].id == 7`).
        case jsonPath(String)
        /// An XPath query on the XML body: the string value of its first node, or its result.
        case xPath(String)
        /// Milliseconds of a phase of the exchange: total by default.
        case duration(DurationPhase)
    }

    /// httpyac's timing identifiers.
    package enum DurationPhase: String, Equatable, Sendable, CaseIterable {
        case total, firstByte, download, wait, request, tcp, tls
    }

    /// How the field's actual value is compared with the expected one.
    package enum Predicate: String, Equatable, Sendable, CaseIterable {
        case equals = "=="
        case notEquals = "!="
        case greater = ">"
        case greaterOrEqual = ">="
        case less = "<"
        case lessOrEqual = "<="
        case startsWith, endsWith, includes, exists, isTrue, isFalse, isNumber, isBoolean, isString, isArray
        case matches, sha256

        /// The spellings httpyac accepts for each predicate.
        static let spellings: [String: Predicate] = {
            var table: [String: Predicate] = [:]
            for each in allCases { table[each.rawValue] = each }
            table["equals"] = .equals
            table["contains"] = .includes
            return table
        }()

        /// Whether the predicate takes an expected value.
        package var takesValue: Bool {
            switch self {
            case .exists, .isTrue, .isFalse, .isNumber, .isBoolean, .isString, .isArray: return false
            default: return true
            }
        }
    }

    /// The `??` line, from 1.
    package var line: Int
    /// What the line says, worked out once and shared by every copy: test files repeat the same
    /// few checks in request after request, and an assertion is copied into each result.
    private let definition: Definition

    /// An assertion's parts and what is worked out from them once.
    private final class Definition: Sendable {
        let field: Field
        let predicate: Predicate
        let expected: String?
        let text: String
        let query: JSONPathQuery?
        let unquotedExpected: String
        let expectedNumber: Double?

        init(field: Field, predicate: Predicate, expected: String?, text: String) {
            self.field = field
            self.predicate = predicate
            self.expected = expected
            self.text = text
            unquotedExpected = ResponseAssertion.unquoted(expected ?? "")
            expectedNumber = Double(unquotedExpected)
            switch field {
            case .jsonPath(let path): query = try? JSONPathQuery(parsing: path)
            case .body(let path?): query = try? JSONPathQuery(parsing: path.hasPrefix("$") ? path : "$." + path)
            default: query = nil
            }
        }
    }

    package var field: Field { definition.field }
    package var predicate: Predicate { definition.predicate }
    /// The expected value as written (the rest of the line); nil for a predicate without one.
    package var expected: String? { definition.expected }
    /// The assertion as written, after `?? `, for reports.
    package var text: String { definition.text }
    /// The JSONPath of a `jsonpath` or `body PATH` field, parsed once; nil for other fields
    /// (and for a path that does not parse, which the check then reports).
    package var query: JSONPathQuery? { definition.query }
    /// The expected value without the quotes around it (`"text"` or `'text'`), as written
    /// otherwise; "" when there is none. Worked out once: thousands of responses may be checked.
    var unquotedExpected: String { definition.unquotedExpected }
    /// `unquotedExpected` as a number, when it is one.
    var expectedNumber: Double? { definition.expectedNumber }

    package init(field: Field, predicate: Predicate, expected: String?, line: Int, text: String) {
        self.line = line
        definition = Definition(field: field, predicate: predicate, expected: expected, text: text)
    }

    /// Assertions are equal when written alike on the same line (the rest follows from that).
    package static func == (left: ResponseAssertion, right: ResponseAssertion) -> Bool {
        guard left.line == right.line else { return false }
        if left.definition === right.definition { return true }
        return left.field == right.field && left.predicate == right.predicate && left.expected == right.expected
            && left.text == right.text
    }

    /// `"text"` or `'text'` without its quotes; anything else as written.
    fileprivate static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else {
            return text
        }
        return String(text.dropFirst().dropLast())
    }
}

/// A `??` line that cannot be checked as written (the `.http` parser reports it at its line).
package struct ResponseAssertionError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    package var reason: String
    /// Whether the line needs JavaScript (`?? js …`), which afcli does not run.
    package var needsJavaScript = false

    package var description: String { reason }
    package var failureClass: FailureClass { .badInput }
}

extension ResponseAssertion {
    /// The longest `??` line read, in bytes.
    package static let maximumLength = 64 << 10

    /// Reads the text after `??` on line `line`.
    package static func parse(_ text: String, line: Int) throws(ResponseAssertionError) -> ResponseAssertion {
        guard text.utf8.count <= maximumLength else { throw ResponseAssertionError(reason: "the ?? line is longer than 64 KiB") }
        let ranges = text.blankSeparatedWords(keepingVariables: false)
        guard let first = ranges.first else {
            throw ResponseAssertionError(reason: "?? needs a field: status, header, body, jsonpath, xpath or duration")
        }
        let written = String(text[first.lowerBound...])
        let fieldWord = text[first]
        if fieldWord == "js" {
            throw ResponseAssertionError(
                reason: "?? js needs JavaScript, which afcli does not run: write the check with status, header, body, "
                    + "jsonpath, xpath or duration", needsJavaScript: true)
        }
        let (argument, tail) = try split(text, words: ranges.dropFirst(), field: fieldWord, written: written)
        let predicateWord = String(tail.prefix(while: { $0 != " " && $0 != "\t" }))
        let predicate = Predicate.spellings[predicateWord]!
        let expected = Self.rest(of: text, after: tail.index(tail.startIndex, offsetBy: predicateWord.count))
        let field: Field
        switch fieldWord {
        case "status":
            guard argument.isEmpty else { throw ResponseAssertionError(reason: "?? status takes no argument: \"\(argument)\"") }
            field = .status
        case "header":
            guard !argument.isEmpty, !argument.contains(" ") else {
                throw ResponseAssertionError(reason: "?? header needs one header name before the condition")
            }
            field = .header(argument)
        case "body":
            field = .body(path: argument.isEmpty ? nil : argument)
        case "jsonpath":
            guard !argument.isEmpty else { throw ResponseAssertionError(reason: "?? jsonpath needs a query before the condition") }
            field = .jsonPath(argument)
        case "xpath":
            guard !argument.isEmpty else { throw ResponseAssertionError(reason: "?? xpath needs an expression before the condition") }
            field = .xPath(argument)
        case "duration":
            if argument.isEmpty {
                field = .duration(.total)
            } else if let phase = DurationPhase(rawValue: argument) {
                field = .duration(phase)
            } else {
                throw ResponseAssertionError(
                    reason: "?? duration \(argument): the phase is one of "
                        + DurationPhase.allCases.map(\.rawValue).joined(separator: ", "))
            }
        default:
            throw ResponseAssertionError(
                reason: "?? \(fieldWord) is no field afcli checks (status, header, body, jsonpath, xpath, duration)")
        }
        if predicate.takesValue, expected == nil {
            throw ResponseAssertionError(reason: "?? \(written): \(predicateWord) needs a value after it")
        }
        if !predicate.takesValue, expected != nil {
            throw ResponseAssertionError(reason: "?? \(written): \(predicateWord) takes no value")
        }
        if predicate == .matches, let expected {
            do {
                _ = try ResponsePattern(expected)
            } catch where error.isLimit {
                throw ResponseAssertionError(reason: "?? \(written): the pattern is refused: \(error.reason)")
            } catch {
                throw ResponseAssertionError(reason: "?? \(written): \"\(expected)\" is not a regular expression")
            }
        }
        return ResponseAssertion(field: field, predicate: predicate, expected: expected, line: line, text: written)
    }

    /// The field's argument and the rest of the line from the condition on. A JSONPath (`jsonpath
    /// QUERY`, `body PATH`) is read by the JSONPath parser, which knows where the query ends, so
    /// white space inside it (`$.items[?@.age > 18]`) is part of it; any other argument ends at
    /// the first condition word.
    private static func split(
        _ text: String, words ranges: ArraySlice<Range<String.Index>>, field: Substring, written: String
    ) throws(ResponseAssertionError) -> (argument: String, tail: Substring) {
        func noCondition(_ after: String = "") -> ResponseAssertionError {
            ResponseAssertionError(reason: "\"?? \(written)\" names no condition\(after) (==, !=, <, includes, exists…)")
        }
        let words = ranges.map { text[$0] }
        let startsWithCondition = words.first.map { Predicate.spellings[String($0)] != nil } ?? true
        guard (field == "jsonpath" || field == "body"), !startsWithCondition else {
            guard let position = words.firstIndex(where: { Predicate.spellings[String($0)] != nil }) else {
                throw noCondition()
            }
            return (words[..<position].joined(separator: " "), text[words[position].startIndex...])
        }
        let trimmed = text[words[0].startIndex...]
        // `body items[0].name` is the bare property path `$.items[0].name`.
        let added = field == "jsonpath" || trimmed.hasPrefix("$") ? "" : trimmed.hasPrefix("[") ? "$" : "$."
        let source = added + trimmed
        let parsed: (query: JSONPathQuery, end: String.Index)
        do throws(JSONPathError) {
            parsed = try JSONPathQuery.prefix(of: source[...])
        } catch {
            let position = max(0, error.position - added.count)
            throw ResponseAssertionError(
                reason: "?? \(written): not a JSONPath query: \(error.reason) at character \(position + 1)")
        }
        let consumed = source.unicodeScalars.distance(from: source.startIndex, to: parsed.end) - added.count
        let end = trimmed.unicodeScalars.index(trimmed.startIndex, offsetBy: consumed)
        let argument = String(trimmed[..<end])
        let tail = trimmed[end...].drop(while: { $0 == " " || $0 == "\t" })
        let condition = tail.prefix(while: { $0 != " " && $0 != "\t" })
        guard Predicate.spellings[String(condition)] != nil else {
            throw noCondition(" after the query \(argument)" + (condition.isEmpty ? "" : " (\(condition) is none)"))
        }
        return (argument, tail)
    }

    /// The text of `line` from `index` on, without its leading and trailing blanks; nil when empty.
    private static func rest(of line: String, after index: String.Index) -> String? {
        let text = line[index...].trimmingBlanks()
        return text.isEmpty ? nil : text
    }
}
