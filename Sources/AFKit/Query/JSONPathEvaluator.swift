/// One step of a node's location: a member name or an array index.
package enum JSONPathElement: Equatable, Sendable {
    case name(String)
    case index(Int)
}

/// A node a query selected: its value and where it is in the document.
package struct JSONPathNode: Sendable {
    package var value: JSONValue
    /// The location from the root, in order.
    package var location: [JSONPathElement]

    package init(value: JSONValue, location: [JSONPathElement]) {
        self.value = value
        self.location = location
    }

    /// The RFC 9535 normalized path, for example `$['a'][0]`.
    package var normalizedPath: String {
        var text = "$"
        for element in location {
            switch element {
            case .index(let index): text += "[\(index)]"
            case .name(let name):
                text += "['"
                for scalar in name.unicodeScalars {
                    switch scalar {
                    case "\u{08}": text += "\\b"
                    case "\u{0C}": text += "\\f"
                    case "\n": text += "\\n"
                    case "\r": text += "\\r"
                    case "\t": text += "\\t"
                    case "'": text += "\\'"
                    case "\\": text += "\\\\"
                    case _ where scalar.value < 0x20:
                        let hex = String(scalar.value, radix: 16)
                        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    default: text.unicodeScalars.append(scalar)
                    }
                }
                text += "']"
            }
        }
        return text
    }
}

/// A query that went past a limit of `JSONPathLimits` while being evaluated, or was stopped
/// by SIGINT/SIGTERM (inside a long `match()` or `search()`).
package struct JSONPathLimitError: ClassifiedError, Equatable, CustomStringConvertible {
    package var description: String
    package var isInterrupt: Bool
    package var failureClass: FailureClass { isInterrupt ? .interrupted : .limitExceeded }

    package init(description: String, isInterrupt: Bool = false) {
        self.description = description
        self.isInterrupt = isInterrupt
    }
}

extension JSONPathQuery {
    /// The nodelist the query selects from `document`, in RFC 9535 order.
    package func evaluate(on document: JSONValue, limits: JSONPathLimits = .standard) throws(JSONPathLimitError)
        -> [JSONPathNode]
    {
        var evaluator = JSONPathEvaluator(root: document, limits: limits)
        return try evaluator.select(segments[...], from: [JSONPathNode(value: document, location: [])])
    }

    /// The values alone, for callers that do not need the paths.
    package func values(in document: JSONValue, limits: JSONPathLimits = .standard) throws(JSONPathLimitError)
        -> [JSONValue]
    {
        // A singular query (`$.data.items[0].id`, most queries written) walks the document
        // directly, without the normalized paths of the nodes it passes.
        if segments.count <= limits.maximumSteps, limits.maximumNodes > 0, let walked = singularValue(in: document) {
            return walked
        }
        return try evaluate(on: document, limits: limits).map(\.value)
    }

    /// The steps of a query of name and index child segments alone (`$.items[0].id`), which
    /// selects one value at most; nil for any other query. Worked out once, when it is parsed
    /// (`singularPath`).
    static func singularPath(of segments: [JSONPathSegment]) -> [JSONPathElement]? {
        var path: [JSONPathElement] = []
        for segment in segments {
            guard !segment.isDescendant, segment.selectors.count == 1 else { return nil }
            switch segment.selectors[0] {
            case .name(let name): path.append(.name(name))
            case .index(let index): path.append(.index(index))
            default: return nil
            }
        }
        return path
    }

    /// What a query of name and index child segments alone selects: the one value it reaches,
    /// or none; nil when the query is not of that kind.
    private func singularValue(in document: JSONValue) -> [JSONValue]? {
        guard let singularPath else { return nil }
        var current = document
        for step in singularPath {
            switch (step, current) {
            case (.name(let name), .object(let members)):
                // Names compare scalar by scalar (RFC 9535 §2.3.1.2), which UTF-8 bytes do alike.
                guard let member = members.first(where: { $0.key.utf8.elementsEqual(name.utf8) }) else { return [] }
                current = member.value
            case (.index(let index), .array(let elements)):
                let position = index < 0 ? elements.count + index : index
                guard position >= 0, position < elements.count else { return [] }
                current = elements[position]
            default:
                return []
            }
        }
        return [current]
    }
}

