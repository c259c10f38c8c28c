/// A recursive-descent parser for the grammar of RFC 9485 §3.
struct IRegexpParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    var depth = 0
    var atoms = 0

    /// The deepest nesting of groups accepted.
    static let maximumDepth = 64

    /// The whole pattern as one tree; anything left over is an error.
    mutating func parseWhole() throws(IRegexpError) -> IRegexpNode {
        let tree = try parseAlternation()
        guard index == scalars.count else { throw failure("unexpected '\(scalars[index])'") }
        return tree
    }

    /// `i-regexp = branch *( "|" branch )`.
    mutating func parseAlternation() throws(IRegexpError) -> IRegexpNode {
        var branches = [try parseBranch()]
        while peek == "|" {
            index += 1
            branches.append(try parseBranch())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    /// `branch = *piece`.
    mutating func parseBranch() throws(IRegexpError) -> IRegexpNode {
        var pieces: [IRegexpNode] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            let atom = try parseAtom()
            pieces.append(try parseQuantifier(on: atom))
        }
        return pieces.count == 1 ? pieces[0] : .sequence(pieces)
    }

    /// `piece = atom [ quantifier ]`.
    mutating func parseQuantifier(on atom: IRegexpNode) throws(IRegexpError) -> IRegexpNode {
        switch peek {
        case "*":
            index += 1
            return .repeated(atom, minimum: 0, maximum: nil)
        case "+":
            index += 1
            return .repeated(atom, minimum: 1, maximum: nil)
        case "?":
            index += 1
            return .repeated(atom, minimum: 0, maximum: 1)
        case "{":
            index += 1
            let minimum = try parseCount()
            var maximum: Int? = minimum
            if peek == "," {
                index += 1
                maximum = peek == "}" ? nil : try parseCount()
            }
            guard peek == "}" else { throw failure("expected '}'") }
            index += 1
            if let maximum, maximum < minimum { throw failure("repetition range out of order") }
            return .repeated(atom, minimum: minimum, maximum: maximum)
        default:
            return atom
        }
    }

    /// `QuantExact = 1*%x30-39`, at most `IRegexp.maximumRepetition`.
    mutating func parseCount() throws(IRegexpError) -> Int {
        let start = index
        var value = 0
        var digits = 0
        while let scalar = peek, ("0"..."9").contains(scalar) {
            value = min(value * 10 + Int(scalar.value - 48), 1_000_000_000)
            digits += 1
            index += 1
        }
        guard digits > 0 else { throw failure("expected a number") }
        guard value <= IRegexp.maximumRepetition else {
            throw IRegexpError(
                position: start,
                reason: "the repetition count \(value == 1_000_000_000 ? "" : "\(value) ")is over the limit of "
                    + "\(IRegexp.maximumRepetition)", isLimit: true)
        }
        return value
    }

    /// `atom = NormalChar / charClass / ( "(" i-regexp ")" )`. A pattern of more atoms than a
    /// program may have instructions is refused here, before its whole tree is built.
    mutating func parseAtom() throws(IRegexpError) -> IRegexpNode {
        atoms += 1
        guard atoms <= IRegexp.maximumProgramSize else { throw IRegexpCompiler.tooLarge }
        let scalar = scalars[index]
        switch scalar {
        case "(":
            guard depth < IRegexpParser.maximumDepth else { throw failure("groups nested too deeply") }
            index += 1
            depth += 1
            let inner = try parseAlternation()
            depth -= 1
            guard peek == ")" else { throw failure("expected ')'") }
            index += 1
            return inner
        case ".":
            index += 1
            return .set(.dot)
        // RFC 9485 lists ^ and $ as ordinary characters, but its §5 mappings and the RFC 9535
        // compliance suite treat them as the anchors every regex dialect has.
        case "^":
            index += 1
            return .textStart
        case "$":
            index += 1
            return .textEnd
        case "[":
            return .set(try parseClassExpression().normalized())
        case "\\":
            return .set(try parseEscape(inClass: false).normalized())
        case "*", "+", "?", "{", "}", "]":
            throw failure("unexpected '\(scalar)'")
        default:
            guard !(0xD800...0xDFFF).contains(scalar.value) else { throw failure("surrogate code point") }
            index += 1
            return .set(IRegexpSet(ranges: [scalar.value...scalar.value]).normalized())
        }
    }

    /// `charClassExpr = "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"`.
    mutating func parseClassExpression() throws(IRegexpError) -> IRegexpSet {
        index += 1
        var set = IRegexpSet()
        if peek == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = peek else { throw failure("unterminated character class") }
            if scalar == "]", !first {
                index += 1
                return set
            }
            if scalar == "-" {
                // Only first, or last before "]".
                guard first || (index + 1 < scalars.count && scalars[index + 1] == "]") else {
                    throw failure("'-' must be first or last in a character class")
                }
                index += 1
                set.ranges.append(0x2D...0x2D)
                first = false
                continue
            }
            first = false
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "p" || scalars[index + 1] == "P" {
                let escaped = try parseEscape(inClass: true)
                set.categories.append(contentsOf: escaped.categories)
                continue
            }
            let low = try parseClassCharacter()
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                let high = try parseClassCharacter()
                guard low <= high else { throw failure("character range out of order") }
                set.ranges.append(low...high)
            } else {
                set.ranges.append(low...low)
            }
        }
    }

    /// `CCchar`: a literal class character or a single-character escape.
    mutating func parseClassCharacter() throws(IRegexpError) -> UInt32 {
        guard let scalar = peek else { throw failure("unterminated character class") }
        if scalar == "\\" {
            let escaped = try parseEscape(inClass: true)
            guard escaped.categories.isEmpty, escaped.ranges.count == 1 else { throw failure("category in a range") }
            return escaped.ranges[0].lowerBound
        }
        guard scalar != "[", scalar != "]", scalar != "-", !(0xD800...0xDFFF).contains(scalar.value) else {
            throw failure("unexpected '\(scalar)' in a character class")
        }
        index += 1
        return scalar.value
    }

    /// `SingleCharEsc`, `\p{…}` or `\P{…}` after a backslash.
    mutating func parseEscape(inClass: Bool) throws(IRegexpError) -> IRegexpSet {
        index += 1
        guard let scalar = peek else { throw failure("pattern ends in '\\'") }
        index += 1
        switch scalar {
        case "n": return IRegexpSet(ranges: [0x0A...0x0A])
        case "r": return IRegexpSet(ranges: [0x0D...0x0D])
        case "t": return IRegexpSet(ranges: [0x09...0x09])
        case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}":
            return IRegexpSet(ranges: [scalar.value...scalar.value])
        case "p", "P":
            guard peek == "{" else { throw failure("expected '{' after \\\(scalar)") }
            index += 1
            var name = ""
            while let letter = peek, letter != "}" {
                name.unicodeScalars.append(letter)
                index += 1
            }
            guard peek == "}", IRegexpParser.categories.contains(name) else {
                throw failure("unknown character category '\(name)'")
            }
            index += 1
            return IRegexpSet(categories: [(name, scalar == "P")])
        default:
            throw failure("invalid escape '\\\(scalar)'")
        }
    }

    /// The category names `IsCategory` allows.
    static let categories: Set<String> = [
        "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs", "S", "Sc", "Sk", "Sm", "So",
        "C", "Cc", "Cf", "Cn", "Co",
    ]

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func failure(_ reason: String) -> IRegexpError { IRegexpError(position: index, reason: reason) }
}
