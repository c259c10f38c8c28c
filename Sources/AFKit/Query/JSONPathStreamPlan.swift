/// How a query is run over a body that arrives in chunks: which segments can be decided from a
/// node's name or index alone, and whether the whole document must be held instead.
///
/// A query streams when every segment has one selector and none of them needs to know an array's
/// length or the document root: names, `*`, indexes and slices counted from the start (step > 0),
/// and filters without `$`. Such a query is applied as the tokens pass: a node no segment can
/// select is skipped unread, a selected node that ends the query is copied to the output as it
/// arrives, and only a node a filter must test (or one that is both a match and holds further
/// matches) is held, parsed and evaluated in memory. Any other query (`[0,1]`, `[-1]`, `[::-1]`,
/// `$` inside a filter) holds each top-level value whole, up to `JSONPathStreamLimits.maximumHeldBytes` (16 MiB).
struct JSONPathStreamPlan {
    let segments: [JSONPathSegment]
    /// Whether the query can be applied while the document streams.
    let streams: Bool

    init(query: JSONPathQuery) {
        segments = query.segments
        streams = query.segments.allSatisfy { segment in
            guard segment.selectors.count == 1 else { return false }
            switch segment.selectors[0] {
            case .name, .wildcard: return true
            case .index(let index): return index >= 0
            case .slice(let start, let end, let step): return (start ?? 0) >= 0 && (end ?? 0) >= 0 && (step ?? 1) >= 0
            case .filter(let expression): return !JSONPathStreamPlan.usesRoot(expression)
            }
        }
    }

    /// What becomes of a child (named `key`, or at `index` of an array) of a node that is the
    /// input to the segments `entries`: the segments it is input to, and the filters to test on it.
    func child(of entries: [Int], key: String?, index: Int) -> (entries: [Int], filters: [Int]) {
        var selected: [Int] = []
        var continuing: [Int] = []
        var filters: [Int] = []
        for entry in entries {
            let segment = segments[entry]
            // A descendant segment applies to the child's children as well.
            if segment.isDescendant { continuing.append(entry) }
            switch segment.selectors[0] {
            case .name(let name):
                if let key, key.unicodeScalars.elementsEqual(name.unicodeScalars) { selected.append(entry + 1) }
            case .wildcard:
                selected.append(entry + 1)
            case .index(let wanted):
                if key == nil, index == wanted { selected.append(entry + 1) }
            case .slice(let start, let end, let step):
                let step = step ?? 1
                let start = start ?? 0
                if key == nil, step > 0, index >= start, end.map({ index < $0 }) ?? true, (index - start) % step == 0 {
                    selected.append(entry + 1)
                }
            case .filter:
                filters.append(entry)
            }
        }
        // The node itself before what lies inside it.
        return (selected + continuing, filters)
    }

    /// Whether an expression refers to the root `$` anywhere.
    static func usesRoot(_ expression: JSONPathLogical) -> Bool {
        switch expression {
        case .or(let terms), .and(let terms): return terms.contains(where: usesRoot)
        case .not(let inner): return usesRoot(inner)
        case .comparison(let left, _, let right): return usesRoot(left) || usesRoot(right)
        case .exists(let query): return usesRoot(query)
        case .function(let call): return usesRoot(call)
        }
    }

    private static func usesRoot(_ comparable: JSONPathComparable) -> Bool {
        switch comparable {
        case .literal: return false
        case .query(let query): return usesRoot(query)
        case .function(let call): return usesRoot(call)
        }
    }

    private static func usesRoot(_ call: JSONPathFunctionCall) -> Bool {
        call.arguments.contains { argument in
            switch argument {
            case .literal: return false
            case .query(let query): return usesRoot(query)
            case .logical(let expression): return usesRoot(expression)
            case .function(let inner): return usesRoot(inner)
            }
        }
    }

    private static func usesRoot(_ query: JSONPathFilterQuery) -> Bool {
        query.isAbsolute
            || query.segments.contains { segment in
                segment.selectors.contains { selector in
                    if case .filter(let inner) = selector { return usesRoot(inner) }
                    return false
                }
            }
    }
}

/// The bounds of `--jsonpath` over a streamed body.
package struct JSONPathStreamLimits: Sendable {
    /// The largest node held in memory: a node a filter tests, or a whole top-level value for a
    /// query that does not stream.
    // A parsed value takes about ten times its text: 16 MiB of JSON is some 170 MB in memory.
    package var maximumHeldBytes = 16 * 1024 * 1024
    /// The most segments a single node may be the input to at once (`..a..a..a` multiplies them).
    package var maximumEntries = 1024
    /// The most member-name bytes read to match a name selector.
    package var maximumKeyBytes = 1024 * 1024
    /// The deepest nesting of arrays and objects read, whatever the query selects (`--max-depth`):
    /// the held parser's limit too, so that every query tells a body too deep the same way.
    package var maximumDepth = FormattingLimits.maximumDepth

    package init(maximumDepth: Int = FormattingLimits.maximumDepth) {
        self.maximumDepth = maximumDepth
    }
}

/// A body `--jsonpath` cannot be applied to: not JSON, or beyond a limit.
package struct JSONPathBodyError: ClassifiedError, Equatable, CustomStringConvertible {
    package var description: String
    package var failureClass: FailureClass

    package init(_ description: String, failureClass: FailureClass) {
        self.description = description
        self.failureClass = failureClass
    }
}
