import AFKit

/// The multipart/form-data builder: checks on names, file names and types, and the streamed body.
enum MultipartHarness {
    /// Input: NUL-separated fields taken four at a time as (name, value, file name, type); a part
    /// with an empty file name is a plain field. The body streamed must be exactly as long as the
    /// Content-Length the form announces, and start and end with its boundary.
    static func run(_ input: UnsafeRawBufferPointer) {
        guard var form = try? MultipartFormData(boundary: "fuzz-boundary") else { return }
        let fields = FuzzInput.fields(input)
        var index = 0
        while index + 3 < fields.count, index < 256 {
            let (name, value, filename, type) = (fields[index], fields[index + 1], fields[index + 2], fields[index + 3])
            if filename.isEmpty {
                try? form.append(field: name, value: value)
            } else {
                try? form.append(data: Array(value.utf8), name: name, filename: filename, contentType: type)
            }
            index += 4
        }
        let source = form.makeBodySource()
        var body: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let count = (try? chunk.withUnsafeMutableBytes { try source.read(into: $0) }) ?? -1
            FuzzInvariant.check(count >= 0, "an in-memory form reads without error")
            if count <= 0 { break }
            body += chunk[0..<count]
        }
        if let length = form.contentLength {
            FuzzInvariant.check(UInt64(body.count) == length, "body of \(body.count) bytes, announced \(length)")
        }
        if !form.parts.isEmpty {
            FuzzInvariant.check(body.starts(with: Array("--fuzz-boundary\r\n".utf8)), "body starts with the boundary")
            let closing = Array("\r\n--fuzz-boundary--\r\n".utf8)
            FuzzInvariant.check(Array(body.suffix(closing.count)) == closing, "body ends the form")
        }
    }
}
