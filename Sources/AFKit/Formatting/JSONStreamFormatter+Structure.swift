// Containers, separators, key sorting and giving up: the parts of the JSON state machine that run
// once per token rather than once per byte.
extension JSONFormatterCore {
    var isIndented: Bool {
        if case .indented = layout { return true }
        return false
    }

    /// Writes what comes before a value: an array's separator, or a held key that turned out not
    /// to be null.
    @inline(__always) mutating func beginValue() throws {
        if deferring {
            deferring = false
            try beginItem()
            try out.append(colors.key)
            try deferred.withUnsafeBufferPointer { try out.append($0.baseAddress!, deferredKeyLength) }
            if !colors.key.isEmpty { try out.append(colors.reset) }
            try writeColon()
            deferred.removeAll(keepingCapacity: true)
            return
        }
        if depth > 0, stack.top & 1 == 0 { try beginItem() }
    }

    /// Writes the separator before a container's item: `,` after the first, and in the indented
    /// layout a line break and the indentation.
    @inline(__always) mutating func beginItem() throws {
        let hadItems = stack.top & 2 != 0
        stack.top |= 2
        switch layout {
        case .indented:
            let width = depth * indentWidth
            if colors.punctuation.isEmpty, width <= words.lineBreaks.count - 2 {
                // One copy of ",\n" (or "\n") and the indentation from a precomputed block.
                let skip = hadItems ? 0 : 1
                try out.append(words.lineBreaks.base + skip, 2 - skip + width)
                return
            }
            if hadItems { try punctuation(UInt8(ascii: ",")) }
            out.append(0x0A)
            try out.appendRepeated(0x20, count: width)
        case .compact:
            if hadItems { try punctuation(UInt8(ascii: ",")) }
        case .preserved:
            break
        }
    }

    /// Writes the separator between a key and its value.
    mutating func writeColon() throws {
        try punctuation(UInt8(ascii: ":"))
        if isIndented { out.append(0x20) }
    }

    /// Writes one punctuation byte, coloured when the style colours punctuation.
    @inline(__always) mutating func punctuation(_ byte: UInt8) throws {
        if colors.punctuation.isEmpty {
            out.append(byte)
        } else {
            try out.append(colors.punctuation)
            out.append(byte)
            try out.append(colors.reset)
        }
    }

    /// Closes the innermost container with `byte`; false (after giving up) when it does not match.
    mutating func close(_ byte: UInt8, _ p: UnsafePointer<UInt8>, _ i: Int, _ count: Int) throws -> Bool {
        let top = stack.top
        guard (byte == UInt8(ascii: "}")) == (top & 1 != 0) else {
            try fail(top & 1 != 0 ? "expected '}'" : "expected ']'", at: i, in: p, count)
            return false
        }
        if top & 2 != 0, isIndented {
            let width = (depth - 1) * indentWidth
            if width <= words.lineBreaks.count - 2 {
                try out.append(words.lineBreaks.base + 1, 1 + width)
            } else {
                out.append(0x0A)
                try out.appendRepeated(0x20, count: width)
            }
        }
        _ = stack.pop()
        try punctuation(byte)
        try valueEnded()
        return true
    }

    /// A value is complete: inside a container a separator or close follows; at the top the
    /// document (or, in a sequence, one of its values) is done.
    @inline(__always) mutating func valueEnded() throws {
        if depth > 0 {
            state = .afterValue
            return
        }
        valuesSeen += 1
        if isIndented || (allowsSequence && layout == .compact) { out.append(0x0A) }
        state = allowsSequence ? .value : .trailing
    }

    // MARK: - Sorting

    /// Copies the object being sorted up to its closing brace (strings may hold brackets);
    /// returns the next index. An object larger than `sortedObjectLimit` is formatted unsorted,
    /// and so is everything after it.
    mutating func scanCapture(_ p: UnsafePointer<UInt8>, _ start: Int, _ count: Int) throws -> Int {
        var i = start
        if capture.count + (count - start) > sortedObjectLimit {
            // Not all of this chunk may belong to the object, but holding it costs no more than
            // one chunk beyond the limit, and formatting it unsorted is just as right.
            capture.append(contentsOf: UnsafeBufferPointer(start: p + start, count: count - start))
            try stopSorting()
            return count
        }
        while i < count {
            let byte = p[i]
            if captureInString {
                if captureEscaped {
                    captureEscaped = false
                } else if byte == 0x5C {
                    captureEscaped = true
                } else if byte == 0x22 {
                    captureInString = false
                }
            } else if byte == 0x22 {
                captureInString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                captureDepth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                captureDepth -= 1
                if captureDepth == 0 {
                    capture.append(contentsOf: UnsafeBufferPointer(start: p + start, count: i + 1 - start))
                    try captureEnded(p, i + 1, count)
                    return state == .failed ? count : i + 1
                }
            }
            i += 1
        }
        capture.append(contentsOf: UnsafeBufferPointer(start: p + start, count: count - start))
        return count
    }

