/// An RFC 9485 I-Regexp, the interoperable regular expressions of JSONPath's `match()` and
/// `search()`, compiled to a Thompson automaton and run as a Pike VM: time linear in the text times
/// the pattern, no backtracking, so a hostile pattern cannot hang afcli. No regex library is needed.
package struct IRegexp: Sendable {
    /// The compiled program; execution starts at instruction 0.
    let program: [IRegexpInstruction]

    /// The most instructions a pattern may compile to (counted repetitions are expanded).
    package static let maximumProgramSize = 20_000

    /// Compiles `pattern`; an invalid or too large one throws.
    package init(_ pattern: String) throws(IRegexpError) {
        var parser = IRegexpParser(scalars: Array(pattern.unicodeScalars))
        let tree = try parser.parseWhole()
        var compiler = IRegexpCompiler()
        try compiler.emit(tree)
        compiler.program.append(.match)
        program = compiler.program
    }

    /// Whether the whole of `text` matches (`match()`).
    package func matches(_ text: String) -> Bool { run(Array(text.unicodeScalars), anchored: true) }

    /// Whether some substring of `text` matches (`search()`).
    package func contains(_ text: String) -> Bool { run(Array(text.unicodeScalars), anchored: false) }

    /// Runs the automaton over `text`, all threads in lock step.
    private func run(_ text: [Unicode.Scalar], anchored: Bool) -> Bool {
        var current: [Int] = []
        var next: [Int] = []
        var marks = [Int](repeating: -1, count: program.count)
        var generation = 0
        var stack: [Int] = []
        /// Adds `start` and everything reachable from it without consuming to `list`, at `position`.
        func add(_ start: Int, to list: inout [Int], at position: Int) {
            stack.append(start)
            while let pc = stack.popLast() {
                guard marks[pc] != generation else { continue }
                marks[pc] = generation
                switch program[pc] {
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .textStart: if position == 0 { stack.append(pc + 1) }
                case .textEnd: if position == text.count { stack.append(pc + 1) }
                default: list.append(pc)
                }
            }
        }
        add(0, to: &current, at: 0)
        for position in 0...text.count {
            if !anchored || position == text.count {
                for pc in current where program[pc] == .match { return true }
            }
            guard position < text.count else { break }
            generation += 1
            next.removeAll(keepingCapacity: true)
            let scalar = text[position]
            for pc in current {
                if case .scalar(let set) = program[pc], set.contains(scalar) { add(pc + 1, to: &next, at: position + 1) }
            }
            if !anchored { add(0, to: &next, at: position + 1) }
            swap(&current, &next)
            if current.isEmpty { return false }
        }
        return false
    }
}

/// A pattern that is not an I-Regexp, or compiles to more than the limit allows.
package struct IRegexpError: ClassifiedError, Equatable {
    package var position: Int
    package var reason: String

    package init(position: Int, reason: String) {
        self.position = position
        self.reason = reason
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
    var ranges: [ClosedRange<UInt32>] = []
    /// Categories as one or two letters (`L`, `Lu`), each with whether it is complemented (`\P`).
    var categories: [(name: String, negated: Bool)] = []
    var negated = false

    static func == (left: IRegexpSet, right: IRegexpSet) -> Bool {
        left.ranges == right.ranges && left.negated == right.negated
            && left.categories.elementsEqual(right.categories) { $0.name == $1.name && $0.negated == $1.negated }
    }

    /// `.`: anything but a line feed or carriage return (RFC 9485 §5.3).
    static let dot = IRegexpSet(ranges: [0x0A...0x0A, 0x0D...0x0D], negated: true)

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        var found = ranges.contains { $0.contains(scalar.value) }
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

    mutating func emit(_ node: IRegexpNode) throws(IRegexpError) {
        guard program.count < IRegexp.maximumProgramSize else {
            throw IRegexpError(position: 0, reason: "pattern too large once repetitions are expanded")
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
                // Each optional copy may be skipped to the end.
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
