/// `--jsonpath`: applies a query to a JSON body (or to each value of a sequence such as NDJSON) as
/// it arrives and writes each match as compact JSON on its own line.
///
/// A small tokenizer follows the document's structure without building it (see
/// `JSONPathStreamPlan` for what is held in memory and when). Memory is the nesting depth plus
/// the largest node held, so a 1 GB array of small records runs in constant memory.
package final class JSONPathStreamFilter: BodyFormatter {
    /// Nil only while `consume` works on it.
    private var scanner: JSONPathScanner?

    /// A filter writing the matches of `query` to `sink`, coloured with `colors`.
    package init(query: JSONPathQuery, colors: SyntaxColors, sink: ByteSink, limits: JSONPathStreamLimits = .init()) {
        scanner = JSONPathScanner(plan: JSONPathStreamPlan(query: query), colors: colors, sink: sink, limits: limits)
    }

    package var warnings: [String] { [] }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        // Moved into a local for the byte loop, which then touches a struct without exclusivity
        // checks; moved, not copied, so that its buffers stay uniquely owned and are never
        // copied on write.
        guard var scanner = self.scanner else { return }
        self.scanner = nil
        defer { self.scanner = scanner }
        try scanner.consume(chunk)
        try scanner.flush()
    }

    package func finish() throws {
        try scanner?.finish()
    }

    package func abandon() throws {
        try scanner?.flush()
    }

    /// The matches of `query` in a whole body, one compact value a line (tests, fuzzing).
    package static func run(_ query: JSONPathQuery, on body: [UInt8], chunkSize: Int = 1 << 16,
                            limits: JSONPathStreamLimits = .init()) throws -> [UInt8] {
        let sink = CollectingSink()
        let filter = JSONPathStreamFilter(query: query, colors: .none, sink: sink, limits: limits)
        var start = 0
        while start < body.count {
            let end = min(start + max(chunkSize, 1), body.count)
            try body[start..<end].withUnsafeBytes { try filter.consume($0) }
            start = end
        }
        try filter.finish()
        return sink.bytes
    }
}

/// The tokenizer and the query state of each open container.
struct JSONPathScanner {
    /// What the structure expects next.
    enum Expect {
        /// A top-level value (or only white space, between the values of a sequence).
        case topLevel
        /// A value after `:` or `,` in an array.
        case value
        /// The first element of an array, or `]`.
        case elementOrEnd
        /// The first key of an object, or `}`.
        case keyOrEnd
        /// A key after `,`.
        case key
        /// Reading a key's string.
        case keyString
        case colon
        /// `,` or the container's closing bracket.
        case separatorOrEnd
    }

    /// What is done with the value being passed over.
    enum Passing {
        /// Nothing selects anything in it.
        case skip
        /// A match that ends the query: copied to the output without white space.
        case copy
        /// Held to be parsed and evaluated in memory.
        case hold(entries: [Int], filters: [Int])
    }

    /// An open container that the query still looks into.
    struct Frame {
        var isObject: Bool
        /// The segments this container is the input to.
        var entries: [Int]
        var nextIndex = 0
        var key: String?
    }

    let plan: JSONPathStreamPlan
    let colors: SyntaxColors
    let sink: ByteSink
    let limits: JSONPathStreamLimits
    var frames: [Frame] = []
    var expect = Expect.topLevel
    var output: [UInt8] = []
    /// The offset of the byte being read, for error messages.
    var offset = 0

    // The value being passed over, when `passing` is set.
    var passing: Passing?
    var depth = 0
    var inString = false
    var escaped = false
    var bare = false
    var held: [UInt8] = []
    var heldStart = 0
    var keyBytes: [UInt8] = []
    var keyEscaped = false

    init(plan: JSONPathStreamPlan, colors: SyntaxColors, sink: ByteSink, limits: JSONPathStreamLimits) {
        self.plan = plan
        self.colors = colors
        self.sink = sink
        self.limits = limits
    }

    /// Reads a chunk.
    mutating func consume(_ chunk: UnsafeRawBufferPointer) throws {
        var position = 0
        while position < chunk.count {
            let byte = chunk[position]
            if passing != nil {
                if try pass(byte) {
                    position += 1
                    offset += 1
                }
                continue
            }
            try structure(byte)
            position += 1
            offset += 1
        }
    }

    /// The body ended: a bare top-level number ends here; anything else left open is an error.
    mutating func finish() throws {
        if passing != nil, bare, depth == 0 { try endPassing() }
        guard passing == nil, frames.isEmpty, expect == .topLevel else {
            throw invalid("the body ended inside a JSON value")
        }
        try flush()
    }