    /// Gives up sorting for the rest of the body: the bytes held so far are formatted as they
    /// came, and the scanner goes on without holding objects.
    private mutating func stopSorting() throws {
        sortsKeys = false
        let limit =
            sortedObjectLimit >= 1024 * 1024 ? "\(sortedObjectLimit / (1024 * 1024)) MiB" : "\(sortedObjectLimit) bytes"
        warnings.append("an object at byte \(captureStart) is larger than \(limit): keys are not sorted from there on")
        let held = capture
        capture = []
        captureGap = []
        state = .value
        // Offsets in warnings count from the start of the object.
        let chunkStart = consumed
        consumed = captureStart
        defer { consumed = chunkStart }
        try held.withUnsafeBufferPointer { try run($0.baseAddress!, $0.count, raw: false) }
    }

    /// Sorts the copied object and formats the sorted copy in its place.
    private mutating func captureEnded(_ p: UnsafePointer<UInt8>, _ next: Int, _ count: Int) throws {
        let sorted: [UInt8]
        do {
            sorted = try JSONKeySorter.sorted(capture, maximumDepth: maximumDepth - depth)
        } catch {
            try giveUp(
                error.isTooDeep ? FormattingLimits.tooDeep(maximumDepth) : error.reason, offset: captureStart + error.offset, pending: captureGap + capture,
                rest: UnsafeBufferPointer(start: p + next, count: count - next))
            return
        }
        capture.removeAll(keepingCapacity: true)
        sortsKeys = false
        state = .value
        try sorted.withUnsafeBufferPointer { try run($0.baseAddress!, $0.count, raw: false) }
        sortsKeys = true
    }

    // MARK: - Giving up

    /// Whether `byte` may stand between tokens unwritten: white space, or `,` (written only with
    /// the next item).
    @inline(__always) static func isGapByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == UInt8(ascii: ",")
    }

    /// Whether the scanner stands between tokens, where separators and white space are read but
    /// not yet written.
    var isBetweenTokens: Bool {
        switch state {
        case .value, .firstOrClose, .key, .colon, .afterValue, .trailing: return !deferring
        default: return false
        }
    }

    /// The separator and white space read before byte `i` of `p` (nil: at the end of the input)
    /// and not written: those of this chunk, and when they reach its start, those that ended the
    /// input before it. Empty when the layout writes them as received.
    func gapBefore(_ p: UnsafePointer<UInt8>?, _ i: Int) -> [UInt8] {
        guard layout != .preserved else { return [] }
        var j = i
        if let p { while j > 0, Self.isGapByte(p[j - 1]) { j -= 1 } }
        var gap = j == 0 ? gapCarry : []
        if let p, j < i { gap.append(contentsOf: UnsafeBufferPointer(start: p + j, count: i - j)) }
        return gap
    }

    /// Keeps the separator and white space that end a chunk, for a rest shown as received later.
    mutating func carryGap(_ p: UnsafePointer<UInt8>, _ count: Int) {
        guard layout != .preserved, isBetweenTokens else {
            if !gapCarry.isEmpty { gapCarry.removeAll() }
            return
        }
        var j = count
        while j > 0, Self.isGapByte(p[j - 1]) { j -= 1 }
        if j > 0 { gapCarry.removeAll(keepingCapacity: true) }
        gapCarry.append(contentsOf: UnsafeBufferPointer(start: p + j, count: count - j))
    }

    /// Gives up at byte `i` of the chunk `p` (nil at the end of the input).
    mutating func fail(_ reason: String, at i: Int, in p: UnsafePointer<UInt8>?, _ count: Int) throws {
        let pending =
            deferring
            ? deferredGap + deferred
            : (state == .capture ? captureGap + capture : (isBetweenTokens ? gapBefore(p, i) : []))
        let rest =
            p.map { UnsafeBufferPointer(start: $0 + i, count: count - i) } ?? UnsafeBufferPointer(start: nil, count: 0)
        try giveUp(reason, offset: consumed + i, pending: pending, rest: rest)
    }

    /// Prints what could not be formatted as received: the whole input when nothing was written
    /// yet, else the bytes held back (`pending`) and the rest of the chunk; then copies the rest.
    mutating func giveUp(
        _ reason: String, offset: Int, pending: [UInt8], rest: UnsafeBufferPointer<UInt8>
    ) throws {
        if inColor {
            try out.append(colors.reset)
            inColor = false
        }
        if out.flushedCount == 0, let held {
            out.discardPending()
            try held.withUnsafeBufferPointer { if let base = $0.baseAddress { try out.appendRaw(base, $0.count) } }
        } else {
            try pending.withUnsafeBufferPointer { if let base = $0.baseAddress { try out.appendRaw(base, $0.count) } }
            if let base = rest.baseAddress { try out.appendRaw(base, rest.count) }
        }
        deferring = false
        deferred = []
        deferredGap = []
        capture = []
        captureGap = []
        gapCarry = []
        state = .failed
        if reportsErrors {
            let what = reason == FormattingLimits.tooDeep(maximumDepth) ? "JSON" : "invalid JSON"
            warnings.append("\(what) at byte \(offset): \(reason); the rest is shown as received")
        }
    }
}
