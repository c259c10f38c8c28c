import AFKit

/// A data item's key split into steps: `a[b][]` is key `a`, key `b`, append (HTTPie's nested JSON).
///
/// `[]` appends to an array, `[3]` sets index 3 (padding with nulls, at most
/// `maximumArrayIndex`), `[name]` selects an object member; a key that starts with `[` addresses a
/// top-level array, so its first step must be `[]` or `[N]` (HTTPie and xh). A backslash before a
/// bracket, a separator character or another backslash makes that character literal; any other
/// backslash stays in the key (`a\b` is the key `a\b`, as in HTTPie and xh).
package struct NestedKeyPath: Equatable, Sendable {
    /// The largest array index a key may name. An index pads the array with nulls up to it, so
    /// without a cap `a[99999999]=x` would build a 100-million-element array.
    package static let maximumArrayIndex = 10_000

    /// The most steps a key may have, as deep as a `:=` JSON value may nest
    /// (`JSONParser.maximumDepth`); building and writing the tree recurse once per level.
    package static let maximumDepth = JSONParser.maximumDepth

    /// The characters a backslash makes literal in a key.
    static let escapable: Set<Character> = ["[", "]", "\\", ":", "=", "@", ";"]

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
        /// The text from `index` up to `end` (or the end of the key), with escapes removed; a `stray`
        /// bracket on the way is an error.
        func segment(upTo end: Character, refusing stray: Character) throws(ItemError) -> String {
            var text = ""
            while index < chars.count, chars[index] != end {
                if chars[index] == "\\", index + 1 < chars.count, escapable.contains(chars[index + 1]) {
                    text.append(chars[index + 1])
                    index += 2
                    continue
                }
                if chars[index] == stray {
                    throw ItemError.keySyntax(key: rawKey, column: index, reason: "unexpected '\(stray)'")
                }
                text.append(chars[index])
                index += 1
            }
            return text
        }
        // The leading plain segment; empty when the key starts with `[`.
        let head = try segment(upTo: "[", refusing: "]")
        // A key that starts with `[` addresses a top-level array and has no leading key step.
        if !head.isEmpty || index == chars.count {
            // An empty key (`=value`) is the member "" (HTTPie sends {"": "value"}); it spans no column.
            steps.append(Step(kind: .key(head), columns: 0..<index))
        }
        while index < chars.count {
            guard chars[index] == "[" else {
                throw ItemError.keySyntax(key: rawKey, column: index, reason: "expected '[' after ']'")
            }
            let open = index
            index += 1
            let text = try segment(upTo: "]", refusing: "[")
            guard index < chars.count else {
                throw ItemError.keySyntax(key: rawKey, column: open, reason: "'[' is never closed")
            }
            index += 1
            let columns = open..<index
            guard steps.count < maximumDepth else {
                throw ItemError.keySyntax(
                    key: rawKey, column: open, reason: "nesting deeper than \(maximumDepth) levels")
            }
            if text.isEmpty {
                steps.append(Step(kind: .append, columns: columns))
            } else if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
                let digits = text.drop { $0 == "0" }
                guard digits.count <= 5, let number = Int(digits.isEmpty ? "0" : String(digits)),
                    number <= maximumArrayIndex
                else {
                    throw ItemError.keySyntax(
                        key: rawKey, column: open + 1,
                        reason: "array index \(text) is larger than \(maximumArrayIndex), the most afcli allows")
                }
                steps.append(Step(kind: .index(number), columns: columns))
            } else if steps.isEmpty {
                throw ItemError.keySyntax(
                    key: rawKey, column: open + 1,
                    reason: "expected a number or ']' after a '[' that starts a key")
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
