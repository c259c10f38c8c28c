/// Shows control characters from the network as text on a terminal, where they would act: a
/// server's `ESC ] 0 ; title BEL` would retitle the window, `ESC [ 2 J` clear the screen.
///
/// C0 controls other than tab and line feed, a carriage return not followed by a line feed, DEL,
/// and the C1 controls U+0080 to U+009F (as UTF-8) are written as `\xHH`, the code point in hex
/// (`\x1b`, `\x07`, `\x9b`). Output that goes to a pipe or a file is never passed through here.
///
/// With `passesColorSequences`, SGR sequences (`ESC [ digits ; … m`) pass unchanged: they are the
/// formatters' own colours, since formatted JSON and XML cannot hold a raw ESC and formatters
/// escape it in what they show as received (`OutputBuffer.escapesRawControls`).
package struct TerminalEscaper {
    /// Whether colour sequences pass (the output's formatter adds colour).
    package var passesColorSequences: Bool
    /// The end of the previous chunk that could not be judged yet: a CR, a UTF-8 lead byte 0xC2,
    /// or the start of an escape sequence.
    private var held: [UInt8] = []
    /// The longest SGR sequence passed whole; anything longer is escaped.
    private static let longestSequence = 32

    /// An escaper; `passesColorSequences` when a formatter adds colour to this output.
    package init(passesColorSequences: Bool) {
        self.passesColorSequences = passesColorSequences
    }

    /// What ESC becomes: `\x1b`.
    static let escapeText = StaticBytes("\\x1b")

    /// Escapes `chunk`, handing the result to `write` in runs; bytes that depend on what follows
    /// are held until the next call or `finish`.
    package mutating func escape(
        _ chunk: UnsafeRawBufferPointer, _ write: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard !chunk.isEmpty else { return }
        if held.isEmpty, let base = chunk.baseAddress {
            try run(base.assumingMemoryBound(to: UInt8.self), chunk.count, final: false, write)
            return
        }
        var joined = held
        held = []
        joined.append(contentsOf: chunk)
        try joined.withUnsafeBufferPointer { try run($0.baseAddress!, $0.count, final: false, write) }
    }

    /// Writes whatever is held, escaped as it stands (the output ended).
    package mutating func finish(_ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !held.isEmpty else { return }
        let rest = held
        held = []
        try rest.withUnsafeBufferPointer { try run($0.baseAddress!, $0.count, final: true, write) }
    }

    /// Copies runs of harmless bytes and escapes the rest; with `final` false, a byte whose fate
    /// depends on bytes not seen yet is held.
    private mutating func run(
        _ p: UnsafePointer<UInt8>, _ count: Int, final: Bool, _ write: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var start = 0
        var i = 0
        func flushRun(_ end: Int) throws {
            if end > start { try write(UnsafeRawBufferPointer(start: p + start, count: end - start)) }
        }
        while i < count {
            // Eight bytes at a time while none is below 0x20, DEL or 0xC2.
            while i + 8 <= count, !Self.mayNeedEscape(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) { i += 8 }
            guard i < count else { break }
            let byte = p[i]
            switch byte {
            case 0x09, 0x0A:
                i += 1
                continue
            case 0x0D:
                if i + 1 < count {
                    if p[i + 1] == 0x0A {
                        i += 2
                        continue
                    }
                } else if !final {
                    try flushRun(i)
                    held = [byte]
                    return
                }
            case 0xC2:
                if i + 1 < count {
                    guard (0x80...0x9F).contains(p[i + 1]) else {
                        i += 1
                        continue
                    }
                    try flushRun(i)
                    try write(Self.hex(p[i + 1]))
                    i += 2
                    start = i
                    continue
                } else if !final {
                    try flushRun(i)
                    held = [byte]
                    return
                }
                i += 1
                continue
            case 0x1B where passesColorSequences:
                switch Self.colorSequenceLength(p + i, count - i) {
                case .some(let length) where length > 0:
                    i += length
                    continue
                case .none where !final:
                    try flushRun(i)
                    held = Array(UnsafeBufferPointer(start: p + i, count: count - i))
                    return
                default:
                    break
                }
            case 0x20..<0x7F, 0x80...0xFF:
                i += 1
                continue
            default:
                break
            }
            try flushRun(i)
            try write(Self.hex(byte))
            i += 1
            start = i
        }
        try flushRun(count)
    }

    /// The length of the SGR sequence at `p` (`ESC [ [0-9;]* m`); 0 when it is not one, nil when
    /// the bytes end before it is known.
    private static func colorSequenceLength(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        guard count > 1 else { return nil }
        guard p[1] == UInt8(ascii: "[") else { return 0 }
        var i = 2
        while i < count, i < longestSequence {
            let byte = p[i]
            if byte == UInt8(ascii: "m") { return i + 1 }
            guard byte &- 0x30 < 10 || byte == UInt8(ascii: ";") else { return 0 }
            i += 1
        }
        return i >= longestSequence ? 0 : nil
    }

    /// `\xHH` for a byte.
    private static func hex(_ byte: UInt8) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: table.base + Int(byte) * 4, count: 4)
    }

    /// `\x00` to `\xff`, four bytes each.
    private static let table: StaticBytes = {
        let digits = Array("0123456789abcdef".utf8)
        var text = ""
        for byte in 0..<256 {
            text += "\\x" + String(UnicodeScalar(digits[byte >> 4])) + String(UnicodeScalar(digits[byte & 15]))
        }
        return StaticBytes(text)
    }()

    /// Whether any byte of `word` is below 0x20, 0x7F or 0xC2 (SWAR, as in the JSON scanner).
    @inline(__always) private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let del = word ^ (ones &* 0x7F)
        let lead = word ^ (ones &* 0xC2)
        let found = ((word &- ones &* 0x20) & ~word) | ((del &- ones) & ~del) | ((lead &- ones) & ~lead)
        return found & highs != 0
    }
}

extension String {
    /// The text with control characters shown as `TerminalEscaper` shows them, for header values
    /// bound for a terminal.
    package var escapingTerminalControls: String {
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return self }
        var escaper = TerminalEscaper(passesColorSequences: false)
        var out: [UInt8] = []
        Array(utf8).withUnsafeBytes { chunk in
            try? escaper.escape(chunk) { out.append(contentsOf: $0) }
            try? escaper.finish { out.append(contentsOf: $0) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text as one line of a diagnostic (`afcli: error: …`): a line feed is written `\n` and
    /// every other control character as `escapingTerminalControls` writes it, so that text a server
    /// or a file chose can neither act on a terminal nor pass for a line of afcli's own.
    package var escapingControlsOnOneLine: String {
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 8)
        for byte in utf8 {
            if byte == 0x0A { bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")] } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self).escapingTerminalControls
    }
}
