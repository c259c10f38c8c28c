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
