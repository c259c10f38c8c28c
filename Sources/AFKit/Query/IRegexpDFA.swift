/// Sets of a program's instructions as bit sets, one bit per instruction, for stepping a DFA state
/// a word at a time: a thread at a consuming instruction followed by another (most of
/// `(a{100}){100}`) moves on by a shift of its word, not one by one.
struct IRegexpMasks: Sendable {
    /// The words of one set.
    let words: Int
    /// For each ASCII scalar, the instructions that consume it (128 sets, one after the other).
    let consumers: [UInt64]
    /// The consuming instructions whose next one consumes too: a thread there moves on to pc + 1
    /// alone, with nothing to follow without consuming.
    let shifting: [UInt64]
    /// The consuming instructions.
    let consuming: [UInt64]
    /// The `$` instructions.
    let textEnds: [UInt64]
    /// What a state holds beside the instructions it only passed: consuming ones, `$`, `match`.
    let members: [UInt64]

    init(_ program: [IRegexpInstruction], asciiMasks: [UInt64]) {
        words = (program.count + 63) / 64
        var consumers = [UInt64](repeating: 0, count: 128 * words)
        var shifting = [UInt64](repeating: 0, count: words)
        var consuming = shifting
        var textEnds = shifting
        var members = shifting
        for (pc, instruction) in program.enumerated() {
            let bit = UInt64(1) << UInt64(pc & 63)
            switch instruction {
            case .scalar:
                consuming[pc >> 6] |= bit
                members[pc >> 6] |= bit
                if pc + 1 < program.count, case .scalar = program[pc + 1] { shifting[pc >> 6] |= bit }
                for half in 0..<2 {
                    var scalars = asciiMasks[2 * pc + half]
                    while scalars != 0 {
                        let scalar = half << 6 | scalars.trailingZeroBitCount
                        scalars &= scalars - 1
                        consumers[scalar * words + pc >> 6] |= bit
                    }
                }
            case .textEnd:
                textEnds[pc >> 6] |= bit
                members[pc >> 6] |= bit
            case .match:
                members[pc >> 6] |= bit
            default:
                break
            }
        }
        self.consumers = consumers
        self.shifting = shifting
        self.consuming = consuming
        self.textEnds = textEnds
        self.members = members
    }
}

/// The automaton one match of an `IRegexp` runs on: a DFA built lazily from the program, as RE2
/// and Rust's `regex` do. A state is the set of instructions the Thompson automaton's threads are
/// at, as bits; it is built the first time the text leads to it and cached with its transitions
/// (one table of 128 for ASCII, a dictionary for other scalars), so a pattern whose threads settle
/// into a few sets (`[a-z]{1,255}@`, `(a{100}){100}b`) runs at one table look-up per scalar.
/// A new state is built a word of threads at a time for an ASCII scalar (`IRegexpMasks`), the
/// threads one by one otherwise.
///
/// The cache is bounded (`cacheLimit` bytes); when it is full it is emptied and filled again from
/// the current state. RE2 then falls back to its NFA simulation when the cache thrashes; here
/// building a state costs what a step of that simulation would (the threads' instructions, once
/// each), so the DFA simply goes on: a scalar costs at most the program's size, never more.
///
/// Work is counted in units — one per scalar looked up, one per word of a state's bit set and per
/// instruction visited while building a state, more for hashing a set, keeping a new state and
/// testing a general category — spent from the caller's budget, and SIGINT and SIGTERM are
/// polled every `pollInterval` units.
struct IRegexpDFA {
    private let program: [IRegexpInstruction]
    private let operations: [Int32]
    private let masks: IRegexpMasks
    /// Whether the match must start at the text's start (`match()`); else one may start anywhere.
    private let anchored: Bool
    /// The words of a state's bit set (one bit per instruction).
    private let words: Int