/// Applies segments to nodelists (RFC 9535 §2.5) and evaluates filters (§2.3.5), counting work
/// against the limits.
package struct JSONPathEvaluator {
    /// The document `$` refers to inside filters.
    let root: JSONValue
    let limits: JSONPathLimits
    private var steps = 0
    /// The pattern `match()` or `search()` last compiled from a value of the document, and the
    /// result: the next node usually has the same one.
    var lastPattern: (text: String, regexp: IRegexp?)?

    /// The units of the I-Regexp matcher's work that count as one step: a node visit (its
    /// location built, the node appended) costs about as much as this many instruction visits.
    static let matcherUnitsPerStep = 16

    package init(root: JSONValue, limits: JSONPathLimits) {
        self.root = root
        self.limits = limits
    }

    /// The nodelist after applying `segments` in turn to `nodes`.
    package mutating func select(_ segments: ArraySlice<JSONPathSegment>, from nodes: [JSONPathNode])
        throws(JSONPathLimitError) -> [JSONPathNode]
    {
        var current = nodes
        for segment in segments {
            var next: [JSONPathNode] = []
            for node in current { try apply(segment, to: node, into: &next) }
            current = next
        }
        return current
    }

    /// Appends what `segment` selects from `node` to `output`.
    mutating func apply(_ segment: JSONPathSegment, to node: JSONPathNode, into output: inout [JSONPathNode])
        throws(JSONPathLimitError)
    {
        try select(segment.selectors, from: node, into: &output)
        guard segment.isDescendant else { return }
        // Descendants in document order, each before its own descendants.
        switch node.value {
        case .array(let elements):
            for (position, element) in elements.enumerated() {
                try apply(segment, to: JSONPathNode(value: element, location: node.location + [.index(position)]), into: &output)
            }
        case .object(let members):
            for member in members {
                try apply(segment, to: JSONPathNode(value: member.value, location: node.location + [.name(member.key)]), into: &output)
            }
        default:
            break
        }
    }

    /// Appends the children of `node` each selector picks, selector by selector.
    mutating func select(_ selectors: [JSONPathSelector], from node: JSONPathNode, into output: inout [JSONPathNode])
        throws(JSONPathLimitError)
    {
        for selector in selectors {
            switch (selector, node.value) {
            case (.name(let name), .object(let members)):
                if let member = members.first(where: { $0.key.unicodeScalars.elementsEqual(name.unicodeScalars) }) {
                    try emit(member.value, node.location + [.name(member.key)], into: &output)
                }
            case (.wildcard, .object(let members)):
                for member in members { try emit(member.value, node.location + [.name(member.key)], into: &output) }
            case (.wildcard, .array(let elements)):
                for (position, element) in elements.enumerated() {
                    try emit(element, node.location + [.index(position)], into: &output)
                }
            case (.index(let index), .array(let elements)):
                let position = index < 0 ? elements.count + index : index
                if position >= 0, position < elements.count {
                    try emit(elements[position], node.location + [.index(position)], into: &output)
                }
            case (.slice(let start, let end, let step), .array(let elements)):
                for position in JSONPathEvaluator.slicePositions(count: elements.count, start: start, end: end, step: step) {
                    try emit(elements[position], node.location + [.index(position)], into: &output)
                }
            case (.filter(let expression), .object(let members)):
                for member in members where try test(expression, current: member.value) {
                    try emit(member.value, node.location + [.name(member.key)], into: &output)
                }
            case (.filter(let expression), .array(let elements)):
                for (position, element) in elements.enumerated() where try test(expression, current: element) {
                    try emit(element, node.location + [.index(position)], into: &output)
                }
            default:
                break
            }
        }
    }

    /// Appends one selected node, counting it against the limits.
    private mutating func emit(_ value: JSONValue, _ location: [JSONPathElement], into output: inout [JSONPathNode])
        throws(JSONPathLimitError)
    {
        guard output.count < limits.maximumNodes else {
            throw JSONPathLimitError(description: "the query selects more than \(limits.maximumNodes) nodes")
        }
        try count()
        output.append(JSONPathNode(value: value, location: location))
    }

    /// Counts one unit of work.
    private mutating func count() throws(JSONPathLimitError) {
        try count(steps: 1)
    }

    /// Counts `number` units of work.
    mutating func count(steps number: Int) throws(JSONPathLimitError) {
        steps += number
        guard steps <= limits.maximumSteps else {
            throw JSONPathLimitError(description: "the query needs more than \(limits.maximumSteps) steps")
        }
    }

    /// Whether `regexp` matches `text` (whole, or somewhere unless `whole`), its work counted in
    /// the steps; SIGINT/SIGTERM stop it.
    mutating func run(_ regexp: IRegexp, on text: String, whole: Bool) throws(JSONPathLimitError) -> Bool {
        let unit = JSONPathEvaluator.matcherUnitsPerStep
        let allowed = max(0, limits.maximumSteps - steps)
        var budget = allowed > Int.max / unit ? Int.max : allowed * unit
        let before = budget
        let result: Bool
        do throws(IRegexpStop) {
            result = whole ? try regexp.matches(text, budget: &budget) : try regexp.contains(text, budget: &budget)
        } catch .interrupted {
            throw JSONPathLimitError(description: "interrupted", isInterrupt: true)
        } catch {
            throw JSONPathLimitError(description: "the query needs more than \(limits.maximumSteps) steps")
        }
        try count(steps: (before - budget + unit - 1) / unit)
        return result
    }

    /// The positions a slice selects from an array of `count` elements (RFC 9535 §2.3.4.2.2).
    package static func slicePositions(count: Int, start: Int?, end: Int?, step: Int?) -> [Int] {
        let step = step ?? 1
        guard step != 0, count > 0 else { return [] }
        func normalized(_ value: Int) -> Int { value >= 0 ? value : count + value }
        var positions: [Int] = []
        if step > 0 {
            let lower = min(max(normalized(start ?? 0), 0), count)
            let upper = min(max(normalized(end ?? count), 0), count)
            var position = lower
            while position < upper {
                positions.append(position)
                position += step
            }
        } else {
            let upper = min(max(normalized(start ?? count - 1), -1), count - 1)
            let lower = min(max(normalized(end ?? -count - 1), -1), count - 1)
            var position = upper
            while lower < position {
                positions.append(position)
                position += step
            }
        }
        return positions
    }
}
