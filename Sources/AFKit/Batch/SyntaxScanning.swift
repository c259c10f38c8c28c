import Glibc

// Byte-level scans of the `.http` syntax and of `afcli run -` lines: the syntax is ASCII, so
// its blanks, braces and prefixes are found in the UTF-8 bytes, where comparing Characters would
// cost far more per line.

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    package func trimmingBlanks() -> String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        // Bounds found on the UTF-8 view (blanks are ASCII, so they fall between characters):
        // `first...last` would step over the last character by grapheme breaking instead.
        if first == startIndex, last == utf8.index(before: endIndex) { return String(self) }
        return String(self[first..<utf8.index(after: last)])
    }
}

extension StringProtocol {
    /// Whether the text is `word` with nothing but blanks (spaces, tabs) around it, answered
    /// without a trimmed copy.
    package func isBlankPadded(_ word: StaticString) -> Bool {
        let utf8 = self.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex, utf8[index] == 0x20 || utf8[index] == 0x09 { index = utf8.index(after: index) }
        for byte in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard index < utf8.endIndex, utf8[index] == byte else { return false }
            index = utf8.index(after: index)
        }
        while index < utf8.endIndex {
            guard utf8[index] == 0x20 || utf8[index] == 0x09 else { return false }
            index = utf8.index(after: index)
        }
        return true
    }

    /// Whether the text starts with the bytes of `prefix`, compared byte for byte: the `.http`
    /// syntax is ASCII, and `hasPrefix`'s comparison of characters costs far more per line.
    package func hasASCIIPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        let compared = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.count >= count else { return false }
            guard count > 0, let base = bytes.baseAddress else { return true }
            return memcmp(base, prefix.utf8Start, count) == 0
        }
        return compared ?? utf8.starts(with: UnsafeBufferPointer(start: prefix.utf8Start, count: count))
    }

    /// Whether the text has `{{`, which opens a `{{variable}}` or a `{{ … }}` block, found with
    /// memchr without decoding the text: most lines and values have none, and skip the rest.
    package func containsVariableOpening() -> Bool {
        let scan = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            guard bytes.count > 1, let base = bytes.baseAddress else { return false }
            let brace = UInt8(ascii: "{")
            var offset = 0
            // Each `{` before the last byte, checked for a second one after it.
            while offset < bytes.count - 1, let found = memchr(base + offset, Int32(brace), bytes.count - 1 - offset) {
                let position = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                if bytes[position + 1] == brace { return true }
                offset = position + 1
            }
            return false
        }
        return utf8.withContiguousStorageIfAvailable(scan) ?? Array(utf8).withUnsafeBufferPointer(scan)
    }

    /// Whether the text's UTF-8 holds `byte`: memchr over a native string's bytes.
    package func containsUTF8Byte(_ byte: UInt8) -> Bool {
        let found = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        }
        return found ?? utf8.contains(byte)
    }
}

extension String {
    /// A line read as bytes, as text; nil when it is not UTF-8. An ASCII line (nearly every line
    /// of a `.http` file or of `afcli run -`) is made without the generic validation, which costs
    /// about a thousand instructions a line.
    package init?(validatingLine bytes: UnsafeBufferPointer<UInt8>) {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            self.init(decoding: bytes, as: UTF8.self)
        } else {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            self = text
        }
    }

    /// The ranges of the words of the text, separated by spaces and tabs; with `keepingVariables`,
    /// a `{{ … }}` is part of its word, blanks and all. Blanks and braces are ASCII, so the text's
    /// UTF-8 bytes split where its characters would.
    package func blankSeparatedWords(keepingVariables: Bool) -> [Range<String.Index>] {
        var text = self
        let offsets = text.withUTF8 { Self.blankSeparatedWords(in: $0, keepingVariables: keepingVariables) }
        // UTF-8 offsets of a native string become indices without a walk.
        return offsets.map { range in
            utf8.index(startIndex, offsetBy: range.lowerBound)..<utf8.index(startIndex, offsetBy: range.upperBound)
        }
    }

    /// The words of the text as `blankSeparatedWords(keepingVariables:)` splits it.
    package func blankSeparatedWordTexts(keepingVariables: Bool) -> [String] {
        var text = self
        return text.withUTF8 { bytes in
            Self.blankSeparatedWords(in: bytes, keepingVariables: keepingVariables).map {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
            }
        }
    }

    /// The byte ranges of the words of `bytes`, as `blankSeparatedWords(keepingVariables:)` splits them.
    private static func blankSeparatedWords(
        in bytes: UnsafeBufferPointer<UInt8>, keepingVariables: Bool
    ) -> [Range<Int>] {
        guard let base = bytes.baseAddress else { return [] }
        let count = bytes.count
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(4)
        var index = 0
        while true {
            while index < count, isBlank(base[index]) { index += 1 }
            guard index < count else { return ranges }
            let start = index
            var previous: UInt8 = 0
            var inBraces = false
            while index < count {
                let byte = base[index]
                if !inBraces, isBlank(byte) { break }
                if keepingVariables, byte == previous, byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") {
                    inBraces = byte == UInt8(ascii: "{")
                }
                previous = byte
                index += 1
            }
            ranges.append(start..<index)
        }
    }
}
