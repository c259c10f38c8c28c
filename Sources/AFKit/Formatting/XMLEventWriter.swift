import CXMLShim

/// Writes the events of `cxml_push` as indented, coloured XML; the layout half of
/// `XMLStreamFormatter`.
struct XMLEventWriter {
    var out: OutputBuffer
    let indent: Int
    /// Every element's content is inline: white space as received, no indentation added.
    let preservesLayout: Bool
    let colors: SyntaxColors
    /// One byte per open element: bit 0 its children are inline (it or an ancestor has text),
    /// bit 1 it has text, bit 2 it has a child on its own line.
    private var frames = ByteStack()
    /// `<name attributes` was written and its `>` (or `/>`) was not.
    private var openTag = false
    private var cdataOpen = false
    private var cdataTail: (UInt8, UInt8) = (0, 0)
    /// Whitespace-only text, written only if the element turns out to hold text.
    private var pendingSpace: [UInt8] = []
    private var wroteAnything = false
    /// Set when a DOCTYPE's internal subset could not be kept (it left libxml2's buffer, and the
    /// input it came from was no longer held either).
    private(set) var droppedInternalSubset = false
    /// The internal subset as received (`[` … `]`), when the formatter took it from its input.
    var internalSubset: [UInt8]?
    /// Loaded once: a `static let` costs a lazy-initialisation check on every use.
    private let lineBreaks = JSONWords().lineBreaks
    let escapes = XMLEscapes()

    init(options: XMLFormatOptions, sink: ByteSink) {
        out = OutputBuffer(sink: sink)
        indent = options.indent
        preservesLayout = options.preservesLayout
        colors = options.colors
    }

    // MARK: - Events

    /// Writes a buffer of `cxml_push` records.
    mutating func write(events: UnsafePointer<UInt8>, length: Int) throws {
        var cursor = EventCursor(position: events, end: events + length)
        while cursor.position < cursor.end {
            let kind = UInt32(cursor.position[0])
            let count = Int(UnsafeRawPointer(cursor.position + 4).loadUnaligned(as: UInt32.self))
            cursor.position += 8
            switch kind {
            case CXML_NODE_ELEMENT.rawValue:
                try startElement(&cursor, attributeCount: (count - 1) / 2)
            case CXML_NODE_END_ELEMENT.rawValue:
                try endElement(cursor.next())
            case CXML_NODE_TEXT.rawValue:
                try text(cursor.next())
            case CXML_NODE_CDATA.rawValue:
                try cdata(cursor.next())
            case CXML_NODE_ENTITY_REFERENCE.rawValue:
                try inlineContent()
                try beginColor(colors.entity)
                out.append(UInt8(ascii: "&"))
                try out.append(cursor.next())
                out.append(UInt8(ascii: ";"))
                try endColor(colors.entity)
            case CXML_NODE_COMMENT.rawValue:
                try blockContent()
                try beginColor(colors.comment)
                try out.append(escapes.commentOpen)
                try appendColored(cursor.next(), colors.comment)
                try out.append(escapes.commentClose)
                try endColor(colors.comment)
            case CXML_NODE_PROCESSING_INSTRUCTION.rawValue:
                try blockContent()
                let target = cursor.next()
                let data = cursor.next()
                try beginColor(colors.declaration)
                out.append(UInt8(ascii: "<"))
                out.append(UInt8(ascii: "?"))
                try out.append(target)
                if data.count > 0 {
                    out.append(0x20)
                    try appendColored(data, colors.declaration)
                }
                out.append(UInt8(ascii: "?"))
                out.append(UInt8(ascii: ">"))
                try endColor(colors.declaration)
            case CXML_NODE_DOCUMENT_TYPE.rawValue:
                try doctype(
                    name: cursor.next(), publicID: cursor.next(), systemID: cursor.next(),
                    subset: count > 3 ? cursor.next() : EventString(base: nil, count: 0))
                for _ in 4..<max(count, 4) { _ = cursor.next() }
            default:
                for _ in 0..<count { _ = cursor.next() }
            }
            try out.flushIfFull()
        }
    }

