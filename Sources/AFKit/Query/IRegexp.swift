/// An RFC 9485 I-Regexp, the interoperable regular expressions of JSONPath's `match()` and
/// `search()`, compiled to a Thompson automaton and run as a lazily built DFA (`IRegexpDFA`): no
/// backtracking, and a cost bounded by limits, so a hostile pattern cannot hang afcli. A pattern
/// is refused when a counted repetition goes over `maximumRepetition` or its expanded program
/// over `maximumProgramSize` instructions (RE2 and Rust's `regex` bound their programs alike);
/// a match then costs at most the text's length times the program's, counted in units of work
/// against the caller's budget and stopped by SIGINT or SIGTERM. No regex library is needed.
package struct IRegexp: Sendable {
    /// The compiled program; execution starts at instruction 0 and the last one is `match`.
    let program: [IRegexpInstruction]
    /// For each instruction, the ASCII scalars it consumes as a 128-bit mask (two words, none for
    /// an instruction that consumes nothing): the DFA tests most scalars with a shift.
    let asciiMasks: [UInt64]
    /// The program as numbers, three per instruction (`IRegexpDFA.Kind`, then the targets of a
    /// split or the jump's): what building a DFA state walks, without copying the sets.
    let operations: [Int32]
    /// Sets of instructions as bits (`words` words each), which the DFA steps a word at a time.
    let masks: IRegexpMasks

    /// The most instructions a pattern may compile to (counted repetitions are expanded).
    package static let maximumProgramSize = 20_000
    /// The largest count a repetition (`{n}`, `{n,m}`) may have.
    package static let maximumRepetition = 1_000

    /// Compiles `pattern`; an invalid or too large one throws.
    package init(_ pattern: String) throws(IRegexpError) {
        var parser = IRegexpParser(scalars: Array(pattern.unicodeScalars))
        let tree = try parser.parseWhole()
        var compiler = IRegexpCompiler()
        try compiler.emit(tree)
        compiler.program.append(.match)
        program = compiler.program
        var asciiMasks: [UInt64] = []
        var operations: [Int32] = []
        asciiMasks.reserveCapacity(2 * program.count)
        operations.reserveCapacity(3 * program.count)
        for instruction in program {
            if case .scalar(let set) = instruction {
                asciiMasks.append(set.asciiMask[0])
                asciiMasks.append(set.asciiMask[1])
            } else {
                asciiMasks.append(0)
                asciiMasks.append(0)
            }
            switch instruction {
            case .scalar: operations.append(IRegexpDFA.Kind.scalar)
            case .split: operations.append(IRegexpDFA.Kind.split)
            case .jump: operations.append(IRegexpDFA.Kind.jump)
            case .textStart: operations.append(IRegexpDFA.Kind.textStart)
            case .textEnd: operations.append(IRegexpDFA.Kind.textEnd)
            case .match: operations.append(IRegexpDFA.Kind.match)
            }
            switch instruction {
            case .split(let first, let second):
                operations.append(Int32(first))
                operations.append(Int32(second))
            case .jump(let target):
                operations.append(Int32(target))
                operations.append(0)
            default:
                operations.append(0)
                operations.append(0)
            }
        }
        self.asciiMasks = asciiMasks
        self.operations = operations
        masks = IRegexpMasks(program, asciiMasks: asciiMasks)
    }

    /// Whether the whole of `text` matches (`match()`), spending at most `budget` units of work
    /// (what is left stays in it); throws when the budget runs out or SIGINT/SIGTERM arrives.
    package func matches(_ text: String, budget: inout Int) throws(IRegexpStop) -> Bool {
        var automaton = IRegexpDFA(self, anchored: true)
        return try automaton.run(text, budget: &budget)
    }

    /// Whether some substring of `text` matches (`search()`), within `budget` as `matches` is.
    package func contains(_ text: String, budget: inout Int) throws(IRegexpStop) -> Bool {
        var automaton = IRegexpDFA(self, anchored: false)
        return try automaton.run(text, budget: &budget)
    }

    /// Whether the whole of `text` matches, without a budget; false when interrupted.
    package func matches(_ text: String) -> Bool {
        var budget = Int.max
        return (try? matches(text, budget: &budget)) ?? false
    }

    /// Whether some substring of `text` matches, without a budget; false when interrupted.
    package func contains(_ text: String) -> Bool {
        var budget = Int.max
        return (try? contains(text, budget: &budget)) ?? false
    }
}

