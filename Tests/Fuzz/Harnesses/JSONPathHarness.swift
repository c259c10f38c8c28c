import AFKit

/// The JSONPath parser and evaluator, and the I-Regexp engine behind `match()` and `search()`.
enum JSONPathHarness {
    /// Input: a query, a NUL byte, a JSON document. Every node selected has a normalized path
    /// that is itself a valid query selecting exactly that node; the query text is also compiled
    /// as an I-Regexp and run on the document text (neither may crash or run away). A singular
    /// query's scan of the text (`JSONParser.value(at:inBytes:)`) fails as the parser does, or
    /// finds what the evaluator selects.
    static func run(_ input: UnsafeRawBufferPointer) {
        let fields = input.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let queryText = String(decoding: fields[0], as: UTF8.self)
        let document = fields.count > 1 ? Array(fields[1]) : []
        if let pattern = try? IRegexp(queryText) {
            let text = String(decoding: document, as: UTF8.self)
            var budget = RegexHarness.budget
            _ = try? pattern.matches(text, budget: &budget)
            budget = RegexHarness.budget
            _ = try? pattern.contains(text, budget: &budget)
        }
        var limits = JSONPathLimits()
        limits.maximumNodes = 10_000
        // Some 300,000 units of the matcher's work at most: well under a second with the coverage
        // instrumentation (scripts/fuzz runs this harness with `-timeout=1`).
        limits.maximumSteps = 20_000
        checkPrefix(queryText, limits)
        guard let query = try? JSONPathQuery(parsing: queryText, limits: limits) else { return }
        if let path = query.singularPath {
            checkLookup(path, query, document, limits)
        }
        guard let value = try? JSONParser.parse(bytes: document, replacingLoneSurrogates: true),
            let nodes = try? query.evaluate(on: value, limits: limits)
        else { return }
        // The streaming filter evaluates within the standard limits, whose 50 million steps leave
        // match() and search() some seconds of work: not with the one-second limit.
        guard !queryText.contains("match("), !queryText.contains("search(") else { return }
        // Streamed over the document as written (anything but a crash goes), and over its
        // compact re-encoding (no repeated keys): the same matches as the evaluator's.
        _ = try? JSONPathStreamFilter.run(query, on: document, chunkSize: 1 + document.count % 7)
        if let compact = try? JSONWriter.encode(value),
            let streamed = try? JSONPathStreamFilter.run(query, on: compact, chunkSize: 1 + document.count % 5)
        {
            var lines = String(decoding: streamed, as: UTF8.self).split(separator: "\n").map(String.init)
            var expected = nodes.compactMap { (try? JSONWriter.encode($0.value)).map { String(decoding: $0, as: UTF8.self) } }
            if queryText.contains("..") {
                lines.sort()
                expected.sort()
            }
            FuzzInvariant.check(lines == expected, "streaming \(queryText) gives the evaluator's matches")
        }
        for node in nodes.prefix(20) {
            let path = node.normalizedPath
            guard let again = try? JSONPathQuery(parsing: path) else {
                FuzzInvariant.check(false, "normalized path \(path) parses")
                return
            }
            let found = try? again.evaluate(on: value, limits: limits)
            FuzzInvariant.check(
                found?.count == 1 && found?[0].value == node.value && found?[0].normalizedPath == path,
                "normalized path \(path) selects its node")
        }
    }

    /// A query read as the start of a longer text (a `??` line's) ends before white space or at
    /// the end, and is itself a whole query; a whole query read so is read whole.
    private static func checkPrefix(_ text: String, _ limits: JSONPathLimits) {
        let whole = try? JSONPathQuery(parsing: text, limits: limits)
        guard let (query, end) = try? JSONPathQuery.prefix(of: text[...], limits: limits) else {
            FuzzInvariant.check(whole == nil, "\(text) parses whole but not as a prefix")
            return
        }
        FuzzInvariant.check(
            end == text.endIndex || text.unicodeScalars[end] == " " || text.unicodeScalars[end] == "\t"
                || text.unicodeScalars[end] == "\n" || text.unicodeScalars[end] == "\r",
            "the prefix of \(text) ends before white space")
        FuzzInvariant.check((try? JSONPathQuery(parsing: query.text, limits: limits)) != nil, "\(query.text) parses whole")
        if whole != nil { FuzzInvariant.check(end == text.endIndex, "\(text) is read whole as a prefix") }
        _ = try? ResponseAssertion.parse("jsonpath " + text + " exists", line: 1)
        _ = try? ResponseAssertion.parse("body " + text + " == 1", line: 1)
    }

    /// The scan and the parser agree: the same error, or the value the evaluator selects.
    private static func checkLookup(
        _ path: [JSONPathElement], _ query: JSONPathQuery, _ document: [UInt8], _ limits: JSONPathLimits
    ) {
        let parsed = Result { () throws(JSONParseError) in
            try JSONParser.parse(bytes: document, replacingLoneSurrogates: true)
        }
        let found = Result { () throws(JSONParseError) in
            try JSONParser.value(at: path, inBytes: document, replacingLoneSurrogates: true)
        }
        switch (parsed, found) {
        case (.success(let value), .success(let found)):
            let selected = (try? query.values(in: value, limits: limits))?.first
            FuzzInvariant.check(found == selected, "the scan for \(query.text) finds what the evaluator selects")
        case (.failure(let expected), .failure(let error)):
            FuzzInvariant.check(error == expected, "the scan for \(query.text) fails as the parser does")
        default:
            FuzzInvariant.check(false, "the scan for \(query.text) and the parser agree on whether the text is JSON")
        }
    }
}