    /// Writes `<name attributes`, leaving the `>` until it is known whether the element is empty.
    private mutating func startElement(_ cursor: inout EventCursor, attributeCount: Int) throws {
        try blockContent()
        let parentInline = preservesLayout || (frames.count > 0 && frames.top & 3 != 0)
        frames.push(parentInline ? 1 : 0)
        let name = cursor.next()
        try beginColor(colors.tag)
        out.append(UInt8(ascii: "<"))
        try out.append(name)
        try endColor(colors.tag)
        for _ in 0..<attributeCount {
            let attributeName = cursor.next()
            let value = cursor.next()
            out.append(0x20)
            try beginColor(colors.attributeName)
            try out.append(attributeName)
            try endColor(colors.attributeName)
            out.append(UInt8(ascii: "="))
            try beginColor(colors.attributeValue)
            out.append(UInt8(ascii: "\""))
            try escapeAttribute(value)
            out.append(UInt8(ascii: "\""))
            try endColor(colors.attributeValue)
            try out.flushIfFull()
        }
        openTag = true
    }

    /// Writes `/>` for an empty element, else the end tag (on its own line after child elements).
    private mutating func endElement(_ name: EventString) throws {
        try closeCDATAIfOpen()
        guard frames.count > 0 else { return }
        let frame = frames.pop()
        if frame & 3 != 0, !pendingSpace.isEmpty {
            try closeOpenTag()
            try writePendingSpace()
        } else if !pendingSpace.isEmpty {
            pendingSpace.removeAll(keepingCapacity: true)
        }
        if openTag {
            openTag = false
            try beginColor(colors.tag)
            out.append(UInt8(ascii: "/"))
            out.append(UInt8(ascii: ">"))
        } else {
            if frame & 4 != 0, frame & 3 == 0 { try newline(depth: frames.count) }
            try beginColor(colors.tag)
            out.append(UInt8(ascii: "<"))
            out.append(UInt8(ascii: "/"))
            try out.append(name)
            out.append(UInt8(ascii: ">"))
        }
        try endColor(colors.tag)
    }

    /// Writes text escaped; white space alone waits to see whether the element holds text.
    private mutating func text(_ value: EventString) throws {
        if !cdataOpen, value.isWhitespace {
            pendingSpace.append(contentsOf: UnsafeBufferPointer(start: value.base, count: value.count))
            return
        }
        try closeCDATAIfOpen()
        try inlineContent()
        try escapeText(value)
    }

    /// Writes CDATA, joining the pieces libxml2 delivers into one section.
    private mutating func cdata(_ value: EventString) throws {
        if cdataOpen, let first = value.first,
            (cdataTail == (UInt8(ascii: "]"), UInt8(ascii: "]")) && first == UInt8(ascii: ">"))
                || (cdataTail.1 == UInt8(ascii: "]") && value.startsWith("]>"))
        {
            // Joining the pieces would write `]]>` inside the section: close it and open another.
            try closeCDATAIfOpen()
        }
        if !cdataOpen {
            try inlineContent()
            try beginColor(colors.declaration)
            try out.append(escapes.cdataOpen)
            try endColor(colors.declaration)
            cdataOpen = true
            cdataTail = (0, 0)
        }
        try out.append(value)
        if value.count >= 2 {
            cdataTail = (value.base![value.count - 2], value.base![value.count - 1])
        } else if value.count == 1 {
            cdataTail = (cdataTail.1, value.base![0])
        }
    }

    /// Writes `<!DOCTYPE name PUBLIC "…" "…" [subset]>`, the internal subset as received.
    private mutating func doctype(
        name: EventString, publicID: EventString, systemID: EventString, subset: EventString
    ) throws {
        try blockContent()
        try beginColor(colors.declaration)
        try out.append(escapes.doctypeOpen)
        try out.append(name)
        if publicID.isPresent {
            try out.append(escapes.publicKeyword)
            try appendColored(publicID, colors.declaration)
            out.append(UInt8(ascii: "\""))
        }
        if systemID.isPresent {
            if publicID.isPresent {
                out.append(0x20)
                out.append(UInt8(ascii: "\""))
            } else {
                try out.append(escapes.systemKeyword)
            }
            try appendColored(systemID, colors.declaration)
            out.append(UInt8(ascii: "\""))
        }
        if subset.isPresent {
            out.append(0x20)
            if subset.count > 0 {
                try appendColored(subset, colors.declaration)
            } else if let internalSubset {
                try internalSubset.withUnsafeBufferPointer {
                    try appendColored(EventString(base: $0.baseAddress, count: $0.count), colors.declaration)
                }
            } else {
                droppedInternalSubset = true
            }
        }
        out.append(UInt8(ascii: ">"))
        try endColor(colors.declaration)
    }

