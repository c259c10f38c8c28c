import AFKit

/// Builds the parameter tree from data items, in the order typed.
///
/// The tree is kept as mutable nodes while it grows, each object with an index of its keys, so
/// every item costs time for its own key only: 100,000 items build in linear time, and Ctrl-C
/// is never held up by this step. `tree` gives the finished `JSONValue`.
package struct ParameterTreeBuilder {
    private var root: TreeNode?

    package init() {}

    /// The tree built so far, nil when no data item was added.
    package var tree: JSONValue? { root?.value }

    /// Sets `value` at the item's nested key. A key given twice keeps both members in typed order:
    /// a form then sends both pairs (`a=1&a=2`), while JSON and property lists send the last value
    /// (`JSONValue.lastValueWins`), as HTTPie and xh do (DESIGN §2). A nested key goes into the
    /// value its key has now, its last assignment. After a failed `add` the builder is empty: the
    /// command line is refused.
    package mutating func add(_ value: JSONValue, rawKey: String) throws(ItemError) {
        let path = try NestedKeyPath.parse(rawKey)
        let node = root ?? TreeNode(path.startsWithArray ? .array([]) : .object([]))
        do {
            try Self.insert(value, at: path.steps[...], into: node, key: Array(rawKey))
        } catch {
            root = nil
            throw error
        }
        root = node
    }

    private static func describe(_ node: TreeNode) -> String {
        switch node.kind {
        case .object: return "an object"
        case .array: return "an array"
        case .value(.object): return "an object"
        case .value(.array): return "an array"
        case .value(.string): return "a string"
        case .value(.number): return "a number"
        case .value(.bool): return "a boolean"
        case .value(.null): return "null"
        }
    }

    /// A step that treats `node` as the wrong kind of container; the key before the step names it.
    private static func clash(
        _ key: [Character], _ step: NestedKeyPath.Step, _ what: String, _ node: TreeNode, expected: String
    ) -> ItemError {
        let parent = String(key[..<step.columns.lowerBound])
        let place = parent.isEmpty ? "the top level" : "\"\(parent)\""
        return .typeClash(
            key: String(key), columns: step.columns,
            reason: "\(what) on \(place), which is \(describe(node)) (expected \(expected))")
    }

    private static func container(for step: NestedKeyPath.Step) -> TreeNode {
        if case .key = step.kind { return TreeNode(.object([])) }
        return TreeNode(.array([]))
    }

    /// Applies the first of `steps` to `node`, the container it addresses, and the rest below it.
    /// `key` is the raw key's characters, read only to describe a clash.
    private static func insert(
        _ value: JSONValue, at steps: ArraySlice<NestedKeyPath.Step>, into node: TreeNode, key: [Character]
    ) throws(ItemError) {
        guard let step = steps.first else { return }
        let rest = steps.dropFirst()
        node.expand()
        switch step.kind {
        case .key(let name):
            guard case .object = node.kind else {
                throw clash(key, step, "cannot use key \"\(name)\"", node, expected: "an object")
            }
            guard let next = rest.first else {
                node.append(key: name, TreeNode(value))
                return
            }
            let child: TreeNode
            if let position = node.lastPosition[name] {
                child = node.children[position]
            } else {
                child = container(for: next)
                node.append(key: name, child)
            }
            try insert(value, at: rest, into: child, key: key)
        case .append, .index:
            guard case .array = node.kind else {
                throw clash(key, step, "cannot use \(String(key[step.columns]))", node, expected: "an array")
            }
            var position = node.children.count
            if case .index(let wanted) = step.kind {
                // NestedKeyPath caps `wanted`, so this pads at most that many nulls.
                while node.children.count <= wanted { node.children.append(TreeNode(.null)) }
                position = wanted
            } else {
                node.children.append(TreeNode(.null))
            }
            guard let next = rest.first else {
                node.children[position] = TreeNode(value)
                return
            }
            if case .value(.null) = node.children[position].kind { node.children[position] = container(for: next) }
            try insert(value, at: rest, into: node.children[position], key: key)
        }
    }
}

/// One node of the tree being built: a value as given, or a container items change in place.
private final class TreeNode {
    /// What the node holds.
    enum Kind {
        /// A value as typed (a `:=` object or array stays whole until a key reaches into it).
        case value(JSONValue)
        /// An object: `keys` and `children` are its members in order, repeats kept.
        case object
        /// An array: `children` are its elements.
        case array
    }

    var kind: Kind
    var keys: [String] = []
    var children: [TreeNode] = []
    /// Where each key of an object was last set, so a key is found without a scan.
    var lastPosition: [String: Int] = [:]

    init(_ value: JSONValue) {
        kind = .value(value)
    }

    /// Turns a whole object or array value into a container whose children can change.
    func expand() {
        guard case .value(let value) = kind else { return }
        switch value {
        case .object(let members):
            kind = .object
            for member in members { append(key: member.key, TreeNode(member.value)) }
        case .array(let elements):
            kind = .array
            children = elements.map(TreeNode.init)
        default:
            break
        }
    }

    /// Adds a member to an object.
    func append(key: String, _ child: TreeNode) {
        lastPosition[key] = children.count
        keys.append(key)
        children.append(child)
    }

    /// The finished value.
    var value: JSONValue {
        switch kind {
        case .value(let value): return value
        case .object: return .object(zip(keys, children).map { JSONMember(key: $0, value: $1.value) })
        case .array: return .array(children.map(\.value))
        }
    }
}
