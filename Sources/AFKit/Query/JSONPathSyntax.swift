/// A parsed RFC 9535 JSONPath query: `$` followed by segments.
///
/// Build one with `JSONPathQuery(parsing:)`; evaluate it with `evaluate(on:)` (JSONPathEvaluator.swift).
package struct JSONPathQuery: Sendable {
    /// The query as the user wrote it.
    package let text: String
    /// The segments after the root identifier, in order.
    package let segments: [JSONPathSegment]
    /// The steps of a query of single name and index child segments (`$.items[0].id`), which
    /// selects one value at most; nil for any other query. Such a query is walked, or found by a
    /// scan of a JSON text (`JSONParser.value(at:inBytes:)`), without the evaluator.
    package let singularPath: [JSONPathElement]?
}

extension JSONPathQuery: Equatable {
    /// Queries are equal when written alike (the parse follows from the text).
    package static func == (left: JSONPathQuery, right: JSONPathQuery) -> Bool { left.text == right.text }
}

/// A segment: the child segment `[...]` / `.name` / `.*`, or the descendant segment `..[...]`.
package struct JSONPathSegment: Sendable {
    /// Whether this is a descendant segment (`..`).
    package var isDescendant: Bool
    /// The selectors, applied in order to each input node.
    package var selectors: [JSONPathSelector]
}

/// One selector of a segment (RFC 9535 §2.3).
package enum JSONPathSelector: Sendable {
    case name(String)
    case wildcard
    /// An array index; negative counts from the end.
    case index(Int)
    /// An array slice `start:end:step`, any part omitted.
    case slice(start: Int?, end: Int?, step: Int?)
    /// A filter `?expr`, tested on each child.
    case filter(JSONPathLogical)
}

/// A logical expression of a filter (RFC 9535 §2.3.5).
package indirect enum JSONPathLogical: Sendable {
    case or([JSONPathLogical])
    case and([JSONPathLogical])
    case not(JSONPathLogical)
    /// A comparison of two values.
    case comparison(JSONPathComparable, JSONPathComparison, JSONPathComparable)
    /// An existence test: the query selects at least one node.
    case exists(JSONPathFilterQuery)
    /// A function returning LogicalType (or NodesType, tested for non-emptiness).
    case function(JSONPathFunctionCall)
}

/// The comparison operators.
package enum JSONPathComparison: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// A query inside a filter, relative (`@`) or absolute (`$`).
package struct JSONPathFilterQuery: Sendable {
    /// Whether the query starts at `$` rather than at the current node `@`.
    package var isAbsolute: Bool
    package var segments: [JSONPathSegment]

    /// Whether the query is a singular query: only single name or index child segments.
    package var isSingular: Bool {
        JSONPathQuery.singularPath(of: segments) != nil
    }
}

/// A side of a comparison: a literal, a singular query or a ValueType function.
package enum JSONPathComparable: Sendable {
    case literal(JSONValue)
    case query(JSONPathFilterQuery)
    case function(JSONPathFunctionCall)
}

/// The function extensions of RFC 9535 §2.4 and their declared types.
package enum JSONPathFunction: String, Sendable {
    case length, count, match, search, value

    /// The declared types of the parameters.
    var parameters: [JSONPathType] {
        switch self {
        case .length: return [.value]
        case .count, .value: return [.nodes]
        case .match, .search: return [.value, .value]
        }
    }

    /// The declared result type.
    var result: JSONPathType {
        switch self {
        case .length, .count, .value: return .value
        case .match, .search: return .logical
        }
    }
}

/// The three types of the function type system (RFC 9535 §2.4.1).
package enum JSONPathType: Sendable {
    case value, logical, nodes
}

/// A call of a function extension with its (well-typed) arguments.
package struct JSONPathFunctionCall: Sendable {
    package var function: JSONPathFunction
    package var arguments: [JSONPathArgument]
    /// The pattern of `match()` or `search()` when written as a string literal, compiled once
    /// when the query is parsed; nil when it is not a valid I-Regexp (the function is then false).
    package var pattern: IRegexp?
}

/// A function argument, already checked against its parameter's type.
package enum JSONPathArgument: Sendable {
    case literal(JSONValue)
    case query(JSONPathFilterQuery)
    case logical(JSONPathLogical)
    case function(JSONPathFunctionCall)
}

/// A query that is not valid JSONPath: the character position (from 0) and what is wrong there.
package struct JSONPathError: ClassifiedError, Equatable, CustomStringConvertible {
    /// The offset in characters (Unicode scalars) from the start of the query.
    package var position: Int
    package var reason: String

    package init(position: Int, reason: String) {
        self.position = position
        self.reason = reason
    }

    package var failureClass: FailureClass { .badInput }

    package var description: String { "\(reason) at character \(position + 1)" }
}

/// The bounds that keep a hostile query or document from exhausting memory or time.
package struct JSONPathLimits: Sendable {
    /// The longest query accepted, in Unicode scalars.
    package var maximumQueryLength = 8192
    /// The deepest nesting of filters, parentheses, `!` and function calls in a query.
    package var maximumQueryDepth = 64
    /// The most nodes any nodelist (a result or an intermediate one) may hold.
    package var maximumNodes = 1_000_000
    /// The most node visits one evaluation may make (filters over `..` grow quadratically).
    package var maximumSteps = 50_000_000

    package init() {}

    package static let standard = JSONPathLimits()
}