    // MARK: - Layout

    /// Before an element, comment or processing instruction: its own line unless the parent's
    /// content is inline.
    private mutating func blockContent() throws {
        try closeCDATAIfOpen()
        let inline = frames.count > 0 && frames.top & 3 != 0
        try closeOpenTag()
        if inline {
            try writePendingSpace()
        } else if !pendingSpace.isEmpty {
            pendingSpace.removeAll(keepingCapacity: true)
        }
        if frames.count > 0 { frames.top |= 4 }
        if !inline, wroteAnything { try newline(depth: frames.count) }
        wroteAnything = true
    }

    /// Before text, CDATA or an entity reference: inline, and the element now holds text.
    private mutating func inlineContent() throws {
        try closeOpenTag()
        try writePendingSpace()
        if frames.count > 0 { frames.top |= 2 }
        wroteAnything = true
    }

    /// Writes the `>` of a start tag that turned out to have content.
    @inline(__always) private mutating func closeOpenTag() throws {
        guard openTag else { return }
        openTag = false
        try beginColor(colors.tag)
        out.append(UInt8(ascii: ">"))
        try endColor(colors.tag)
    }

    /// Ends an open CDATA section.
    @inline(__always) private mutating func closeCDATAIfOpen() throws {
        guard cdataOpen else { return }
        cdataOpen = false
        try beginColor(colors.declaration)
        try out.append(escapes.cdataClose)
        try endColor(colors.declaration)
    }

    /// Writes the white space held back, escaped.
    private mutating func writePendingSpace() throws {
        guard !pendingSpace.isEmpty else { return }
        try pendingSpace.withUnsafeBufferPointer { try escapeText(EventString(base: $0.baseAddress, count: $0.count)) }
        pendingSpace.removeAll(keepingCapacity: true)
    }

    /// Starts a line indented for `depth`.
    private mutating func newline(depth: Int) throws {
        let width = depth * indent
        if width <= lineBreaks.count - 2 {
            try out.append(lineBreaks.base + 1, 1 + width)
        } else {
            out.append(0x0A)
            try out.appendRepeated(0x20, count: width)
        }
    }

    /// Appends text that may span lines inside a coloured token: the colour is closed before each
    /// line feed and opened again after it, so that no line starts inside an escape sequence.
    private mutating func appendColored(_ text: EventString, _ color: StaticBytes) throws {
        guard !color.isEmpty, let base = text.base else { return try out.append(text) }
        var start = 0
        for index in 0..<text.count where base[index] == 0x0A {
            try out.append(base + start, index - start)
            try out.append(colors.reset)
            try out.flushIfFull()
            out.append(0x0A)
            try out.append(color)
            start = index + 1
        }
        try out.append(base + start, text.count - start)
    }

    /// Starts a coloured token (nothing when that colour is off).
    @inline(__always) private mutating func beginColor(_ color: StaticBytes) throws {
        try out.append(color)
    }

    /// Ends what `beginColor(color)` started; nothing when that colour is off.
    @inline(__always) private mutating func endColor(_ color: StaticBytes) throws {
        if !color.isEmpty { try out.append(colors.reset) }
    }

    // MARK: - Document edges

    /// Writes the XML declaration found at the start of `raw`, if any, with the encoding changed
    /// to UTF-8 (libxml2 hands over text in UTF-8, whatever the document's encoding).
    mutating func writeDeclaration(from raw: [UInt8]) throws {
        guard let declaration = XMLDeclaration.find(in: raw) else { return }
        try beginColor(colors.declaration)
        try declaration.withUnsafeBytes { try out.append($0) }
        try endColor(colors.declaration)
        wroteAnything = true
    }

    /// Ends the document with a line feed.
    mutating func finishDocument() throws {
        try closeCDATAIfOpen()
        try closeOpenTag()
        if wroteAnything { out.append(0x0A) }
    }

    /// Forgets a start tag whose `>` will come with the as-received rest.
    mutating func abandonOpenTag() {
        openTag = false
    }

    /// Stops formatting: held whitespace is written as received, an open CDATA section is left
    /// for the as-received rest to close.
    mutating func abandon() throws {
        try pendingSpace.withUnsafeBytes { try out.append($0) }
        pendingSpace = []
        cdataOpen = false
    }

    /// Releases the element stack.
    func release() {
        out.deallocate()
        frames.deallocate()
    }
}