/// Why a match stopped before it knew its answer.
package enum IRegexpStop: ClassifiedError, Equatable {
    /// The units of work the caller allowed were spent.
    case budgetSpent
    /// SIGINT or SIGTERM arrived.
    case interrupted

    package var failureClass: FailureClass { self == .interrupted ? .interrupted : .limitExceeded }
}

/// A pattern that is not an I-Regexp, or compiles to more than the limits allow.
package struct IRegexpError: ClassifiedError, Equatable {
    package var position: Int
    package var reason: String
    /// Whether the pattern is valid but goes past a limit (`maximumRepetition`,
    /// `maximumProgramSize`), which a caller refuses where an invalid one may just not match.
    package var isLimit: Bool

    package init(position: Int, reason: String, isLimit: Bool = false) {
        self.position = position
        self.reason = reason
        self.isLimit = isLimit
    }

    /// A pattern the user wrote (JSONPath's match() and search() only ever return false for one).
    package var failureClass: FailureClass { .badInput }
}

/// One instruction of the automaton.
enum IRegexpInstruction: Equatable, Sendable {
    /// Consumes one scalar in the set.
    case scalar(IRegexpSet)
    case split(Int, Int)
    case jump(Int)
    /// `^`: only at the start of the text.
    case textStart
    /// `$`: only at the end of the text.
    case textEnd
    case match
}

/// A set of scalars: single ones, ranges and general categories, possibly complemented.
struct IRegexpSet: Equatable, Sendable {
    /// After `normalized()`, sorted and disjoint: `contains` searches them by halves.
    var ranges: [ClosedRange<UInt32>] = []
    /// Categories as one or two letters (`L`, `Lu`), each with whether it is complemented (`\P`).
    var categories: [(name: String, negated: Bool)] = []
    var negated = false
    /// The ASCII scalars in the set, bit by bit (0–63, 64–127), worked out by `normalized()`.
    var asciiMask: [UInt64] = [0, 0]

    static func == (left: IRegexpSet, right: IRegexpSet) -> Bool {
        left.ranges == right.ranges && left.negated == right.negated
            && left.categories.elementsEqual(right.categories) { $0.name == $1.name && $0.negated == $1.negated }
    }

    /// `.`: anything but a line feed or carriage return (RFC 9485 §5.3).
    static let dot = IRegexpSet(ranges: [0x0A...0x0A, 0x0D...0x0D], negated: true).normalized()

    /// The set with its ranges sorted and merged, each category once and its ASCII mask made:
    /// what the parser hands on, so that a class written with many ranges is tested as fast.
    func normalized() -> IRegexpSet {
        var result = self
        result.ranges = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.ranges.last, range.lowerBound <= last.upperBound &+ 1 {
                result.ranges[result.ranges.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.ranges.append(range)
            }
        }
        result.categories = []
        for category in categories
        where !result.categories.contains(where: { $0.name == category.name && $0.negated == category.negated }) {
            result.categories.append(category)
        }
        var mask: [UInt64] = [0, 0]
        for range in result.ranges where range.lowerBound < 128 {
            for value in range.lowerBound...min(range.upperBound, 127) { mask[Int(value >> 6)] |= 1 << (value & 63) }
        }
        for category in result.categories {
            let members = IRegexpSet.asciiCategoryMasks[category.name] ?? [0, 0]
            for word in 0..<2 { mask[word] |= category.negated ? ~members[word] : members[word] }
        }
        if negated { mask = mask.map { ~$0 } }
        result.asciiMask = mask
        return result
    }

    /// For each category name, the ASCII scalars in it as two mask words.
    private static let asciiCategoryMasks: [String: [UInt64]] = {
        var masks: [String: [UInt64]] = [:]
        let codes = (0..<128).map { categoryCode(Unicode.Scalar(UInt8($0)).properties.generalCategory) }
        for name in IRegexpParser.categories {
            var mask: [UInt64] = [0, 0]
            for (value, code) in codes.enumerated() where code.hasPrefix(name) { mask[value >> 6] |= 1 << UInt64(value & 63) }
            masks[name] = mask
        }
        return masks
    }()

