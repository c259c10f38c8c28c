import AFKit

/// A data item's key split into steps: `a[b][]` is key `a`, key `b`, append (HTTPie's nested JSON).
///
/// `[]` appends to an array, `[3]` sets index 3 (padding with nulls), `[name]` selects an object
/// member; a key that starts with `[` addresses a top-level array. `\[` and `\]` are literal.
package struct NestedKeyPath: Equatable, Sendable {
    /// One step of a path, with the columns of the key it came from (for caret lines).
    package struct Step: Equatable, Sendable {
        package enum Kind: Equatable, Sendable {
            case key(String)
            case index(Int)
            case append
        }
        package var kind: Kind
        /// Character offsets of the step's text within the key, for pointing at it.
        package var columns: Range<Int>
    }

    package var steps: [Step]

    /// Parses a raw key (escapes still in it).
    package static func parse(_ rawKey: String) throws(ItemError) -> NestedKeyPath {
        let chars = Array(rawKey)
        var steps: [Step] = []
        var index = 0
        var head = ""
        // The leading plain segment; empty when the key starts with `[`.
        while index < chars.count, chars[index] != "[" {
            if chars[index] == "\\", index + 1 < chars.count {
                head.append(chars[index + 1])
                index += 2
                continue
            }
            if chars[index] == "]" {
                throw ItemError.keySyntax(key: rawKey, column: index, reason: "unexpected ']'")
            }
            head.append(chars[index])
            index += 1
        }
        // A key that starts with `[` addresses a top-level array and has no leading key step.
        if !head.isEmpty || index == chars.count {
            steps.append(Step(kind: .key(head), columns: 0..<max(index, 1)))
        }
        while index < chars.count {
            guard chars[index] == "[" else {
                throw ItemError.keySyntax(key: rawKey, column: index, reason: "expected '[' after ']'")
            }
            let open = index
            index += 1
            var text = ""
            while index < chars.count, chars[index] != "]" {
                if chars[index] == "\\", index + 1 < chars.count {
                    text.append(chars[index + 1])
                    index += 2
                    continue
                }
                if chars[index] == "[" {
                    throw ItemError.keySyntax(key: rawKey, column: index, reason: "unexpected '['")
                }
                text.append(chars[index])
                index += 1
            }
            guard index < chars.count else {
                throw ItemError.keySyntax(key: rawKey, column: open, reason: "'[' is never closed")
            }
            index += 1
            let columns = open..<index
            if text.isEmpty {
                steps.append(Step(kind: .append, columns: columns))
            } else if let number = Int(text), number >= 0, text.allSatisfy(\.isASCII) {
                steps.append(Step(kind: .index(number), columns: columns))
            } else {
                steps.append(Step(kind: .key(text), columns: columns))
            }
        }
        return NestedKeyPath(steps: steps)
    }

    /// Whether the path addresses a top-level array (`[]=x`, `[0]=x`).
    package var startsWithArray: Bool {
        guard let first = steps.first else { return false }
        if case .key = first.kind { return false }
        return true
    }
}

/// Builds the parameter tree from data items, in the order typed.
package struct ParameterTreeBuilder {
    private(set) var root: JSONValue?
    private var rootKey = ""

    package init() {}

    /// The tree built so far, nil when no data item was added.
    package var tree: JSONValue? { root }

    /// Sets `value` at the item's nested key. A plain key given twice collects its values into an
    /// array, as HTTPie 3 does.
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
                    reason: "cannot use key \"\(name)\" on \(parentText.isEmpty ? "the top level" : "\"\(parentText)\""), which is \(describe(node)) (expected an object)")
            }
            if let position = members.firstIndex(where: { $0.key == name }) {
                if rest.isEmpty {
                    members[position].value = merged(members[position].value, with: value)
                } else {
                    try insert(value, at: rest, into: &members[position].value, key: key, parentText: parentText + stepText)
                }
            } else {
                var child = rest.first.map(container(for:)) ?? value
                if !rest.isEmpty {
                    try insert(value, at: rest, into: &child, key: key, parentText: parentText + stepText)
                }
                members.append(JSONMember(key: name, value: child))
            }
            node = .object(members)
        case .append, .index:
            guard case .array(var elements) = node else {
                throw ItemError.typeClash(
                    key: key, columns: step.columns,
                    reason: "cannot use \(stepText) on \(parentText.isEmpty ? "the top level" : "\"\(parentText)\""), which is \(describe(node)) (expected an array)")
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

    /// A repeated plain key turns into an array of its values (HTTPie 3); containers assigned
    /// again are replaced.
    private static func merged(_ existing: JSONValue, with value: JSONValue) -> JSONValue {
        switch existing {
        case .array(var elements) where !value.isContainer:
            elements.append(value)
            return .array(elements)
        case .object, .array:
            return value
        default:
            return .array([existing, value])
        }
    }
}
