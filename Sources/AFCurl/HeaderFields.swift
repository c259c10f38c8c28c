/// The header fields of one response head, kept as the bytes received and turned into text only
/// when they are read.
///
/// Most heads are never read field by field (a batch looks at one header, or none), so the parser
/// appends each field's bytes to one buffer and records where its name and value lie; `decoded`,
/// `firstValue(named:)` and `values(named:)` make Strings with `HeaderText.decode`, exactly as an
/// eager decoding of every field would have. Fields given as text (a cached response, a test)
/// are kept as text. Everything sits in one immutable object, so a copy of a head costs one
/// reference count.
package struct HeaderFields: Sendable {
    /// Where one field's name and value lie in the received bytes (half-open ranges, always
    /// within them).
    struct Span: Sendable {
        var nameStart: UInt32
        var nameEnd: UInt32
        var valueStart: UInt32
        var valueEnd: UInt32
    }

    /// The fields, as received bytes or as text; nil for none.
    private let storage: Storage?

    /// No fields.
    package init() {
        storage = nil
    }

    /// The fields `fields`, as text.
    package init(_ fields: [(name: String, value: String)]) {
        storage = fields.isEmpty ? nil : Storage(bytes: [], spans: [], text: fields)
    }

    /// Fields as the parser collected them.
    fileprivate init(bytes: [UInt8], spans: [Span], text: [(name: String, value: String)]?) {
        storage = text == nil && spans.isEmpty ? nil : Storage(bytes: bytes, spans: spans, text: text)
    }

    /// The number of fields.
    package var count: Int {
        guard let storage else { return 0 }
        return storage.text?.count ?? storage.spans.count
    }

    /// Every field as text, in the order received.
    package var decoded: [(name: String, value: String)] {
        guard let storage else { return [] }
        if let text = storage.text { return text }
        return storage.bytes.withUnsafeBytes { buffer in
            storage.spans.map { (name: HeaderFields.name(of: $0, in: buffer), value: HeaderFields.value(of: $0, in: buffer)) }
        }
    }

    /// The value of the first field named `name` (compared ignoring ASCII case), decoding only it.
    package func firstValue(named name: String) -> String? {
        guard let storage else { return nil }
        if let text = storage.text { return text.first { ASCIICase.equal($0.name, name) }?.value }
        return storage.bytes.withUnsafeBytes { buffer in
            NameMatch.with(name) { match in
                storage.spans.first { match.matches($0, in: buffer) }.map { HeaderFields.value(of: $0, in: buffer) }
            }
        }
    }

    /// The values of every field named `name` (compared ignoring ASCII case), in order.
    package func values(named name: String) -> [String] {
        guard let storage else { return [] }
        if let text = storage.text { return text.filter { ASCIICase.equal($0.name, name) }.map(\.value) }
        return storage.bytes.withUnsafeBytes { buffer in
            NameMatch.with(name) { match in
                storage.spans.filter { match.matches($0, in: buffer) }.map { HeaderFields.value(of: $0, in: buffer) }
            }
        }
    }

    // MARK: - Decoding

    /// The bytes of `span`'s name.
    private static func nameBytes(_ span: Span, in buffer: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[Int(span.nameStart)..<Int(span.nameEnd)])
    }

    /// The decoded name of `span`.
    private static func name(of span: Span, in buffer: UnsafeRawBufferPointer) -> String {
        HeaderText.decode(nameBytes(span, in: buffer))
    }

    /// The decoded value of `span`.
    private static func value(of span: Span, in buffer: UnsafeRawBufferPointer) -> String {
        HeaderText.decode(UnsafeRawBufferPointer(rebasing: buffer[Int(span.valueStart)..<Int(span.valueEnd)]))
    }

    /// Whether fields have the name looked up, compared ignoring ASCII case as decoded text.
    private struct NameMatch {
        /// The UTF-8 of the name looked up.
        let wanted: UnsafeRawBufferPointer
        /// Whether that name is ASCII, as every name afcli looks up itself is.
        let isASCII: Bool

        /// Calls `body` with a match for `name`, made once for every field it is compared with.
        static func with<Result>(_ name: String, _ body: (NameMatch) -> Result) -> Result {
            var name = name
            return name.withUTF8 { bytes in
                body(NameMatch(wanted: UnsafeRawBufferPointer(bytes), isASCII: bytes.allSatisfy { $0 < 0x80 }))
            }
        }

        /// Whether the field at `span` has the name. An ASCII name can only be a field name of its
        /// own length whose bytes match it ignoring case (a byte above 0x7F decodes to a character
        /// outside ASCII), so most fields are passed over on their length alone.
        func matches(_ span: Span, in buffer: UnsafeRawBufferPointer) -> Bool {
            let raw = HeaderFields.nameBytes(span, in: buffer)
            if isASCII { return raw.count == wanted.count && ASCIICase.equal(wanted, raw) }
            return ASCIICase.equal(HeaderText.decode(raw), String(decoding: wanted, as: UTF8.self))
        }
    }

    /// The fields of one head, never changed once made.
    private final class Storage: Sendable {
        /// Every field's name and value bytes, back to back.
        let bytes: [UInt8]
        /// Where each field lies in `bytes`.
        let spans: [Span]
        /// The fields as text, when they were given so (then `bytes` and `spans` are unused).
        let text: [(name: String, value: String)]?

        init(bytes: [UInt8], spans: [Span], text: [(name: String, value: String)]?) {
            self.bytes = bytes
            self.spans = spans
            self.text = text
        }
    }
}

