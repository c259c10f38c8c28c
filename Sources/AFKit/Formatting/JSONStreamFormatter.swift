import AFCurl

/// How the JSON formatter lays out what it reads.
package enum JSONLayout: Equatable, Sendable {
    /// One member or element per line, `indent` spaces per level, `": "` after keys and empty
    /// containers as `{}` and `[]`: what Python's `json.dumps(indent=)` (and so HTTPie) prints.
    case indented(Int)
    /// No whitespace at all, as `NSJSONSerialization` writes without options (the CJNetwork log).
    case compact
    /// Whitespace exactly as received; only colours are added (`--pretty=colors`).
    case preserved
}

/// What the JSON formatter does besides laying out: colours, key sorting, null removal.
package struct JSONFormatOptions: Sendable {
    /// The layout.
    package var layout: JSONLayout
    /// Token colours (all off by default).
    package var colors: SyntaxColors
    /// Sort object members by key (`--sorted`); holds one top-level object at a time.
    package var sortsKeys: Bool
    /// Leave out null members and null array elements, recursively: AFNetworking's
    /// `removesKeysWithNullValues`. Holds one key at a time.
    package var dropsNulls: Bool
    /// Accept a sequence of values separated by whitespace (NDJSON, `--stream`).
    package var allowsSequence: Bool
    /// Whether a syntax error deserves a warning; false when the body was only sniffed as JSON.
    package var reportsErrors: Bool
    /// Show the as-received rest of invalid JSON with ESC escaped (`TerminalEscaper`), for a terminal.
    package var escapesControls: Bool
    /// The largest object `sortsKeys` holds; a larger one and the rest are shown unsorted.
    package var sortedObjectLimit: Int
    /// Hand what was formatted to the sink at the end of every chunk, not only when the buffer
    /// fills: a streamed body (NDJSON, `--stream`) shows each value as soon as it arrives.
    package var flushesEachChunk = false
    /// The deepest nesting formatted (`--max-depth`); deeper, the rest is shown as received.
    package var maximumDepth = FormattingLimits.maximumDepth

    package init(
        layout: JSONLayout = .indented(4), colors: SyntaxColors = .none, sortsKeys: Bool = false,
        dropsNulls: Bool = false, allowsSequence: Bool = false, reportsErrors: Bool = true,
        escapesControls: Bool = false, sortedObjectLimit: Int = FormattingLimits.sortedObjectBytes
    ) {
        self.escapesControls = escapesControls
        self.sortedObjectLimit = sortedObjectLimit
        self.layout = layout
        self.colors = colors
        self.sortsKeys = sortsKeys
        self.dropsNulls = dropsNulls
        self.allowsSequence = allowsSequence
        self.reportsErrors = reportsErrors
    }
}

/// A streaming JSON reformatter: one pass over the bytes as they arrive, no document tree, output
/// handed to the sink in large chunks.
///
/// Strings (escapes included) and numbers are copied exactly as received, so nothing is
/// re-encoded: no float round-trip, no big-integer loss, no `\/` or `\u00e9` rewriting. Memory is
/// the nesting depth (one byte a level) plus, with `sortsKeys`, the object being sorted and, with
/// `dropsNulls`, the key whose value is still unknown.
///
/// Invalid JSON never loses bytes: when nothing has been written yet the whole body is printed as
/// received; otherwise what was formatted stays and the rest follows as received (from the
/// separator and white space after the last token written), and a warning names the byte offset.
/// Nesting deeper than the options' `maximumDepth` is treated the same way.
package final class JSONStreamFormatter: BodyFormatter {
    private var core: JSONFormatterCore

    /// A formatter writing to `sink`, handing it output in blocks of about `blockSize` bytes
    /// (small for a formatter made per server-sent event: its block is allocated each time).
    package init(options: JSONFormatOptions, sink: ByteSink, blockSize: Int = 256 * 1024) {
        core = JSONFormatterCore(options: options, sink: sink, blockSize: blockSize)
    }

    deinit {
        core.release()
    }

    package var warnings: [String] { core.warnings }

    /// Whether the input so far was all well-formed.
    package var isValid: Bool { core.state != .failed }

    /// How many top-level values were complete.
    package var valueCount: Int { core.valuesSeen }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        try core.consume(chunk)
    }

    package func finish() throws {
        try core.finish()
    }

    package func abandon() throws {
        try core.abandon()
    }

    /// Formats a whole body at once (tests, captured bodies).
    package static func format(_ bytes: [UInt8], options: JSONFormatOptions) throws -> (
        output: [UInt8], warnings: [String]
    ) {
        let sink = CollectingSink()
        let formatter = JSONStreamFormatter(options: options, sink: sink)
        try bytes.withUnsafeBytes { try formatter.consume($0) }
        try formatter.finish()
        return (sink.bytes, formatter.warnings)
    }
}

