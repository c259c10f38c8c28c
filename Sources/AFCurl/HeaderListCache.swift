import CCurlShim

/// The curl_slist of request header lines an `EasyHandle` gives libcurl, kept from one transfer
/// to the next: a transfer whose lines equal the last one's reuses the list, so a batch, whose
/// requests send the same headers, builds it once per handle instead of once per request.
///
/// libcurl only reads the list (it is never changed after it is made), and `curl_easy_reset`
/// forgets the pointer; the owner frees the list only once libcurl no longer points at it (the
/// next `list(for:uploading:posted:)` call, made before the options are set again, or after
/// `curl_easy_cleanup`).
struct HeaderListCache {
    /// The lines the list was made from, and whether it was made for an upload, and for a body
    /// posted from memory (`EasyHandle.sentHeaderLines`).
    private var lines: [String] = []
    private var uploading = false
    private var posted = false
    /// The list, or nil when it is empty or was not made yet.
    private var list: UnsafeMutablePointer<curl_slist>?
    /// Whether `list` was made (an empty list is nil too).
    private var isMade = false

    /// The list for `lines` (see `EasyHandle.sentHeaderLines`), made anew only when they differ
    /// from the last call's.
    mutating func list(
        for lines: [String], uploading: Bool, posted: Bool
    ) throws(CurlError) -> UnsafeMutablePointer<curl_slist>? {
        // Byte for byte: lines that are merely canonically equivalent send other bytes.
        if isMade && uploading == self.uploading && posted == self.posted && UTF8Bytes.equal(lines, self.lines) {
            return list
        }
        free()
        list = try HeaderListCache.make(EasyHandle.sentHeaderLines(lines, uploading: uploading, posted: posted))
        self.lines = lines
        self.uploading = uploading
        self.posted = posted
        isMade = true
        return list
    }

    /// Frees the list; only once libcurl no longer points at it.
    mutating func free() {
        afcurl_slist_free_all(list)
        list = nil
        lines = []
        isMade = false
    }

    /// Builds the curl_slist of `lines`.
    private static func make(_ lines: [String]) throws(CurlError) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            // withCString passes a native string's own bytes, without an intermediate C array.
            guard let extended = line.withCString({ afcurl_slist_append(list, $0) }) else {
                afcurl_slist_free_all(list)
                throw CurlError(kind: .other, code: Int(CURLE_OUT_OF_MEMORY.rawValue), description: "out of memory")
            }
            list = extended
        }
        return list
    }
}
