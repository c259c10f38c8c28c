// Strings, numbers and literals: the per-byte part of the JSON state machine, copying tokens
// exactly as received while checking them against RFC 8259.
extension JSONFormatterCore {
    /// Copies string bytes up to the closing quote, checking escapes; returns the next index.
    mutating func scanString(_ p: UnsafePointer<UInt8>, _ start: Int, _ count: Int) throws -> Int {
        var i = start
        while i < count {
            if escape != 0 {
                let byte = p[i]
                if escape == 1 {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        escape = 0
                    case UInt8(ascii: "u"):
                        escape = 6
                    default:
                        try fail("invalid escape in string", at: i, in: p, count)
                        return count
                    }
                } else {
                    guard Self.isHexDigit(byte) else {
                        try fail("invalid \\u escape in string", at: i, in: p, count)
                        return count
                    }
                    escape = escape == 3 ? 0 : escape - 1
                }
                try emitString(p + i, 1)
                i += 1
                continue
            }
            var j = i
            // Eight bytes at a time while none is a quote, a backslash or a control character.
            while j + 8 <= count, !Self.endsStringRun(UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self)) {
                j += 8
            }
            while j < count {
                let byte = p[j]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
                j += 1
            }
            if j > i { try emitString(p + i, j - i) }
            i = j
            guard i < count else { break }
            let byte = p[i]
            if byte == 0x5C {
                escape = 1
                try emitString(p + i, 1)
                i += 1
            } else if byte == 0x22 {
                i += 1
                try stringEnded()
                try takeSeparators(p, &i, count)
                // `"value","key"`: the next key was started here, so keep scanning.
                if state != .string { return i }
            } else {
                try fail("control character in string", at: i, in: p, count)
                return count
            }
        }
        return i
    }

    /// Writes string bytes, or holds them with a key whose value is not known yet.
    mutating func emitString(_ source: UnsafePointer<UInt8>, _ length: Int) throws {
        if deferring {
            deferred.append(contentsOf: UnsafeBufferPointer(start: source, count: length))
        } else {
            try out.append(source, length)
        }
    }

    /// Closes a string: a key waits for its colon, a value ends.
    mutating func stringEnded() throws {
        if deferring {
            deferred.append(0x22)
            deferredKeyLength = deferred.count
            state = .colon
            return
        }
        out.append(0x22)
        if inColor { try out.append(colors.reset) }
        inColor = false
        if stringIsKey {
            state = .colon
        } else {
            try valueEnded()
        }
    }

    /// Copies number bytes while they fit the RFC 8259 grammar; returns the next index.
    mutating func scanNumber(_ p: UnsafePointer<UInt8>, _ start: Int, _ count: Int) throws -> Int {
        var i = start
        var state = numberState
        while i < count {
            // Runs of digits leave states 2, 4 and 7 unchanged.
            if state == 2 || state == 4 || state == 7 {
                while i < count, p[i] &- 0x30 < 10 { i += 1 }
                guard i < count else { break }
            }
            let next = Self.numberStep(state, p[i])
            if next == 0xFF { break }
            state = next
            i += 1
        }
        numberState = state
        if i > start { try out.append(p + start, i - start) }
        guard i < count else { return i }
        // The number ended at a byte that is not part of it: it must be complete.
        guard state == 1 || state == 2 || state == 4 || state == 7 else {
            try fail("invalid number", at: i, in: p, count)
            return count
        }
        if inColor { try out.append(colors.reset) }
        inColor = false
        try valueEnded()
        try takeSeparators(p, &i, count)
        return i
    }

    /// The common separators after a string or number, taken without a trip through the
    /// dispatcher in `run`: a key's `:`, and `,"` between an object's members (which starts the
    /// next key). Anything unusual (white space, `--drop-nulls`, layout as received) is left to
    /// the general path.
    @inline(__always) mutating func takeSeparators(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ count: Int) throws {
        guard !dropsNulls, layout != .preserved, i < count else { return }
        if state == .colon {
            guard p[i] == UInt8(ascii: ":") else { return }
            try writeColon()
            state = .value
            i += 1
        } else if state == .afterValue, i + 1 < count, p[i] == UInt8(ascii: ","), p[i + 1] == 0x22,
            stack.top & 1 != 0
        {
            i += 2
            try beginItem()
            try out.append(colors.key)
            inColor = !colors.key.isEmpty
            out.append(0x22)
            stringIsKey = true
            escape = 0
            state = .string
        }
    }

    /// Whether any byte of `word` ends a run of plain string bytes: `"`, `\` or below 0x20
    /// (SWAR: a zero byte after XOR, or a byte that borrows when 0x20 is subtracted).
    @inline(__always) static func endsStringRun(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let found = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return found & highs != 0
    }

    /// The number grammar: 0 after `-`, 1 after a leading `0`, 2 in integer digits, 3 after `.`,
    /// 4 in fraction digits, 5 after `e`, 6 after the exponent sign, 7 in exponent digits; 0xFF
    /// when `byte` cannot continue the number.
    @inline(__always) static func numberStep(_ state: UInt8, _ byte: UInt8) -> UInt8 {
        let digit = byte &- 0x30 < 10
        switch state {
        case 0: return byte == 0x30 ? 1 : (digit ? 2 : 0xFF)
        case 1: return byte == 0x2E ? 3 : (byte | 0x20 == 0x65 ? 5 : 0xFF)
        case 2: return digit ? 2 : (byte == 0x2E ? 3 : (byte | 0x20 == 0x65 ? 5 : 0xFF))
        case 3: return digit ? 4 : 0xFF
        case 4: return digit ? 4 : (byte | 0x20 == 0x65 ? 5 : 0xFF)
        case 5: return digit ? 7 : (byte == 0x2B || byte == 0x2D ? 6 : 0xFF)
        case 6, 7: return digit ? 7 : 0xFF
        default: return 0xFF
        }
    }

    /// Whether `byte` is an ASCII hex digit.
    @inline(__always) static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 6
    }

    /// Closes `true`, `false` or `null`; a held null is dropped with its key.
    mutating func literalEnded() throws {
        if deferring {
            // Only `null` is deferred: drop it, and its key with it.
            deferring = false
            deferred.removeAll(keepingCapacity: true)
            state = .afterValue
            return
        }
        if inColor { try out.append(colors.reset) }
        inColor = false
        try valueEnded()
    }
}
