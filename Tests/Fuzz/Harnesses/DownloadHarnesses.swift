import AFKit

/// What a download reads from servers and from its own state files.
enum DownloadHarnesses {
    /// A `Content-Disposition` value: the file name chosen is a plain, visible base name that
    /// fits the length limit, so a download never lands in another directory.
    static func contentDisposition(_ input: UnsafeRawBufferPointer) {
        let header = FuzzInput.text(input)
        _ = ContentDisposition.parse(header)
        let name = DownloadName.choose(contentDisposition: header, url: "http://fuzz.test/", contentType: nil)
        FuzzInvariant.check(!name.isEmpty && !name.hasPrefix("."), "name \(name.debugDescription) is visible")
        FuzzInvariant.check(!name.contains("/") && !name.contains("\\"), "name \(name.debugDescription) is a base name")
        FuzzInvariant.check(name.utf8.count <= DownloadName.maximumLength, "name of \(name.utf8.count) bytes")
    }

    /// A `Content-Range` value: what parses is a consistent byte range.
    static func contentRange(_ input: UnsafeRawBufferPointer) {
        guard let range = ContentRange(FuzzInput.text(input)) else { return }
        switch range {
        case .range(let first, let last, let complete):
            FuzzInvariant.check(first >= 0 && first <= last, "range \(first)-\(last) is ordered")
            if let complete { FuzzInvariant.check(last < complete, "range ends inside \(complete)") }
            FuzzInvariant.check(range.length == last - first + 1, "length of \(first)-\(last)")
        case .unsatisfied(let complete):
            FuzzInvariant.check(complete >= 0, "complete length \(complete) is not negative")
        }
    }

    /// A `NAME.part.state` file's text: what decodes, once sanitized as the writer does, encodes
    /// to text that decodes to the same state (for the URLs a request can have: no CR or LF).
    static func downloadState(_ input: UnsafeRawBufferPointer) {
        guard let text = String(validating: input, as: UTF8.self), let state = DownloadState(decoding: text) else {
            return
        }
        FuzzInvariant.check(state.bytes >= 0, "a state never claims a negative byte count")
        _ = state.ifRangeValidator
        let written = state.sanitized
        guard !written.url.utf8.contains(where: { $0 == 10 || $0 == 13 }) else { return }
        let again = DownloadState(decoding: written.encoded)
        FuzzInvariant.check(again == written, "state \(written) survives encoding")
    }
}
