import AFCurl
import CXMLShim

/// How XML is laid out and coloured.
package struct XMLFormatOptions: Sendable {
    /// Spaces per nesting level.
    package var indent: Int
    /// Token colours (all off by default).
    package var colors: SyntaxColors
    /// Whether malformed XML deserves a warning.
    package var reportsErrors: Bool
    /// Keep the white space between tags as received and add none (`--pretty=colors`).
    package var preservesLayout: Bool
    /// The deepest element nesting formatted; deeper, the rest is shown as received.
    package var maximumDepth: Int
    /// Show the as-received rest of a malformed document with control characters escaped
    /// (`TerminalEscaping`), for a terminal.
    package var escapesControls: Bool

    package init(
        indent: Int = 2, colors: SyntaxColors = .none, reportsErrors: Bool = true, preservesLayout: Bool = false,
        maximumDepth: Int = FormattingLimits.maximumDepth, escapesControls: Bool = false
    ) {
        self.indent = indent
        self.colors = colors
        self.reportsErrors = reportsErrors
        self.preservesLayout = preservesLayout
        self.maximumDepth = maximumDepth
        self.escapesControls = escapesControls
    }
}

/// A streaming XML reformatter over libxml2's push parser (through CXMLShim): each chunk is parsed
/// as it arrives and printed indented, with no document tree, so memory stays flat.
///
/// Elements that hold only elements get one child per line; text stays inline, and once an element
/// has text its other children stay inline too (mixed content is never re-spaced). Text is
/// re-escaped from what libxml2 decoded; names, comments and CDATA are copied. Malformed XML is
/// printed as received from where formatting stopped (the whole body when nothing was written
/// yet), with a warning. Parsing runs on a second thread (`XMLParseWorker`) when one can start.
package final class XMLStreamFormatter: BodyFormatter {
    private var parser: OpaquePointer?
    private var worker: XMLParseWorker?
    private var writer: XMLEventWriter
    /// The whole input, until the first flush.
    private var held: [UInt8]? = []
    /// Input chunks not yet known to be formatted, with their offsets, for the as-received rest.
    private var retained: [(offset: Int, bytes: [UInt8])] = []
    /// Input not yet handed to the parser.
    private var pending: [UInt8] = []
    private var consumed = 0
    private var failed = false
    private var ended = false
    private var declarationChecked = false
    private var onlyWhitespace = true
    private let reportsErrors: Bool
    private let escapesControls: Bool
    /// The deepest element nesting formatted.
    private let maximumDepth: Int
    /// Where the last event written ended in the input, and its kind.
    private var writtenOffset = 0
    private var writtenKind: Int32 = 0
    private var warningList: [String] = []

    package var warnings: [String] {
        writer.droppedInternalSubset
            ? warningList + ["the DOCTYPE's internal subset is too long to show; it is left out"] : warningList
    }

    /// A formatter writing to `sink`; `threaded` false keeps parsing on the calling thread.
    package init(options: XMLFormatOptions, sink: ByteSink, threaded: Bool = true) {
        writer = XMLEventWriter(options: options, sink: sink)
        reportsErrors = options.reportsErrors
        escapesControls = options.escapesControls
        maximumDepth = options.maximumDepth
        writer.out.escapesRawControls = options.escapesControls
        parser = cxml_push_new()
        if let parser {
            cxml_push_set_max_depth(parser, Int32(clamping: options.maximumDepth))
            if threaded { worker = XMLParseWorker(parser: parser) }
        } else {
            failed = true
            let why = cxml_load_error().map { String(cString: $0) } ?? "out of memory"
            warningList.append("cannot format XML (\(why)); the body is shown as received")
        }
    }

    deinit {
        worker?.stop()
        cxml_push_free(parser)
        writer.release()
    }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        guard !chunk.isEmpty else { return }
        if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
        if failed {
            try writer.out.appendRaw(chunk)
            try writer.out.flushIfFull()
            return
        }
        pending.append(contentsOf: chunk)
        if pending.count >= Self.batchSize { try submitPending() }
    }

    package func finish() throws {
        if !failed { try submitPending() }
        if !failed, consumed > 0 {
            if let worker {
                worker.endInput()
                while !ended, !failed {
                    let batches = worker.take(wait: true)
                    if batches.isEmpty { break }
                    try write(batches)
                }
            } else if let parser {
                try write([XMLParseWorker.parse([], ending: true, with: parser)])
            }
            if !failed { try writer.finishDocument() }
        }
        try writer.out.flush()
    }

    /// Input is handed to the parser in blocks of this size: libcurl's 16 KiB chunks one by one
    /// would cost two thread wake-ups each.
    static let batchSize = 128 * 1024

    /// Hands the input gathered so far to the parser and prints whatever it has parsed.
    private func submitPending() throws {
        guard !pending.isEmpty else { return }
        let bytes = pending
        pending = []
        pending.reserveCapacity(Self.batchSize + 16 * 1024)
        if onlyWhitespace { onlyWhitespace = bytes.allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) } }
        held?.append(contentsOf: bytes)
        retained.append((consumed, bytes))
        consumed += bytes.count
        if let worker {
            var accepted = false
            while !accepted, !failed {
                let exchange = worker.exchange(bytes)
                accepted = exchange.accepted
                try write(exchange.batches)
            }
        } else if let parser {
            try write([XMLParseWorker.parse([bytes], ending: false, with: parser)])
        }
    }

    /// The body stopped short (the transfer failed): what was formatted stays, and the input
    /// not yet shown follows as received, without a warning.
    package func abandon() throws {
        guard !failed else { return try writer.out.flush() }
        failed = true
        worker?.stop()
        held?.append(contentsOf: pending)
        retained.append((consumed, pending))
        consumed += pending.count
        pending = []
        try showRest(from: writtenOffset, kind: writtenKind)
        try writer.out.flush()
    }

    /// Writes parsed batches, giving up at the first malformed one.
    private func write(_ batches: [XMLParseWorker.Batch]) throws {
        defer { for batch in batches { batch.release() } }
        if batches.contains(where: \.interrupted) {
            failed = true
            throw CurlError.interrupted(signal: Interruption.signal ?? 0)
        }
        for batch in batches where !failed {
            // libxml2 reports the first event only once the declaration is behind it.
            if !declarationChecked, !batch.events.isEmpty || batch.isLast, let held {
                declarationChecked = true
                try writer.writeDeclaration(from: held)
            }
            if writer.internalSubset == nil, let range = batch.subsetRange {
                writer.internalSubset = internalSubset(range)
            }
            if let base = batch.events.baseAddress { try writer.write(events: base, length: batch.events.count) }
            if batch.status != 0 {
                try giveUp(batch)
                return
            }
            ended = batch.isLast
            writtenOffset = batch.lastOffset
            writtenKind = batch.lastKind
            while let first = retained.first, first.offset + first.bytes.count <= batch.lastOffset {
                retained.removeFirst()
            }
            try writer.out.flushIfFull()
            if writer.out.flushedCount > 0 { held = nil }
        }
    }

    /// The internal DTD subset at `range` of the input (`[` to after the DOCTYPE's `>`), from the
    /// input still retained, without the `>` and the blanks before it; nil when it is gone.
    private func internalSubset(_ range: Range<Int>) -> [UInt8]? {
        var bytes: [UInt8] = []
        for chunk in retained {
            let chunkRange = chunk.offset..<(chunk.offset + chunk.bytes.count)
            let overlap = chunkRange.clamped(to: range)
            if overlap.isEmpty { continue }
            if bytes.isEmpty, overlap.lowerBound != range.lowerBound { return nil }
            bytes += chunk.bytes[(overlap.lowerBound - chunk.offset)..<(overlap.upperBound - chunk.offset)]
        }
        guard bytes.count == range.count, bytes.first == UInt8(ascii: "[") else { return nil }
        if bytes.last == UInt8(ascii: ">") { bytes.removeLast() }
        while let last = bytes.last, [0x20, 0x09, 0x0A, 0x0D].contains(last) { bytes.removeLast() }
        return bytes
    }

    /// Prints the rest as received, from just after the last event that was formatted.
    private func giveUp(_ batch: XMLParseWorker.Batch) throws {
        failed = true
        worker?.stop()
        if reportsErrors, !onlyWhitespace {
            let problem =
                batch.isTooDeep
                ? "XML \(FormattingLimits.tooDeep(maximumDepth))"
                : "malformed XML (\(batch.error ?? "malformed XML"))"
            warningList.append(problem + "; the rest is shown as received")
        }
        try showRest(from: batch.lastOffset, kind: batch.lastKind)
    }

    /// Writes the input from `offset` (where an event of `kind` ended) as received: the whole
    /// body when nothing was written yet.
    private func showRest(from offset: Int, kind: Int32) throws {
        if writer.out.flushedCount == 0, let held {
            writer.out.discardPending()
            try held.withUnsafeBytes { try writer.out.appendRaw($0) }
            retained = []
            return
        }
        var restart = offset
        let rest = retained.flatMap { $0.bytes }
        let restStart = retained.first?.offset ?? consumed
        // libxml2 reports a start tag before its `>`: the rest starts there.
        if UInt32(kind) == CXML_NODE_ELEMENT.rawValue {
            while restart - restStart < rest.count, restart >= restStart, rest[restart - restStart] != UInt8(ascii: ">")
            {
                restart += 1
            }
            writer.abandonOpenTag()
        }
        try writer.abandon()
        let from = max(restart - restStart, 0)
        if from < rest.count { try rest[from...].withUnsafeBytes { try writer.out.appendRaw($0) } }
        retained = []
    }
}