/// The formatter's state machine. A struct, so the hot loop touches its fields without the
/// dynamic exclusivity checks that class properties would cost on every byte.
struct JSONFormatterCore {
    /// Where the parser is between bytes.
    enum State: UInt8 {
        /// A value must come (document start, after `:`, after `,` in an array).
        case value
        /// Just after `[` or `{`: the first element or key, or the closing bracket.
        case firstOrClose
        /// After `,` in an object: a key.
        case key
        /// After a key: `:`.
        case colon
        /// After a value inside a container: `,` or the closing bracket.
        case afterValue
        case string
        case number
        case literal
        /// Copying an object for `sortsKeys`.
        case capture
        /// After the top-level value: only whitespace may follow.
        case trailing
        /// Gave up: the rest is copied as received.
        case failed
    }

    var out: OutputBuffer
    let layout: JSONLayout
    let indentWidth: Int
    let colors: SyntaxColors
    let dropsNulls: Bool
    var sortsKeys: Bool
    let allowsSequence: Bool
    var reportsErrors: Bool

    var state = State.value
    /// One byte a level: bit 0 set for an object, bit 1 once it has an item.
    var stack = ByteStack()
    /// How many containers are open.
    var depth: Int { stack.count }
    /// In a string: 0, 1 after a backslash, or 2 + the hex digits still expected after `\u`.
    var escape: UInt8 = 0
    var stringIsKey = false
    /// The JSON number grammar position (see `numberStep`).
    var numberState: UInt8 = 0
    var literal = StaticBytes.empty
    var literalIndex = 0
    /// With `dropsNulls`: the raw bytes of a member (or element) whose value is not known yet,
    /// and the separator and white space before it.
    var deferring = false
    var deferred: [UInt8] = []
    var deferredGap: [UInt8] = []
    var deferredKeyLength = 0
    /// With `sortsKeys`: the raw bytes of the object being copied, and the scan state.
    var capture: [UInt8] = []
    var captureDepth = 0
    var captureInString = false
    var captureEscaped = false
    var captureStart = 0
    /// The separator and white space before the object being copied.
    var captureGap: [UInt8] = []
    let sortedObjectLimit: Int
    let flushesEachChunk: Bool
    /// The options' `maximumDepth`.
    let maximumDepth: Int
    /// The separator and white space at the end of the input so far, read but not written: a
    /// rest shown as received starts with them.
    var gapCarry: [UInt8] = []
    /// The whole input, kept until the first flush so that an early error can print it as is.
    var held: [UInt8]? = []
    /// Input bytes before the current chunk.
    var consumed = 0
    var inColor = false
    var valuesSeen = 0
    var warnings: [String] = []

    init(options: JSONFormatOptions, sink: ByteSink, blockSize: Int) {
        var layout = options.layout
        // Sorting and dropping rewrite the document, so they need generated whitespace.
        if layout == .preserved, options.sortsKeys || options.dropsNulls { layout = .indented(4) }
        self.layout = layout
        if case .indented(let width) = layout { indentWidth = width } else { indentWidth = 0 }
        colors = options.colors
        dropsNulls = options.dropsNulls
        sortsKeys = options.sortsKeys
        allowsSequence = options.allowsSequence
        reportsErrors = options.reportsErrors
        flushesEachChunk = options.flushesEachChunk
        sortedObjectLimit = options.sortedObjectLimit
        maximumDepth = options.maximumDepth
        out = OutputBuffer(sink: sink, threshold: blockSize)
        out.escapesRawControls = options.escapesControls
    }

