/// The regular expression of `?? … matches PATTERN`: I-Regexp (RFC 9485, the JSONPath
/// engine's, linear time whatever the input) with what API tests usually write in JavaScript's
/// syntax: `^` and `$` anchors (without them the pattern may match anywhere) and the classes
/// `\d`, `\w`, `\s` and their negations.
package struct ResponsePattern: Sendable {
    private let regexp: IRegexp
    private let anchored: Bool

    package init(_ pattern: String) throws(IRegexpError) {
        var text = Substring(pattern)
        let starts = text.hasPrefix("^")
        if starts { text = text.dropFirst() }
        let ends = text.hasSuffix("$") && !text.hasSuffix("\\$")
        if ends { text = text.dropLast() }
        var translated = ""
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
                switch character {
                case "d": translated += "[0-9]"
                case "D": translated += "[^0-9]"
                case "w": translated += "[A-Za-z0-9_]"
                case "W": translated += "[^A-Za-z0-9_]"
                case "s": translated += "[ \\t\\n\\r]"
                case "S": translated += "[^ \\t\\n\\r]"
                default: translated += "\\" + String(character)
                }
                continue
            }
            if character == "\\" { escaped = true } else { translated.append(character) }
        }
        if escaped { translated += "\\" }
        // Anchored at one end only: anything (line ends too) on the other side, matched whole.
        let anything = "(.|\\n|\\r)*"
        anchored = starts || ends
        regexp = try IRegexp(
            anchored ? (starts ? "" : anything) + translated + (ends ? "" : anything) : translated)
    }

    /// Whether `text` matches.
    package func matches(_ text: String) -> Bool {
        anchored ? regexp.matches(text) : regexp.contains(text)
    }
}