    /// Whether the set holds `scalar` (a normalized set: the parser's).
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 128 { return asciiMask[Int(value >> 6)] >> (value & 63) & 1 != 0 }
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value { low = middle + 1 } else { high = middle }
        }
        var found = low < ranges.count && ranges[low].lowerBound <= value
        if !found, !categories.isEmpty {
            let code = IRegexpSet.categoryCode(scalar.properties.generalCategory)
            found = categories.contains { code.hasPrefix($0.name) != $0.negated }
        }
        return found != negated
    }

    /// The two-letter Unicode name of a general category.
    static func categoryCode(_ category: Unicode.GeneralCategory) -> String {
        switch category {
        case .uppercaseLetter: return "Lu"
        case .lowercaseLetter: return "Ll"
        case .titlecaseLetter: return "Lt"
        case .modifierLetter: return "Lm"
        case .otherLetter: return "Lo"
        case .nonspacingMark: return "Mn"
        case .spacingMark: return "Mc"
        case .enclosingMark: return "Me"
        case .decimalNumber: return "Nd"
        case .letterNumber: return "Nl"
        case .otherNumber: return "No"
        case .connectorPunctuation: return "Pc"
        case .dashPunctuation: return "Pd"
        case .openPunctuation: return "Ps"
        case .closePunctuation: return "Pe"
        case .initialPunctuation: return "Pi"
        case .finalPunctuation: return "Pf"
        case .otherPunctuation: return "Po"
        case .mathSymbol: return "Sm"
        case .currencySymbol: return "Sc"
        case .modifierSymbol: return "Sk"
        case .otherSymbol: return "So"
        case .spaceSeparator: return "Zs"
        case .lineSeparator: return "Zl"
        case .paragraphSeparator: return "Zp"
        case .control: return "Cc"
        case .format: return "Cf"
        case .surrogate: return "Cs"
        case .privateUse: return "Co"
        case .unassigned: return "Cn"
        @unknown default: return "Cn"
        }
    }
}

/// The parsed form of a pattern.
indirect enum IRegexpNode {
    case set(IRegexpSet)
    case textStart
    case textEnd
    case sequence([IRegexpNode])
    case alternation([IRegexpNode])
    /// `node{minimum,maximum}`; a nil maximum is unbounded.
    case repeated(IRegexpNode, minimum: Int, maximum: Int?)
}

/// Emits the Thompson construction of a tree.
struct IRegexpCompiler {
    var program: [IRegexpInstruction] = []
    /// The refusal of a pattern whose program would go past `IRegexp.maximumProgramSize`.
    static let tooLarge = IRegexpError(
        position: 0,
        reason: "the pattern is too large once its repetitions are expanded "
            + "(more than \(IRegexp.maximumProgramSize) instructions, the limit)", isLimit: true)

    /// Nodes emitted so far: a repetition of something empty (`(a{0}){1000}`) adds no
    /// instruction but still costs its loop, so the expansion is bounded by this count too.
    private var emitted = 0

    mutating func emit(_ node: IRegexpNode) throws(IRegexpError) {
        emitted += 1
        guard program.count < IRegexp.maximumProgramSize, emitted <= 4 * IRegexp.maximumProgramSize else {
            throw IRegexpCompiler.tooLarge
        }
        switch node {
        case .set(let set):
            program.append(.scalar(set))
        case .textStart:
            program.append(.textStart)
        case .textEnd:
            program.append(.textEnd)
        case .sequence(let nodes):
            for node in nodes { try emit(node) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (position, branch) in branches.enumerated() {
                if position < branches.count - 1 {
                    let split = program.count
                    program.append(.match)
                    try emit(branch)
                    jumps.append(program.count)
                    program.append(.match)
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let inner, let minimum, let maximum):
            for _ in 0..<minimum { try emit(inner) }
            if let maximum {
                // Optional copies nested, `x(x(x)?)?`: skipping one skips those after it, so a
                // thread at a copy has two ways on, not one per remaining copy.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    program.append(.match)
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let split = program.count
                program.append(.match)
                try emit(inner)
                program.append(.jump(split))
                program[split] = .split(split + 1, program.count)
            }
        }
    }
}
