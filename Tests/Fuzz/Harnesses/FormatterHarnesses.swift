import AFKit

/// The response-body formatters, which run by default on a terminal on whatever a server sends.
enum FormatterHarnesses {
    /// Output kept per input: formatting must not need more, and the sink drops the rest.
    private static let outputLimit = 1 << 20

    /// Feeds the input to the JSON formatter in chunks whose size comes from the first byte, so
    /// the fuzzer explores chunk boundaries too; the option bits come from the second byte.
    static func json(_ input: UnsafeRawBufferPointer) {
        guard input.count >= 2 else { return }
        let flags = input[1]
        let options = JSONFormatOptions(
            layout: flags & 1 == 0 ? .indented(4) : .compact, sortsKeys: flags & 2 != 0, dropsNulls: flags & 4 != 0,
            allowsSequence: flags & 8 != 0)
        let formatter = JSONStreamFormatter(options: options, sink: CollectingSink(limit: outputLimit))
        feed(UnsafeRawBufferPointer(rebasing: input[2...]), chunk: Int(input[0]) + 1, to: formatter)
    }

    /// Feeds the input to the XML formatter (parsing on the calling thread) in chunks.
    static func xml(_ input: UnsafeRawBufferPointer) {
        guard input.count >= 1 else { return }
        let formatter = XMLStreamFormatter(
            options: XMLFormatOptions(), sink: CollectingSink(limit: outputLimit), threaded: false)
        feed(UnsafeRawBufferPointer(rebasing: input[1...]), chunk: Int(input[0]) * 64 + 1, to: formatter)
    }

    /// Decodes the input as a binary property list and formats it as JSON and as XML.
    static func binaryPropertyList(_ input: UnsafeRawBufferPointer) {
        let bytes = Array(input)
        guard BinaryPropertyListDecoder.isBinaryPropertyList(bytes) else { return }
        _ = try? BinaryPropertyListDecoder.decode(bytes)
        for display in PropertyListDisplay.allCases {
            let formatter = PropertyListFormatter(
                display: display, xml: XMLFormatOptions(), json: JSONFormatOptions(),
                sink: CollectingSink(limit: outputLimit))
            feed(input, chunk: 4096, to: formatter)
        }
    }

    /// Hands `body` to `formatter` `chunk` bytes at a time, then finishes it; errors are results.
    static func feed(_ body: UnsafeRawBufferPointer, chunk: Int, to formatter: some BodyFormatter) {
        var start = 0
        do {
            while start < body.count {
                let end = min(start + chunk, body.count)
                try formatter.consume(UnsafeRawBufferPointer(rebasing: body[start..<end]))
                start = end
            }
            try formatter.finish()
        } catch {
            return
        }
    }
}