    /// Frees the output buffer and the nesting stack.
    func release() {
        out.deallocate()
        stack.deallocate()
    }

    /// Formats a chunk, keeping a copy of the input until the first flush.
    mutating func consume(_ chunk: UnsafeRawBufferPointer) throws {
        guard let start = chunk.baseAddress, !chunk.isEmpty else { return }
        if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
        let bytes = start.assumingMemoryBound(to: UInt8.self)
        if state == .failed {
            try out.appendRaw(bytes, chunk.count)
        } else {
            if held != nil { held!.append(contentsOf: UnsafeBufferPointer(start: bytes, count: chunk.count)) }
            try run(bytes, chunk.count, raw: true)
            carryGap(bytes, chunk.count)
        }
        consumed += chunk.count
        if flushesEachChunk { try out.flush() } else { try out.flushIfFull() }
        if out.flushedCount > 0 { held = nil }
    }

    /// Completes a number at the very end, and gives up on a document that stopped short.
    mutating func finish() throws {
        switch state {
        case .number where [1, 2, 4, 7].contains(numberState):
            if inColor { try out.append(colors.reset) }
            inColor = false
            try valueEnded()
        default:
            break
        }
        switch state {
        case .failed, .trailing:
            break
        case .value where depth == 0:
            // Nothing but whitespace (AF: an empty body or a single space is "no object").
            if valuesSeen == 0, let held, layout != .preserved {
                out.discardPending()
                try held.withUnsafeBufferPointer { try out.append($0.baseAddress!, $0.count) }
            }
        default:
            try fail("unexpected end of JSON", at: 0, in: nil, 0)
        }
        try out.flush()
    }

    /// The body stopped short: the formatted part stays and what was held back follows as
    /// received, without a warning.
    mutating func abandon() throws {
        if state != .failed, state != .trailing {
            if inColor { try out.append(colors.reset) }
            inColor = false
            let quiet = reportsErrors
            reportsErrors = false
            try fail("", at: 0, in: nil, 0)
            reportsErrors = quiet
        }
        try out.flush()
    }

    // MARK: - The scanner

