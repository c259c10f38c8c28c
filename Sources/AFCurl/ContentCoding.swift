/// A content or transfer coding of a response that libcurl cannot decode (`Content-Encoding:
/// foo`): the transfer then leaves the body as received instead of failing with "unrecognized
/// content encoding type", as browsers, HTTPie and curl without `--compressed` do.
package struct KeptCoding: Equatable, Sendable {
    /// The header that names it: `Content-Encoding` or `Transfer-Encoding`.
    package var field: String
    /// The coding as the server wrote it (`foo`).
    package var coding: String

    package init(field: String, coding: String) {
        self.field = field
        self.coding = coding
    }
}

/// Which codings of a response libcurl decodes, read from the encodings this libcurl was built
/// with (`gzip, deflate, br, zstd`) plus the names libcurl also knows (`identity`, `x-gzip`).
package enum ContentCoding {
    /// The coding names libcurl decodes, lower case; computed the first time a coding is seen.
    private static let decodable: Set<String> = names(decodedBy: CurlRuntime.supportedEncodings)

    /// The Accept-Encoding of a request the response cache may answer, and the codings its replays
    /// are judged by: every coding libcurl decodes when built with zlib, brotli and zstd (Debian's
    /// is), in the order `CurlRuntime.supportedEncodings` lists them. A constant, so that a request
    /// the cache answers is prepared without loading libcurl. A transfer checks it against the
    /// libcurl it loads: see `ResponseCache.startFetch`.
    package static let cacheAcceptEncoding = "gzip, deflate, br, zstd"

    /// The coding names decoded by a libcurl whose Accept-Encoding list is `list`
    /// (`gzip, deflate, br, zstd`), lower case, with the names libcurl also knows.
    private static func names(decodedBy list: String) -> Set<String> {
        var names: Set<String> = ["identity", "none"]
        for name in list.split(separator: ",") {
            names.insert(String(name).trimmingSpace.lowercasedASCII)
        }
        if names.contains("gzip") { names.insert("x-gzip") }
        return names
    }

    /// Whether `head` names any coding besides `chunked`, which only then needs a closer look.
    package static func namesCodings(_ head: ResponseHead) -> Bool {
        !head.values(for: "Content-Encoding").isEmpty
            || head.values(for: "Transfer-Encoding").contains { $0.trimmingSpace.lowercasedASCII != "chunked" }
    }

    /// `undecodable(in:decodesContent:)` for a libcurl that decodes the codings `list` names, as
    /// a stored response's codings are judged without loading libcurl (`cacheAcceptEncoding`).
    package static func undecodable(in head: ResponseHead, decodedBy list: String) -> KeptCoding? {
        undecodable(in: head, decodesContent: true, decodable: names(decodedBy: list))
    }

    /// The first coding of `head` that libcurl would fail on, nil when it decodes them all:
    /// `Transfer-Encoding` codings other than `chunked` always (libcurl applies them whatever
    /// the request asked), `Content-Encoding` codings only when `decodesContent` (the request
    /// set an Accept-Encoding, so libcurl decodes the content).
    package static func undecodable(in head: ResponseHead, decodesContent: Bool) -> KeptCoding? {
        undecodable(in: head, decodesContent: decodesContent, decodable: decodable)
    }

    private static func undecodable(
        in head: ResponseHead, decodesContent: Bool, decodable: Set<String>
    ) -> KeptCoding? {
        for value in head.values(for: "Transfer-Encoding") {
            if let coding = firstUnknown(in: value, skipping: "chunked", decodable: decodable) {
                return KeptCoding(field: "Transfer-Encoding", coding: coding)
            }
        }
        guard decodesContent else { return nil }
        for value in head.values(for: "Content-Encoding") {
            if let coding = firstUnknown(in: value, skipping: nil, decodable: decodable) {
                return KeptCoding(field: "Content-Encoding", coding: coding)
            }
        }
        return nil
    }

    /// The first name in a comma-separated list that libcurl does not decode.
    private static func firstUnknown(in list: String, skipping skipped: String?, decodable: Set<String>) -> String? {
        for item in list.split(separator: ",") {
            let name = String(item).trimmingSpace
            let lower = name.lowercasedASCII
            if lower.isEmpty || lower == skipped || decodable.contains(lower) { continue }
            return name
        }
        return nil
    }
}

extension String {
    /// The text without spaces and tabs at either end.
    fileprivate var trimmingSpace: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }

    /// The text with ASCII letters in lower case.
    fileprivate var lowercasedASCII: String { ASCIICase.lowercased(self) }
}