    /// Each state's bit set: the instructions its threads are at or passed on the way.
    private var states: [[UInt64]] = []
    /// Per state: 1 when it holds `match`, 2 when it holds no thread.
    private var flags: [UInt8] = []
    /// The states by their bit sets.
    private var index: [[UInt64]: Int32] = [:]
    /// The ASCII transitions, 128 per state; -1 when not built yet.
    private var ascii: [Int32] = []
    /// The other scalars' transitions, by state << 32 | scalar.
    private var other: [UInt64: Int32] = [:]
    /// The bytes the cached states and transitions hold, about.
    private var cachedBytes = 0
    /// How often the cache was emptied: a transition from a state of an emptied cache is not kept.
    private(set) var clears = 0
    /// The most the cache may hold, in bytes, before it is emptied.
    private let cacheLimit: Int

    /// The bit set of the state being built, and the instructions still to visit for it.
    private var bits: [UInt64]
    private var stack: [Int32] = []

    /// The most the cache holds by default, in bytes (RE2 gives its DFA about as much).
    static let standardCacheLimit = 8 << 20
    /// The units of work between two looks at the interrupt flag (some microseconds).
    static let pollInterval = 4096

    /// The kinds of instruction in `IRegexp.operations`.
    enum Kind {
        static let scalar: Int32 = 0
        static let split: Int32 = 1
        static let jump: Int32 = 2
        static let textStart: Int32 = 3
        static let textEnd: Int32 = 4
        static let match: Int32 = 5
    }

    init(_ regexp: IRegexp, anchored: Bool, cacheLimit: Int = IRegexpDFA.standardCacheLimit) {
        program = regexp.program
        operations = regexp.operations
        masks = regexp.masks
        self.cacheLimit = cacheLimit
        self.anchored = anchored
        words = regexp.masks.words
        bits = [UInt64](repeating: 0, count: words)
    }

    /// Runs over `text`: whether it matches (whole when anchored, somewhere otherwise).
    mutating func run(_ text: String, budget: inout Int) throws(IRegexpStop) -> Bool {
        var work = 0
        begin(&work)
        add(0, atStart: true, atEnd: false, &work)
        var state = intern(&work)
        var empty = true
        for scalar in text.unicodeScalars {
            empty = false
            let stateFlags = flags[Int(state)]
            if !anchored, stateFlags & 1 != 0 { return true }
            if anchored, stateFlags & 2 != 0 { return false }
            let value = scalar.value
            let key = UInt64(UInt32(bitPattern: state)) << 32 | UInt64(value)
            var next = value < 128 ? ascii[Int(state) << 7 | Int(value)] : other[key] ?? -1
            work += 1
            if next < 0 {
                let clearsBefore = clears
                next = step(from: state, on: scalar, &work)
                if clears == clearsBefore {
                    if value < 128 {
                        ascii[Int(state) << 7 | Int(value)] = next
                    } else {
                        other[key] = next
                        cachedBytes += 32
                    }
                }
            }
            state = next
            if work >= IRegexpDFA.pollInterval { try spend(&work, from: &budget) }
        }
        if flags[Int(state)] & 1 != 0 {
            try spend(&work, from: &budget)
            return true
        }
        // At the end of the text the `$` threads go on.
        let last = states[Int(state)]
        begin(&work)
        for word in 0..<words {
            var ends = last[word] & masks.textEnds[word]
            while ends != 0 {
                add(Int32(word << 6 | ends.trailingZeroBitCount) + 1, atStart: empty, atEnd: true, &work)
                ends &= ends - 1
            }
        }
        try spend(&work, from: &budget)
        return holdsMatch
    }

    /// Takes `work` from `budget`; throws when it is spent or an interrupt arrived.
    private func spend(_ work: inout Int, from budget: inout Int) throws(IRegexpStop) {
        budget -= work
        work = 0
        if budget < 0 { throw .budgetSpent }
        if Interruption.isInterrupted { throw .interrupted }
    }