/// Collects the fields of the head being parsed, as bytes, for `HeaderFields`.
struct HeaderFieldsBuilder {
    /// Every field's name and value bytes so far, back to back.
    private var bytes: [UInt8] = []
    /// Where each field lies in `bytes`.
    private var spans: [HeaderFields.Span] = []
    /// The fields as text, once an obsolete folded line made them text; nil until then.
    private var text: [(name: String, value: String)]?

    /// The number of fields so far.
    var count: Int { text?.count ?? spans.count }

    /// Starts a head, with room for a typical one so its first fields do not regrow the buffers.
    mutating func start() {
        bytes = []
        spans = []
        text = nil
        bytes.reserveCapacity(512)
        spans.reserveCapacity(12)
    }

    /// Appends the field on `line` (without its line break): its name ends at `colon`, its
    /// value is the bytes in `value` (trimmed).
    mutating func append(line: UnsafeRawBufferPointer, colon: Int, value: Range<Int>) {
        if text != nil {
            text?.append(
                (
                    name: HeaderText.decode(UnsafeRawBufferPointer(rebasing: line[0..<colon])),
                    value: HeaderText.decode(UnsafeRawBufferPointer(rebasing: line[value]))
                ))
            return
        }
        // One copy of the whole line; the name and value are ranges in it. A head is at most
        // ResponseLimits.maxHeadBytes (1 MiB), so every offset fits in UInt32.
        let start = bytes.count
        if let base = line.baseAddress, !line.isEmpty {
            // The header callback's buffer is libcurl's `char` data: bytes, readable as UInt8.
            bytes.append(contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: line.count))
        }
        spans.append(
            HeaderFields.Span(
                nameStart: UInt32(truncatingIfNeeded: start), nameEnd: UInt32(truncatingIfNeeded: start + colon),
                valueStart: UInt32(truncatingIfNeeded: start + value.lowerBound),
                valueEnd: UInt32(truncatingIfNeeded: start + value.upperBound)))
    }

    /// Joins an obsolete folded line (RFC 9112 §5.2) to the last field's value with a space; the
    /// fields become text first, so each piece is decoded on its own, as it always was.
    mutating func appendContinuation(_ continuation: UnsafeRawBufferPointer) {
        var fields = text ?? HeaderFields(bytes: bytes, spans: spans, text: nil).decoded
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += " " + HeaderText.decode(continuation)
        text = fields
        bytes = []
        spans = []
    }

    /// The fields collected, handed over; the builder is left empty.
    mutating func finish() -> HeaderFields {
        let fields = HeaderFields(bytes: bytes, spans: spans, text: text)
        bytes = []
        spans = []
        text = nil
        return fields
    }
}
