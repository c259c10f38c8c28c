/// Filter expressions: comparisons (RFC 9535 §2.3.5.2.2), existence tests and the functions of §2.4.
extension JSONPathEvaluator {
    /// Whether `expression` holds with `@` at `current`.
    package mutating func test(_ expression: JSONPathLogical, current: JSONValue) throws(JSONPathLimitError) -> Bool {
        switch expression {
        case .or(let terms):
            for term in terms where try test(term, current: current) { return true }
            return false
        case .and(let terms):
            for term in terms where !(try test(term, current: current)) { return false }
            return true
        case .not(let inner):
            return !(try test(inner, current: current))
        case .comparison(let left, let comparison, let right):
            let leftValue = try value(of: left, current: current)
            let rightValue = try value(of: right, current: current)
            return JSONPathEvaluator.compare(leftValue, comparison, rightValue)
        case .exists(let query):
            return !(try nodes(of: query, current: current)).isEmpty
        case .function(let call):
            return try logical(of: call, current: current)
        }
    }

    /// The nodelist of a filter query.
    mutating func nodes(of query: JSONPathFilterQuery, current: JSONValue) throws(JSONPathLimitError) -> [JSONPathNode] {
        let start = JSONPathNode(value: query.isAbsolute ? root : current, location: [])
        return try select(query.segments[...], from: [start])
    }

    /// The value of a comparable; nil is "Nothing".
    mutating func value(of comparable: JSONPathComparable, current: JSONValue) throws(JSONPathLimitError) -> JSONValue? {
        switch comparable {
        case .literal(let literal): return literal
        case .query(let query): return try nodes(of: query, current: current).first?.value
        case .function(let call): return try value(of: call, current: current)
        }
    }

    /// The result of a ValueType function.
    mutating func value(of call: JSONPathFunctionCall, current: JSONValue) throws(JSONPathLimitError) -> JSONValue? {
        switch call.function {
        case .length:
            switch try argumentValue(call.arguments[0], current: current) {
            case .string(let text)?: return .number(String(text.unicodeScalars.count))
            case .array(let elements)?: return .number(String(elements.count))
            case .object(let members)?: return .number(String(members.count))
            default: return nil
            }
        case .count:
            return .number(String(try argumentNodes(call.arguments[0], current: current).count))
        case .value:
            let found = try argumentNodes(call.arguments[0], current: current)
            return found.count == 1 ? found[0].value : nil
        case .match, .search:
            return nil
        }
    }

    /// The result of a LogicalType function (or a NodesType one, true when not empty).
    mutating func logical(of call: JSONPathFunctionCall, current: JSONValue) throws(JSONPathLimitError) -> Bool {
        switch call.function {
        case .match, .search:
            guard case .string(let text)? = try argumentValue(call.arguments[0], current: current) else { return false }
            let regexp: IRegexp
            if let compiled = call.pattern {
                regexp = compiled
            } else {
                guard case .string(let pattern)? = try argumentValue(call.arguments[1], current: current),
                    let compiled = try compiled(pattern)
                else { return false }
                regexp = compiled
            }
            return try run(regexp, on: text, whole: call.function == .match)
        default:
            return false
        }
    }

    /// A pattern taken from the document, compiled (its work counted as the steps of building the
    /// largest program), or nil when it is not an I-Regexp or goes past the matcher's limits.
    mutating func compiled(_ pattern: String) throws(JSONPathLimitError) -> IRegexp? {
        if let lastPattern, lastPattern.text == pattern { return lastPattern.regexp }
        try count(steps: (pattern.unicodeScalars.count + IRegexp.maximumProgramSize) / JSONPathEvaluator.matcherUnitsPerStep)
        let regexp = try? IRegexp(pattern)
        lastPattern = (pattern, regexp)
        return regexp
    }

    /// A ValueType argument's value.
    mutating func argumentValue(_ argument: JSONPathArgument, current: JSONValue) throws(JSONPathLimitError) -> JSONValue? {
        switch argument {
        case .literal(let literal): return literal
        case .query(let query): return try nodes(of: query, current: current).first?.value
        case .function(let call): return try value(of: call, current: current)
        case .logical: return nil
        }
    }

    /// A NodesType argument's nodelist.
    mutating func argumentNodes(_ argument: JSONPathArgument, current: JSONValue) throws(JSONPathLimitError) -> [JSONPathNode] {
        if case .query(let query) = argument { return try nodes(of: query, current: current) }
        return []
    }

    /// The comparison of two values, either of which may be Nothing (nil).
    static func compare(_ left: JSONValue?, _ comparison: JSONPathComparison, _ right: JSONValue?) -> Bool {
        switch comparison {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .less: return less(left, right)
        case .lessOrEqual: return less(left, right) || equal(left, right)
        case .greater: return less(right, left)
        case .greaterOrEqual: return less(right, left) || equal(left, right)
        }
    }

    /// RFC 9535 equality: numbers by value, objects regardless of member order, Nothing only to Nothing.
    package static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (.number(let a)?, .number(let b)?): return numericValue(a) == numericValue(b)
        case (.string(let a)?, .string(let b)?): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.bool(let a)?, .bool(let b)?): return a == b
        case (.null?, .null?): return true
        case (.array(let a)?, .array(let b)?):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a)?, .object(let b)?):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b.contains { $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) && equal($0.value, member.value) }
            }
        default: return false
        }
    }

    /// RFC 9535 ordering: numbers by value, strings by Unicode scalar values; anything else is unordered.
    static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (.number(let a)?, .number(let b)?): return numericValue(a) < numericValue(b)
        case (.string(let a)?, .string(let b)?):
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value }
        default: return false
        }
    }

    /// A number literal's value as a Double (the comparisons of I-JSON's range are exact there).
    static func numericValue(_ literal: String) -> Double {
        Double(literal) ?? .nan
    }
}