    /// Runs the state machine over `count` bytes; `raw` is false while re-reading a sorted copy.
    mutating func run(_ p: UnsafePointer<UInt8>, _ count: Int, raw: Bool) throws {
        var i = 0
        while i < count {
            switch state {
            case .string:
                i = try scanString(p, i, count)
            case .value, .firstOrClose, .key, .colon, .afterValue, .trailing:
                let byte = p[i]
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                    if layout == .preserved {
                        var j = i + 1
                        while j < count, p[j] == 0x20 || p[j] == 0x0A || p[j] == 0x0D || p[j] == 0x09 { j += 1 }
                        try out.append(p + i, j - i)
                        i = j
                    } else {
                        if deferring { deferred.append(byte) }
                        i += 1
                    }
                    continue
                }
                if !(try structural(byte, p, i, count)) { return }
                i += 1
            case .number:
                i = try scanNumber(p, i, count)
                if state == .failed { return }
            case .literal:
                let byte = p[i]
                guard byte == literal.base[literalIndex] else {
                    try fail("invalid literal", at: i, in: p, count)
                    return
                }
                if deferring { deferred.append(byte) } else { out.append(byte) }
                literalIndex += 1
                i += 1
                if literalIndex == literal.count { try literalEnded() }
            case .capture:
                i = try scanCapture(p, i, count)
                if state == .failed { return }
            case .failed:
                try out.append(p + i, count - i)
                return
            }
            try out.flushIfFull()
        }
    }

    /// Handles a byte outside strings, numbers and literals; false when it failed.
    @inline(__always) private mutating func structural(_ byte: UInt8, _ p: UnsafePointer<UInt8>, _ i: Int, _ count: Int)
        throws
        -> Bool
    {
        let inObject = depth > 0 && stack.top & 1 != 0
        switch state {
        case .value:
            return try valueStart(byte, p, i, count)
        case .firstOrClose where !inObject:
            if byte == UInt8(ascii: "]") { return try close(byte, p, i, count) }
            return try valueStart(byte, p, i, count)
        case .firstOrClose, .key:
            if state == .firstOrClose, byte == UInt8(ascii: "}") {
                return try close(byte, p, i, count)
            }
            guard byte == UInt8(ascii: "\"") else {
                try fail("expected a key", at: i, in: p, count)
                return false
            }
            stringIsKey = true
            escape = 0
            state = .string
            if dropsNulls {
                deferredGap = gapBefore(p, i)
                deferring = true
                deferred.removeAll(keepingCapacity: true)
                deferred.append(byte)
            } else {
                try beginItem()
                try out.append(colors.key)
                inColor = !colors.key.isEmpty
                out.append(byte)
            }
        case .colon:
            guard byte == UInt8(ascii: ":") else {
                try fail("expected ':'", at: i, in: p, count)
                return false
            }
            if deferring {
                deferred.append(byte)
            } else {
                try writeColon()
            }
            state = .value
        case .afterValue:
            if byte == UInt8(ascii: ",") {
                if layout == .preserved { try punctuation(byte) }
                state = inObject ? .key : .value
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                return try close(byte, p, i, count)
            } else {
                try fail("expected ',' or a closing bracket", at: i, in: p, count)
                return false
            }
        case .trailing:
            try fail("unexpected data after the JSON value", at: i, in: p, count)
            return false
        default:
            break
        }
        return true
    }

    /// Starts the value whose first byte is `byte`; false when it failed.
    private mutating func valueStart(_ byte: UInt8, _ p: UnsafePointer<UInt8>, _ i: Int, _ count: Int) throws
        -> Bool
    {
        if byte == UInt8(ascii: "n"), dropsNulls, depth > 0 {
            if !deferring {
                deferredGap = gapBefore(p, i)
                deferring = true
                deferred.removeAll(keepingCapacity: true)
                deferredKeyLength = 0
            }
            deferred.append(byte)
            literal = words.null
            literalIndex = 1
            state = .literal
            return true
        }
        if depth >= maximumDepth, byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
            try fail(FormattingLimits.tooDeep(maximumDepth), at: i, in: p, count)
            return false
        }
        if sortsKeys, byte == UInt8(ascii: "{") {
            captureGap = gapBefore(p, i)
            capture.removeAll(keepingCapacity: true)
            capture.append(byte)
            captureDepth = 1
            captureInString = false
            captureEscaped = false
            captureStart = consumed + i
            state = .capture
            return true
        }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "["), UInt8(ascii: "{"):
            try beginValue()
        default:
            try fail("expected a value", at: i, in: p, count)
            return false
        }
        switch byte {
        case UInt8(ascii: "\""):
            stringIsKey = false
            escape = 0
            state = .string
            try out.append(colors.string)
            inColor = !colors.string.isEmpty
            out.append(byte)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            numberState = byte == UInt8(ascii: "-") ? 0 : (byte == UInt8(ascii: "0") ? 1 : 2)
            state = .number
            try out.append(colors.number)
            inColor = !colors.number.isEmpty
            out.append(byte)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            literal =
                byte == UInt8(ascii: "t") ? words.true : (byte == UInt8(ascii: "f") ? words.false : words.null)
            literalIndex = 1
            state = .literal
            let color = byte == UInt8(ascii: "n") ? colors.null : colors.boolean
            try out.append(color)
            inColor = !color.isEmpty
            out.append(byte)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            try punctuation(byte)
            stack.push(byte == UInt8(ascii: "{") ? 1 : 0)
            state = .firstOrClose
        default:
            break
        }
        return true
    }

    /// Loaded once: a `static let` costs a lazy-initialisation check on every use.
    let words = JSONWords()
}

/// The fixed strings the JSON formatter copies, created once per process.
struct JSONWords {
    let `true` = Self.shared.0
    let `false` = Self.shared.1
    let null = Self.shared.2
    /// `,` and a line feed followed by spaces, for separators and indentation up to 1024 columns.
    let lineBreaks = Self.shared.3

    private static let shared = (
        StaticBytes("true"), StaticBytes("false"), StaticBytes("null"),
        StaticBytes(",\n" + String(repeating: " ", count: 1024))
    )
}
