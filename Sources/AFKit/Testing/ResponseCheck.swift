import AFCurl

/// What a response's assertions are checked against: its final head, the start of its body (the
/// body as the reporter got it, decrypted), and the times of its transfer.
package struct CheckedResponse {
    package var statusCode: Int
    package var head: ResponseHead?
    /// The body, at most `ResponseCheck.bodyLimit` bytes of it.
    package var body: [UInt8]
    /// Whether `body` is only the start of the body.
    package var bodyTruncated: Bool
    /// The final transfer's times; nil for an answer from the cache or `--local`.
    package var metrics: TransferMetrics?
    /// The deepest nesting the body is read to (`--max-depth`).
    package var maximumDepth: Int

    package init(
        statusCode: Int, head: ResponseHead?, body: [UInt8], bodyTruncated: Bool, metrics: TransferMetrics?,
        maximumDepth: Int = FormattingLimits.maximumDepth
    ) {
        self.statusCode = statusCode
        self.head = head
        self.body = body
        self.bodyTruncated = bodyTruncated
        self.metrics = metrics
        self.maximumDepth = maximumDepth
    }
}

/// The outcome of one assertion: whether it held and the actual value it saw.
package struct AssertionResult: Sendable {
    package var assertion: ResponseAssertion
    package var passed: Bool
    /// The actual value, as shown in reports (at most 200 characters); nil when there was none
    /// (a missing header, a path that selected nothing).
    package var actual: String?
    /// Why it could not be checked (a body that is not JSON, a query that does not parse).
    package var problem: String?

    /// One line telling a failure: `status == 200 (actual 404)`.
    package var failureText: String {
        let seen = problem ?? "actual " + (actual ?? "none")
        return assertion.text + " (" + seen + ")"
    }
}

