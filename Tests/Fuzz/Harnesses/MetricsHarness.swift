import AFKit

/// curl's `--write-out` language: the format parser and the renderer, on server-chosen values.
enum MetricsHarness {
    /// Input: a format, then optionally NUL-separated `Name: value` header fields of the final
    /// response; the last field is also the URL and the first the error message.
    ///
    /// A format without `%` or `\` renders as itself; literal segments are never empty nor
    /// adjacent; rendered chunks are never empty and alternate between streams; `%{json}` is
    /// always one valid JSON object, whatever the server's values hold.
    static func writeOut(_ input: UnsafeRawBufferPointer) {
        let fields = FuzzInput.fields(input)
        let text = fields[0]
        let format: WriteOutFormat
        do {
            format = try WriteOutFormat(parsing: text)
        } catch {
            FuzzInvariant.check(text.utf8.count > WriteOutFormat.maximumLength, "a format within the limit parses")
            return
        }
        var previousWasLiteral = false
        for segment in format.segments {
            if case .literal(let bytes) = segment {
                FuzzInvariant.check(!bytes.isEmpty && !previousWasLiteral, "literals are joined and not empty")
                previousWasLiteral = true
            } else {
                previousWasLiteral = false
            }
        }
        let headers: [(name: String, value: String)] = fields.dropFirst().map { field in
            let parts = field.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let head = ResponseHead(statusCode: 200, reasonPhrase: "OK", httpVersion: "HTTP/1.1", headers: headers)
        let context = WriteOutContext(
            metrics: nil, url: fields.last ?? "", method: "GET", head: fields.count > 1 ? head : nil, exitCode: 0,
            errorMessage: fields.count > 1 ? fields[1] : nil, redirectURL: fields.count > 2 ? fields[2] : nil)
        for escapes in [false, true] {
            let chunks = WriteOutFormatter.render(format, context, escapesControls: escapes)
            for (index, chunk) in chunks.enumerated() {
                FuzzInvariant.check(!chunk.bytes.isEmpty, "chunks are not empty")
                if index > 0 {
                    FuzzInvariant.check(
                        chunk.toStandardError != chunks[index - 1].toStandardError, "chunks alternate streams")
                }
            }
            if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") }) {
                let output = chunks.flatMap(\.bytes)
                FuzzInvariant.check(output == Array(text.utf8), "a format without % or \\ renders as itself")
            }
        }
        let json = WriteOutFormatter.jsonText(context)
        guard case .object(let members)? = try? JSONParser.parse(json) else {
            FuzzInvariant.check(false, "%{json} is a JSON object: \(json)")
            return
        }
        FuzzInvariant.check(members.count == WriteOutVariable.allCases.count - 1, "%{json} has every variable")
    }
}