    /// The state after `state` reads `scalar`: its threads that consume the scalar, moved on (and
    /// a new thread at the start when the match may start anywhere).
    private mutating func step(from state: Int32, on scalar: Unicode.Scalar, _ work: inout Int) -> Int32 {
        begin(&work)
        let current = states[Int(state)]
        let value = scalar.value
        if value < 128 {
            // A word at a time: threads followed by a consuming instruction shift on together,
            // the others go on one by one.
            let consumers = Int(value) * words
            var carry: UInt64 = 0
            for word in 0..<words {
                let live = current[word] & masks.consumers[consumers + word]
                let shifting = live & masks.shifting[word]
                bits[word] |= shifting << 1 | carry
                carry = shifting >> 63
                var others = live & ~shifting
                while others != 0 {
                    add(Int32(word << 6 | others.trailingZeroBitCount) + 1, atStart: false, atEnd: false, &work)
                    others &= others - 1
                }
            }
            work += words
        } else {
            for word in 0..<words {
                var live = current[word] & masks.consuming[word]
                while live != 0 {
                    let pc = word << 6 | live.trailingZeroBitCount
                    live &= live - 1
                    guard case .scalar(let set) = program[pc] else { continue }
                    // A general category is looked up and compared by name: some tens of units each.
                    work += 1 + 32 * set.categories.count
                    if set.contains(scalar) { add(Int32(pc) + 1, atStart: false, atEnd: false, &work) }
                }
            }
        }
        if !anchored { add(0, atStart: false, atEnd: false, &work) }
        return intern(&work)
    }

    /// Starts building a state.
    private mutating func begin(_ work: inout Int) {
        for word in 0..<words { bits[word] = 0 }
        work += words
    }

    /// Adds `start` and everything reachable from it without consuming to the state being built;
    /// `^` is passed only at the text's start, `$` only at its end (else the thread waits there).
    private mutating func add(_ start: Int32, atStart: Bool, atEnd: Bool, _ work: inout Int) {
        stack.append(start)
        while let pc = stack.popLast() {
            work += 1
            let word = Int(pc) >> 6
            let bit = UInt64(1) << UInt64(pc & 63)
            guard bits[word] & bit == 0 else { continue }
            bits[word] |= bit
            let operation = 3 * Int(pc)
            switch operations[operation] {
            case Kind.jump:
                stack.append(operations[operation + 1])
            case Kind.split:
                stack.append(operations[operation + 2])
                stack.append(operations[operation + 1])
            case Kind.textStart:
                if atStart { stack.append(pc + 1) }
            case Kind.textEnd:
                if atEnd { stack.append(pc + 1) }
            default:
                break
            }
        }
    }

    /// Whether the state being built holds `match` (the program's last instruction).
    private var holdsMatch: Bool {
        let last = program.count - 1
        return bits[last >> 6] >> UInt64(last & 63) & 1 != 0
    }

    /// The number of the state just built: the cached one with its set, else a new one (the cache
    /// emptied first when it is full).
    private mutating func intern(_ work: inout Int) -> Int32 {
        // Hashing the set, and for a new one its copy, table and entry (an allocation or two).
        work += 2 * words
        if let known = index[bits] { return known }
        work += 8 * words + 256
        let cost = words * 8 + 128 * 4 + 96
        if cachedBytes + cost > cacheLimit, !states.isEmpty {
            states.removeAll()
            flags.removeAll()
            index.removeAll()
            ascii.removeAll()
            other.removeAll()
            cachedBytes = 0
            clears += 1
        }
        var holdsThreads = false
        for word in 0..<words where bits[word] & masks.members[word] != 0 {
            holdsThreads = true
            break
        }
        let number = Int32(states.count)
        index[bits] = number
        states.append(bits)
        flags.append((holdsMatch ? 1 : 0) | (holdsThreads ? 0 : 2))
        ascii.append(contentsOf: repeatElement(-1, count: 128))
        cachedBytes += cost
        return number
    }
}
