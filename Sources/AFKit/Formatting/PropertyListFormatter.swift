import AFCurl
import CXMLShim

/// How a property list is shown (`--plist-as`).
package enum PropertyListDisplay: String, CaseIterable, Sendable {
    /// An indented XML property list.
    case xml
    /// JSON, formatted like any JSON body.
    case json
}

/// Shows a property-list body: an XML list goes through the XML formatter as it streams; a
/// binary list (`bplist00`), or any list shown as JSON, is held whole (the binary format keeps
/// its offset table at the end) and decoded first.
package final class PropertyListFormatter: BodyFormatter {
    private let display: PropertyListDisplay
    private let xmlOptions: XMLFormatOptions
    private let jsonOptions: JSONFormatOptions
    private let sink: ByteSink
    /// The body so far, while the kind is unknown or the whole list is needed.
    private var body: [UInt8] = []
    /// The XML formatter an XML list streams through, once chosen.
    private var streaming: XMLStreamFormatter?
    private var extraWarnings: [String] = []

    /// A formatter for `display`; the options describe the XML and JSON it prints.
    package init(display: PropertyListDisplay, xml: XMLFormatOptions, json: JSONFormatOptions, sink: ByteSink) {
        self.display = display
        self.xmlOptions = xml
        self.jsonOptions = json
        self.sink = sink
    }

    package var warnings: [String] { extraWarnings + (streaming?.warnings ?? []) }

    package func consume(_ chunk: UnsafeRawBufferPointer) throws {
        if let streaming {
            try streaming.consume(chunk)
            return
        }
        body.append(contentsOf: chunk)
        if display == .xml, body.count >= 8, !BinaryPropertyListDecoder.isBinaryPropertyList(body) {
            let formatter = XMLStreamFormatter(options: xmlOptions, sink: sink)
            streaming = formatter
            try body.withUnsafeBytes { try formatter.consume($0) }
            body = []
        }
    }

    package func finish() throws {
        if let streaming {
            try streaming.finish()
            return
        }
        guard !body.isEmpty else { return }
        let text: [UInt8]
        do {
            text = try written(body)
        } catch {
            if Interruption.isInterrupted { throw CurlError.interrupted(signal: Interruption.signal ?? 0) }
            extraWarnings.append("cannot read the property list (\(error)); the body is shown as received")
            try sink.writeRaw(body, escapingControls: xmlOptions.escapesControls)
            return
        }
        let formatter: BodyFormatter
        switch display {
        case .xml:
            // The XML form nests two elements deeper than the list (`<plist>`, a value's element).
            var options = xmlOptions
            options.maximumDepth += 2
            formatter = XMLStreamFormatter(options: options, sink: sink, threaded: false)
        case .json:
            formatter = JSONStreamFormatter(options: jsonOptions, sink: sink)
        }
        try text.withUnsafeBytes { try formatter.consume($0) }
        try formatter.finish()
        extraWarnings += formatter.warnings
    }

    /// The list in `body` decoded and written out as `display` shows it. Decoding, writing and
    /// releasing the value recurse a level at a time: on a stack that holds them (`DeepStack`).
    private func written(_ body: [UInt8]) throws(PropertyListError) -> [UInt8] {
        let levels = xmlOptions.maximumDepth
        return try DeepStack.run(levels: levels) { () throws(PropertyListError) -> [UInt8] in
            let value =
                BinaryPropertyListDecoder.isBinaryPropertyList(body)
                ? try BinaryPropertyListDecoder.decode(body, maximumDepth: levels)
                : try PropertyListXMLReader.read(body, maximumDepth: levels)
            return display == .xml ? value.xmlDocument : value.json
        }
    }

    /// The transfer failed: a streamed XML list shows what it formatted and the rest as
    /// received; a held list cannot be decoded, so what arrived is shown as received.
    package func abandon() throws {
        if let streaming { return try streaming.abandon() }
        try sink.writeRaw(body, escapingControls: xmlOptions.escapesControls)
        body = []
    }
}

