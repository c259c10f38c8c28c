import AFKit

/// The I-Regexp matcher of JSONPath's `match()`/`search()` and of `?? … matches`, alone.
enum RegexHarness {
    /// The units of work each match may do: a quarter of a megabyte scanned, little enough that
    /// no input takes a second (scripts/fuzz runs this harness with `-timeout=1`, and the coverage
    /// instrumentation makes a unit some hundred nanoseconds).
    static let budget = 250_000
    /// The scalars of the subject the questions put the other way round are asked on.
    static let crossChecked = 4096

    /// Input: a pattern, a NUL byte, a subject. A pattern that compiles is run over the subject
    /// whole and as a search (a whole match is also a match somewhere), and over the subject's
    /// start the same questions are put the other way round (the search anchored by `(.|\n|\r)*`
    /// on both sides, the whole match as a search between `^` and `$`): the answers agree,
    /// unless a budget ran out.
    static func run(_ input: UnsafeRawBufferPointer) {
        let fields = input.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let pattern = String(decoding: fields[0], as: UTF8.self)
        let subject = fields.count > 1 ? String(decoding: fields[1], as: UTF8.self) : ""
        guard let regexp = try? IRegexp(pattern) else { return }
        let whole = answer { (budget: inout Int) throws(IRegexpStop) in try regexp.matches(subject, budget: &budget) }
        let somewhere = answer { (budget: inout Int) throws(IRegexpStop) in try regexp.contains(subject, budget: &budget) }
        if whole == true, somewhere != nil {
            FuzzInvariant.check(somewhere == true, "\(pattern) matches the whole subject but not somewhere in it")
        }
        let start = String(String.UnicodeScalarView(subject.unicodeScalars.prefix(crossChecked)))
        if let anchored = try? IRegexp("^(" + pattern + ")$"),
            let whole = answer({ (budget: inout Int) throws(IRegexpStop) in try regexp.matches(start, budget: &budget) })
        {
            let found = answer { (budget: inout Int) throws(IRegexpStop) in try anchored.contains(start, budget: &budget) }
            FuzzInvariant.check(found == nil || found == whole, "match(\(pattern)) and search(^(\(pattern))$) differ")
        }
        if let padded = try? IRegexp("(.|\n|\r)*(" + pattern + ")(.|\n|\r)*"),
            let somewhere = answer({ (budget: inout Int) throws(IRegexpStop) in try regexp.contains(start, budget: &budget) })
        {
            let found = answer { (budget: inout Int) throws(IRegexpStop) in try padded.matches(start, budget: &budget) }
            FuzzInvariant.check(found == nil || found == somewhere, "search(\(pattern)) and match(.*(\(pattern)).*) differ")
        }
    }

    /// The answer of one match within the budget; nil when the budget ran out.
    private static func answer(_ match: (inout Int) throws(IRegexpStop) -> Bool) -> Bool? {
        var remaining = budget
        return try? match(&remaining)
    }
}