/// Checks `ResponseAssertion`s against a response.
package enum ResponseCheck {
    /// The most of a body that assertions read (16 MiB); a longer body fails the assertions that
    /// need it rather than being held whole.
    package static let bodyLimit = 16 << 20
    /// The most characters of an actual value a report shows.
    static let shownLength = 200

    /// A value an assertion compares: text (a header, the body, an XPath result), a JSON value,
    /// or a number (the status, a duration).
    enum Actual {
        case text(String)
        case json(JSONValue)
        case number(Double)
        case missing
    }

    /// Checks every assertion against `response`.
    /// The body's parsed value and what is read from it recurse a level at a time: on a stack
    /// that holds them (`DeepStack`).
    package static func check(_ assertions: [ResponseAssertion], against response: CheckedResponse) -> [AssertionResult] {
        DeepStack.run(levels: response.maximumDepth) { () -> [AssertionResult] in
            var parsedBody: Result<JSONValue, JSONParseError>?
            return assertions.map { assertion in
                let actual: Actual
                do throws(Unreadable) {
                    actual = try value(
                        of: assertion.field, parsedQuery: assertion.query, in: response, json: &parsedBody)
                } catch {
                    return AssertionResult(assertion: assertion, passed: false, actual: nil, problem: error.reason)
                }
                return AssertionResult(
                    assertion: assertion, passed: holds(assertion, actual, response: response), actual: shown(actual))
            }
        }
    }

    /// Why a field could not be read: the assertion fails with this as its problem (never thrown
    /// out of `check`).
    struct Unreadable: ClassifiedError {
        var reason: String
        var failureClass: FailureClass { .responseRejected }

        init(reason: String) {
            self.reason = reason
        }

        /// A body the JSON parser refused: nested past the limit, or not JSON.
        init(_ error: JSONParseError) {
            reason = error.depthLimit.map { "the body is \(FormattingLimits.tooDeep($0))" } ?? "the body is not JSON"
        }
    }

    /// The field's actual value.
    static func value(
        of field: ResponseAssertion.Field, parsedQuery: JSONPathQuery? = nil, in response: CheckedResponse,
        json: inout Result<JSONValue, JSONParseError>?
    ) throws(Unreadable) -> Actual {
        switch field {
        case .status:
            return .number(Double(response.statusCode))
        case .header(let name):
            return response.head?.value(for: name).map(Actual.text) ?? .missing
        case .duration(let phase):
            guard let metrics = response.metrics else { return .number(0) }
            return .number((seconds(phase, metrics) * 1000).rounded())
        case .body(let path?):
            return try query(path.hasPrefix("$") ? path : "$." + path, parsed: parsedQuery, response, &json)
        case .jsonPath(let path):
            return try query(path, parsed: parsedQuery, response, &json)
        case .body(nil):
            try requireWhole(response)
            return .text(String(decoding: response.body, as: UTF8.self))
        case .xPath(let expression):
            try requireWhole(response)
            return try xPath(expression, response)
        }
    }

    /// The string value of the first node `expression` selects in the XML body, or its result.
    private static func xPath(_ expression: String, _ response: CheckedResponse) throws(Unreadable) -> Actual {
        do {
            return try XPathQuery.evaluate(document: response.body, expression: expression).first.map(Actual.text)
                ?? .missing
        } catch {
            throw Unreadable(reason: "\(error)")
        }
    }

    /// The first value `path` selects in the JSON body; `.missing` when it selects nothing.
    /// A query that selects one value at most (its `singularPath`) finds it with a scan of the
    /// body unless an earlier assertion parsed it already.
    private static func query(
        _ path: String, parsed: JSONPathQuery?, _ response: CheckedResponse,
        _ json: inout Result<JSONValue, JSONParseError>?
    ) throws(Unreadable) -> Actual {
        try requireWhole(response)
        if let singularPath = parsed?.singularPath, json == nil {
            do {
                let found = try JSONParser.value(
                    at: singularPath, inBytes: response.body, maximumDepth: response.maximumDepth)
                return found.map(Actual.json) ?? .missing
            } catch {
                throw Unreadable(error)
            }
        }
        let query: JSONPathQuery
        if let parsed {
            query = parsed
        } else {
            do {
                query = try JSONPathQuery(parsing: path)
            } catch {
                throw Unreadable(reason: "\(path) is not a JSONPath query: \(error)")
            }
        }
        if json == nil {
            json = Result { () throws(JSONParseError) in
                try JSONParser.parse(bytes: response.body, maximumDepth: response.maximumDepth)
            }
        }
        let document: JSONValue
        switch json {
        case .success(let parsed)?: document = parsed
        case .failure(let error)?: throw Unreadable(error)
        case nil: throw Unreadable(reason: "the body is not JSON")
        }
        do {
            return try query.values(in: document).first.map(Actual.json) ?? .missing
        } catch {
            throw Unreadable(reason: "\(error)")
        }
    }

    /// Refuses to check a body that was longer than the limit.
    private static func requireWhole(_ response: CheckedResponse) throws(Unreadable) {
        if response.bodyTruncated {
            throw Unreadable(reason: "the body is larger than \(bodyLimit >> 20) MiB, more than assertions read")
        }
    }

    /// httpyac's timing identifiers in libcurl's cumulative times.
    private static func seconds(_ phase: ResponseAssertion.DurationPhase, _ metrics: TransferMetrics) -> Double {
        switch phase {
        case .total: return metrics.total
        case .firstByte: return metrics.startTransfer
        case .download: return max(0, metrics.total - metrics.startTransfer)
        case .wait: return max(0, metrics.startTransfer - metrics.preTransfer)
        case .request: return metrics.preTransfer
        case .tcp: return max(0, metrics.connect - metrics.nameLookup)
        case .tls: return metrics.appConnect > 0 ? max(0, metrics.appConnect - metrics.connect) : 0
        }
    }

    /// Whether `assertion` holds for `actual`.
    static func holds(_ assertion: ResponseAssertion, _ actual: Actual, response: CheckedResponse) -> Bool {
        let expected = assertion.expected ?? ""
        switch assertion.predicate {
        case .exists:
            if case .missing = actual { return false }
            if case .text(let text) = actual, case .body(nil) = assertion.field { return !text.isEmpty }
            return true
        case .isTrue: return truthy(actual)
        case .isFalse: return !truthy(actual)
        case .isNumber:
            if case .number = actual { return true }
            if case .json(.number) = actual { return true }
            return false
        case .isBoolean:
            if case .json(.bool) = actual { return true }
            return false
        case .isString:
            if case .text = actual { return true }
            if case .json(.string) = actual { return true }
            return false
        case .isArray:
            if case .json(.array) = actual { return true }
            return false
        case .equals: return equal(actual, assertion)
        case .notEquals: return !equal(actual, assertion)
        case .greater, .greaterOrEqual, .less, .lessOrEqual:
            guard let left = number(actual), let right = assertion.expectedNumber else { return false }
            switch assertion.predicate {
            case .greater: return left > right
            case .greaterOrEqual: return left >= right
            case .less: return left < right
            default: return left <= right
            }
        case .startsWith: return text(actual)?.hasPrefix(assertion.unquotedExpected) ?? false
        case .endsWith: return text(actual)?.hasSuffix(assertion.unquotedExpected) ?? false
        case .includes: return text(actual)?.contains(assertion.unquotedExpected) ?? false
        case .matches:
            guard let text = text(actual), let pattern = try? ResponsePattern(expected) else { return false }
            return pattern.matches(text)
        case .sha256:
            guard case .body(nil) = assertion.field, !response.bodyTruncated else {
                guard let text = text(actual) else { return false }
                return digestMatches(SHA256.hash(Array(text.utf8)), expected)
            }
            return digestMatches(SHA256.hash(response.body), expected)
        }
    }

    /// Whether `digest` is `expected`, written in base64 (httpyac's) or hex.
    private static func digestMatches(_ digest: [UInt8], _ expected: String) -> Bool {
        let written = expected.trimmingBlanks
        return Base64.encode(digest) == written || SHA256.hex(digest) == written.lowercased()
    }

    /// Equality as the value's kind compares: numbers as numbers, JSON strings by their text, other
    /// JSON by its compact text, text as written (quotes around the expected value optional).
    private static func equal(_ actual: Actual, _ assertion: ResponseAssertion) -> Bool {
        let expected = assertion.expected ?? ""
        switch actual {
        case .missing:
            return false
        case .number(let value):
            return assertion.expectedNumber == value
        case .text(let text):
            return text == expected || text == assertion.unquotedExpected
        case .json(.number(let literal)):
            // Written alike is equal (`?? jsonpath $.id == 7`), without reading either as a number.
            if literal == assertion.unquotedExpected { return true }
            if let left = Double(literal), let right = assertion.expectedNumber { return left == right }
            return literal == expected
        case .json(.string(let text)):
            return text == assertion.unquotedExpected || text == expected
        case .json(let value):
            guard let written = try? JSONParser.parse(expected) else { return compact(value) == expected }
            return written.lastValueWins == value.lastValueWins
        }
    }

    /// JavaScript's truthiness of the value.
    private static func truthy(_ actual: Actual) -> Bool {
        switch actual {
        case .missing: return false
        case .number(let value): return value != 0
        case .text(let text): return !text.isEmpty
        case .json(.null): return false
        case .json(.bool(let value)): return value
        case .json(.number(let literal)): return Double(literal).map { $0 != 0 } ?? true
        case .json(.string(let text)): return !text.isEmpty
        case .json: return true
        }
    }

    private static func number(_ actual: Actual) -> Double? {
        switch actual {
        case .number(let value): return value
        case .json(.number(let literal)): return Double(literal)
        case .text(let text): return Double(text.trimmingBlanks)
        case .json(.string(let text)): return Double(text)
        default: return nil
        }
    }

    /// The value as text for string predicates: a JSON string's text, other JSON compact.
    private static func text(_ actual: Actual) -> String? {
        switch actual {
        case .missing: return nil
        case .text(let text): return text
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .json(.string(let text)): return text
        // A number is its literal, as the writer would write it (without building its output).
        case .json(.number(let literal)): return JSONParser.isValidNumber(literal) ? literal : ""
        case .json(let value): return compact(value)
        }
    }

    private static func compact(_ value: JSONValue) -> String {
        (try? JSONWriter.encodeToString(value)) ?? ""
    }

    /// The actual value as reports show it.
    static func shown(_ actual: Actual) -> String? {
        guard let text = text(actual) else { return nil }
        // No more bytes than the limit means no more characters either.
        guard text.utf8.count > shownLength, text.count > shownLength else { return text }
        return String(text.prefix(shownLength)) + "…"
    }
}

extension String {
    /// The text without blanks (spaces, tabs, line ends) around it.
    fileprivate var trimmingBlanks: String {
        let scalars = unicodeScalars
        let isBlank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = scalars.firstIndex(where: { !isBlank($0) }), let end = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(scalars[start...end])
    }
}
