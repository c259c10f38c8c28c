import AFKit

/// Builds the parameter tree from data items, in the order typed.
package struct ParameterTreeBuilder {
    private(set) var root: JSONValue?
    private var rootKey = ""

    package init() {}

    /// The tree built so far, nil when no data item was added.
    package var tree: JSONValue? { root }

    /// Sets `value` at the item's nested key. A key given twice keeps both members in typed order:
    /// a form then sends both pairs (`a=1&a=2`), while JSON and property lists send the last value
    /// (`JSONValue.lastValueWins`), as HTTPie and xh do (DESIGN §2).
    package mutating func add(_ value: JSONValue, rawKey: String) throws(ItemError) {
        let path = try NestedKeyPath.parse(rawKey)
        var tree = root ?? (path.startsWithArray ? .array([]) : .object([]))
        try Self.insert(value, at: path.steps[...], into: &tree, key: rawKey, parentText: "")
        root = tree
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }

    private static func container(for step: NestedKeyPath.Step) -> JSONValue {
        if case .key = step.kind { return .object([]) }
        return .array([])
    }

    private static func insert(
        _ value: JSONValue, at steps: ArraySlice<NestedKeyPath.Step>, into node: inout JSONValue, key: String,
        parentText: String
    ) throws(ItemError) {
        guard let step = steps.first else {
            node = value
            return
        }
        let rest = steps.dropFirst()
        let stepText = String(Array(key)[step.columns])
        switch step.kind {
        case .key(let name):
            guard case .object(var members) = node else {
                throw ItemError.typeClash(
                    key: key, columns: step.columns,
                    reason:
                        "cannot use key \"\(name)\" on \(parentText.isEmpty ? "the top level" : "\"\(parentText)\""), which is \(describe(node)) (expected an object)"
                )
            }
            if rest.isEmpty {
                members.append(JSONMember(key: name, value: value))
            } else if let position = members.lastIndex(where: { $0.key == name }) {
                // A nested key goes into the value the key has now: its last assignment.
                try insert(
                    value, at: rest, into: &members[position].value, key: key, parentText: parentText + stepText)
            } else if let next = rest.first {
                var child = container(for: next)
                try insert(value, at: rest, into: &child, key: key, parentText: parentText + stepText)
                members.append(JSONMember(key: name, value: child))
            }
            node = .object(members)
        case .append, .index:
            guard case .array(var elements) = node else {
                throw ItemError.typeClash(
                    key: key, columns: step.columns,
                    reason:
                        "cannot use \(stepText) on \(parentText.isEmpty ? "the top level" : "\"\(parentText)\""), which is \(describe(node)) (expected an array)"
                )
            }
            var position = elements.count
            if case .index(let wanted) = step.kind {
                while elements.count <= wanted { elements.append(.null) }
                position = wanted
            } else {
                elements.append(rest.first.map(container(for:)) ?? .null)
            }
            if rest.isEmpty {
                elements[position] = value
            } else {
                if case .null = elements[position], let next = rest.first { elements[position] = container(for: next) }
                try insert(value, at: rest, into: &elements[position], key: key, parentText: parentText + stepText)
            }
            node = .array(elements)
        }
    }
}