/// Reads an XML property list into a `PropertyListValue`, from libxml2's events.
package enum PropertyListXMLReader {
    /// The value of the XML property list in `bytes`.
    /// Containers may nest `maximumDepth` levels deep.
    package static func read(
        _ bytes: [UInt8], maximumDepth: Int = FormattingLimits.maximumDepth
    ) throws(PropertyListError) -> PropertyListValue {
        guard let parser = cxml_push_new() else {
            throw PropertyListError(cxml_load_error().map { String(cString: $0) } ?? "cannot load libxml2")
        }
        defer { cxml_push_free(parser) }
        // `<plist>` and a value's element nest two deeper than the list.
        cxml_push_set_max_depth(parser, Int32(clamping: maximumDepth + 2))
        let batch = XMLParseWorker.parse([bytes], ending: true, with: parser)
        defer { batch.release() }
        guard batch.status == 0 else {
            if batch.isTooDeep { throw PropertyListError(FormattingLimits.tooDeep(maximumDepth)) }
            throw PropertyListError("malformed XML: \(batch.error ?? "unknown error")")
        }
        var builder = Builder()
        if let base = batch.events.baseAddress {
            var cursor = EventCursor(position: base, end: base + batch.events.count)
            while cursor.position < cursor.end {
                let kind = UInt32(cursor.position[0])
                let count = Int(UnsafeRawPointer(cursor.position + 4).loadUnaligned(as: UInt32.self))
                cursor.position += 8
                var strings: [String] = []
                for _ in 0..<count {
                    let string = cursor.next()
                    strings.append(
                        String(decoding: UnsafeBufferPointer(start: string.base, count: string.count), as: UTF8.self))
                }
                switch kind {
                case CXML_NODE_ELEMENT.rawValue: try builder.start(strings[0])
                case CXML_NODE_END_ELEMENT.rawValue: try builder.end(strings[0])
                case CXML_NODE_TEXT.rawValue, CXML_NODE_CDATA.rawValue: builder.text += strings[0]
                default: break
                }
            }
        }
        guard let root = builder.root else { throw PropertyListError("empty property list") }
        return root
    }

    /// Builds values from start and end tags.
    private struct Builder {
        /// An open `<dict>` or `<array>`; a class, so appending does not copy what came before.
        final class Frame {
            let isDictionary: Bool
            var members: [(key: String, value: PropertyListValue)] = []
            var elements: [PropertyListValue] = []
            var pendingKey: String?

            init(isDictionary: Bool) {
                self.isDictionary = isDictionary
            }
        }

        var stack: [Frame] = []
        var text = ""
        var root: PropertyListValue?

        /// Opens a container, or starts collecting a value's text.
        mutating func start(_ name: String) throws(PropertyListError) {
            text = ""
            switch name {
            case "plist", "key", "string", "integer", "real", "date", "data", "true", "false": break
            case "dict": stack.append(Frame(isDictionary: true))
            case "array": stack.append(Frame(isDictionary: false))
            default: throw PropertyListError("unexpected element <\(name)>")
            }
        }

        /// Completes the value the tag holds and adds it to its container.
        mutating func end(_ name: String) throws(PropertyListError) {
            defer { text = "" }
            switch name {
            case "plist": return
            case "key":
                guard let top = stack.last, top.isDictionary, top.pendingKey == nil else {
                    throw PropertyListError("misplaced <key>")
                }
                top.pendingKey = text
            case "dict", "array":
                guard let top = stack.popLast(), top.isDictionary == (name == "dict"), top.pendingKey == nil else {
                    throw PropertyListError("misplaced </\(name)>")
                }
                try add(top.isDictionary ? .dictionary(top.members) : .array(top.elements))
            case "string": try add(.string(text))
            case "integer": try add(.integer(text.trimmed))
            case "real": try add(.real(text.trimmed))
            case "date": try add(.date(text.trimmed))
            case "true": try add(.boolean(true))
            case "false": try add(.boolean(false))
            case "data": try add(.data(Self.base64Decoded(text)))
            default: throw PropertyListError("unexpected element <\(name)>")
            }
        }

        /// Adds a value to the open container (under its key in a dictionary), or makes it the root.
        mutating func add(_ value: PropertyListValue) throws(PropertyListError) {
            guard let top = stack.last else {
                root = value
                return
            }
            if !top.isDictionary {
                top.elements.append(value)
            } else if let key = top.pendingKey {
                top.members.append((key, value))
                top.pendingKey = nil
            } else {
                throw PropertyListError("a <dict> value without a <key>")
            }
        }

        /// Decodes base64 text, skipping white space and anything outside the alphabet.
        static func base64Decoded(_ text: String) -> [UInt8] {
            var bytes: [UInt8] = []
            var buffer: UInt32 = 0
            var bits = 0
            for byte in text.utf8 {
                let value: UInt8
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
                case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
                case UInt8(ascii: "+"): value = 62
                case UInt8(ascii: "/"): value = 63
                default: continue
                }
                buffer = buffer << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                }
            }
            return bytes
        }
    }
}

extension String {
    /// The text without ASCII white space at either end.
    fileprivate var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !" \t\r\n".unicodeScalars.contains($0) }),
            let last = scalars.lastIndex(where: { !" \t\r\n".unicodeScalars.contains($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