    /// Writes the matches found so far.
    mutating func flush() throws {
        guard !output.isEmpty else { return }
        try output.withUnsafeBytes { try sink.write($0) }
        output.removeAll(keepingCapacity: true)
    }

    /// One byte of the structure the query looks into.
    private mutating func structure(_ byte: UInt8) throws {
        if expect == .keyString { return try readKey(byte) }
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
            return
        case 0x1E where expect == .topLevel:
            // The record separator before each value of an application/json-seq body (RFC 7464).
            return
        case 0xEF where offset == 0:
            // A UTF-8 byte order mark (RFC 8259 §8.1 lets a reader ignore it).
            bomBytes = 2
            return
        case 0xBB where bomBytes == 2, 0xBF where bomBytes == 1:
            bomBytes -= 1
            return
        default:
            break
        }
        switch expect {
        case .topLevel:
            try beginValue(byte, entries: [0], filters: [], whole: !plan.streams)
        case .value, .elementOrEnd:
            if expect == .elementOrEnd, byte == UInt8(ascii: "]") { return try close() }
            var frame = frames[frames.count - 1]
            let child = plan.child(of: frame.entries, key: frame.key, index: frame.nextIndex)
            frame.nextIndex += 1
            frames[frames.count - 1] = frame
            try beginValue(byte, entries: child.entries, filters: child.filters, whole: false)
        case .keyOrEnd, .key:
            if expect == .keyOrEnd, byte == UInt8(ascii: "}") { return try close() }
            guard byte == UInt8(ascii: "\"") else { throw invalid("expected a member name") }
            keyBytes.removeAll(keepingCapacity: true)
            keyEscaped = false
            expect = .keyString
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw invalid("expected ':'") }
            expect = .value
        case .separatorOrEnd:
            let isObject = frames[frames.count - 1].isObject
            if byte == UInt8(ascii: ",") {
                expect = isObject ? .key : .value
            } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                try close()
            } else {
                throw invalid(isObject ? "expected ',' or '}'" : "expected ',' or ']'")
            }
        case .keyString:
            break
        }
    }

    /// Remaining bytes of a byte order mark to ignore.
    private var bomBytes = 0

    /// A byte of a member name, which is decoded once its closing quote comes.
    private mutating func readKey(_ byte: UInt8) throws {
        if byte == UInt8(ascii: "\""), !keyEscaped {
            var frame = frames[frames.count - 1]
            frame.key = try decodeKey()
            frames[frames.count - 1] = frame
            expect = .colon
            return
        }
        keyEscaped = byte == UInt8(ascii: "\\") && !keyEscaped
        guard keyBytes.count < limits.maximumKeyBytes else {
            throw JSONPathBodyError("a member name is longer than \(limits.maximumKeyBytes) bytes", failureClass: .limitExceeded)
        }
        keyBytes.append(byte)
    }

    /// The member name just read, escapes decoded.
    private mutating func decodeKey() throws -> String {
        if !keyBytes.contains(UInt8(ascii: "\\")), keyBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x80 }) {
            return String(decoding: keyBytes, as: UTF8.self)
        }
        let quoted = [UInt8(ascii: "\"")] + keyBytes + [UInt8(ascii: "\"")]
        guard case .string(let key) = try? JSONParser.parse(bytes: quoted, replacingLoneSurrogates: true) else {
            throw invalid("invalid member name")
        }
        return key
    }

    /// Starts a value: descends into it, or passes over it (skipping, copying or holding it).
    private mutating func beginValue(_ byte: UInt8, entries: [Int], filters: [Int], whole: Bool) throws {
        guard entries.count + filters.count <= limits.maximumEntries else {
            throw JSONPathBodyError("the query applies to one node more than \(limits.maximumEntries) times",
                                    failureClass: .limitExceeded)
        }
        let final = plan.segments.count
        let isContainer = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        if whole || !filters.isEmpty || (entries.contains(final) && entries.count > 1) {
            passing = .hold(entries: entries, filters: filters)
        } else if entries == [final] {
            passing = colors.isEnabled ? .hold(entries: entries, filters: []) : .copy
        } else if isContainer, !entries.isEmpty {
            guard frames.count < limits.maximumDepth else { throw tooDeep() }
            frames.append(Frame(isObject: byte == UInt8(ascii: "{"), entries: entries))
            expect = byte == UInt8(ascii: "{") ? .keyOrEnd : .elementOrEnd
            return
        } else {
            passing = .skip
        }
        depth = 0
        inString = false
        escaped = false
        bare = false
        held.removeAll(keepingCapacity: true)
        heldStart = offset
        guard try pass(byte) else { throw invalid("expected a value") }
    }

    /// A byte of the value passed over; false when the value ended before it (a bare number or
    /// literal ends at the first byte that is not part of it, which the structure then reads).
    private mutating func pass(_ byte: UInt8) throws -> Bool {
        if bare {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "E"):
                try keep(byte)
                return true
            default:
                try endPassing()
                return false
            }
        }
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            try keep(byte)
            if !inString, depth == 0 { try endPassing() }
            return true
        }
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
            if case .copy = passing { return true }
        case UInt8(ascii: "\""):
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            if frames.count + depth > limits.maximumDepth { throw tooDeep() }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            guard depth > 0 else { throw invalid("unexpected '\(Character(Unicode.Scalar(byte)))'") }
            depth -= 1
            try keep(byte)
            if depth == 0 { try endPassing() }
            return true
        default:
            if depth == 0 {
                guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
                else { throw invalid("expected a value") }
                bare = true
            }
        }
        try keep(byte)
        return true
    }

    /// Keeps a byte of the value passed over as its mode asks.
    private mutating func keep(_ byte: UInt8) throws {
        switch passing {
        case .copy?:
            output.append(byte)
            if output.count >= 1 << 16 { try flush() }
        case .hold?:
            guard held.count < limits.maximumHeldBytes else {
                throw JSONPathBodyError(
                    "a JSON value the query must hold in memory is larger than \(limits.maximumHeldBytes / (1024 * 1024)) MiB",
                    failureClass: .limitExceeded)
            }
            held.append(byte)
        default:
            break
        }
    }

    /// The value passed over ended: a copied match ends its line; a held one is evaluated.
    private mutating func endPassing() throws {
        let ended = passing
        passing = nil
        bare = false
        switch ended {
        case .copy?:
            output.append(0x0A)
        case .hold(let entries, let filters)?:
            // Parsing, evaluating and releasing the value recurse a level at a time (`DeepStack`).
            let levels = limits.maximumDepth - frames.count
            try DeepStack.run(levels: levels) { () throws -> Void in
                let value: JSONValue
                do throws(JSONParseError) {
                    value = try JSONParser.parse(bytes: held, replacingLoneSurrogates: true, maximumDepth: levels)
                } catch {
                    if error.isTooDeep { throw tooDeep(at: heldStart + error.offset) }
                    throw JSONPathBodyError(
                        "the body is not valid JSON: \(error.reason) at offset \(heldStart + error.offset)",
                        failureClass: .responseRejected)
                }
                held.removeAll(keepingCapacity: held.count < 1 << 20)
                try evaluate(value, entries: entries, filters: filters)
            }
        default:
            break
        }
        valueEnded()
    }

    /// After a value: the container expects a separator, the top level another value.
    private mutating func valueEnded() {
        expect = frames.isEmpty ? .topLevel : .separatorOrEnd
    }

    /// Closes the innermost container.
    private mutating func close() throws {
        frames.removeLast()
        valueEnded()
    }

    /// Writes the matches within a held value.
    private mutating func evaluate(_ value: JSONValue, entries: [Int], filters: [Int]) throws {
        var evaluator = JSONPathEvaluator(root: value, limits: .standard)
        let node = JSONPathNode(value: value, location: [])
        var starts = entries
        for filter in filters {
            guard case .filter(let expression) = plan.segments[filter].selectors[0] else { continue }
            if try evaluator.test(expression, current: value) { starts.insert(filter + 1, at: 0) }
        }
        for start in starts {
            for match in try evaluator.select(plan.segments[start...], from: [node]) { try write(match.value) }
        }
    }

    /// Writes one match as compact JSON and a line feed, coloured as the JSON formatter would.
    private mutating func write(_ value: JSONValue) throws {
        let compact = try JSONWriter.encode(value)
        if colors.isEnabled {
            var options = JSONFormatOptions(layout: .compact, colors: colors, allowsSequence: false)
            options.maximumDepth = limits.maximumDepth
            output.append(contentsOf: try JSONStreamFormatter.format(compact, options: options).output)
        } else {
            output.append(contentsOf: compact)
        }
        output.append(0x0A)
        if output.count >= 1 << 16 { try flush() }
    }

    /// Nesting past the limit at `position`, by default the current offset: a limit, whichever
    /// part of the body the query reads, skips or copies.
    private func tooDeep(at position: Int? = nil) -> JSONPathBodyError {
        JSONPathBodyError(
            "the body is \(FormattingLimits.tooDeep(limits.maximumDepth)) at offset \(position ?? offset)",
            failureClass: .limitExceeded)
    }

    /// A syntax error at `position`, by default the current offset.
    private func invalid(_ reason: String, at position: Int? = nil) -> JSONPathBodyError {
        JSONPathBodyError(
            "the body is not valid JSON: \(reason) at offset \(position ?? offset)", failureClass: .responseRejected)
    }
}
