import AFCurl

/// The response-head parser libcurl's header callback feeds, one line at a time.
enum ResponseHeadHarness {
    /// Input: header lines as a server sends them (LF-terminated; CR kept as sent).
    static func run(_ input: UnsafeRawBufferPointer) {
        var parser = ResponseHeadParser()
        var start = 0
        while start < input.count {
            var end = start
            while end < input.count, input[end] != 0x0A { end += 1 }
            if end < input.count { end += 1 }
            if case .completed(let head) = parser.feed(UnsafeRawBufferPointer(rebasing: input[start..<end])) {
                FuzzInvariant.check(head.statusCode >= 0, "status \(head.statusCode) is not negative")
                _ = head.value(for: "content-type")
            }
            start = end
        }
    }
}
