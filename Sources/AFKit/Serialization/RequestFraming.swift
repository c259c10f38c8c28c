import AFCurl

/// The headers that frame a request (`Host`, `Content-Length`, `Transfer-Encoding`), which afcli
/// sets itself so that the request it prints is the request libcurl sends.
///
/// libcurl sends a typed `Content-Length` instead of its own, even when the body is longer (the
/// server then reads the rest as the next request), and writes `Transfer-Encoding: chunked`
/// beside a typed `Content-Length`. So a typed framing header is accepted only when it agrees
/// with the body: `Content-Length` with the body's exact length (sent once, by libcurl), and
/// `Transfer-Encoding: chunked` on a request with a body (which is then sent chunked). `Host`
/// may be replaced (the last item wins, sent in Host's place) but not removed: HTTP/1.1 requires it.
package enum RequestFraming {
    /// The methods that always carry a body, an empty one when none was given: the transport's
    /// own rule, so the printed head and the sent one agree.
    package static var methodsWithBody: Set<String> { EasyHandle.methodsWithBody }

    /// Whether `method` is one of `methodsWithBody`; GET and HEAD, the usual methods without a
    /// body, are answered without hashing.
    static func alwaysHasBody(_ method: String) -> Bool {
        method != "GET" && method != "HEAD" && methodsWithBody.contains(method)
    }

    /// The header items without the framing ones afcli writes itself, and the body to send (made
    /// chunked when `Transfer-Encoding: chunked` was typed); throws for a disagreeing item.
    static func apply(
        _ items: [HeaderItem], body: BodySource?
    ) throws(SerializationError) -> (items: [HeaderItem], body: BodySource?) {
        // Without a framing item (the usual request) the items stand as they are.
        guard items.contains(where: { isFramingName($0.name) }) else { return (items, body) }
        var kept: [HeaderItem] = []
        var host: HeaderItem?
        var body = body
        var chunked = false
        for item in items {
            switch ASCIICase.lowercased(item.name) {
            case "content-length":
                try checkContentLength(item, body: body)
            case "transfer-encoding":
                guard let value = item.value, ASCIICase.lowercased(trimmed(value)) == "chunked", body != nil else {
                    throw .framingHeader(
                        name: item.name,
                        reason:
                            "afcli frames the body itself; only \"chunked\" on a request with a body can be asked for")
                }
                chunked = true
            case "host":
                guard item.value != nil else {
                    throw .framingHeader(
                        name: item.name, reason: "an HTTP/1.1 request needs one (Host:NAME sends another value)")
                }
                host = item
            default:
                kept.append(item)
            }
        }
        // Where Host goes among the items does not matter: libcurl writes it in Host's place.
        if let host { kept.append(host) }
        if chunked, let known = body, known.length != nil { body = ChunkedBodySource(known) }
        return (kept, body)
    }

    /// Whether `name` is `Content-Length`, `Transfer-Encoding` or `Host` in any case; told by its
    /// length first, without a lower-cased copy.
    private static func isFramingName(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return ASCIICase.equal(name, "host")
        case 14: return ASCIICase.equal(name, "content-length")
        case 17: return ASCIICase.equal(name, "transfer-encoding")
        default: return false
        }
    }

    /// Accepts a typed `Content-Length` that is the body's exact length (0 without a body).
    private static func checkContentLength(_ item: HeaderItem, body: BodySource?) throws(SerializationError) {
        let typed = item.value.map(trimmed)
        let actual: UInt64? = body == nil ? 0 : body?.length
        guard let typed, let actual, typed == String(actual) else {
            let what: String
            if let actual {
                what = body == nil ? "the request has no body" : "the body is \(actual) bytes"
            } else {
                what = "the body's length is not known in advance (it is sent chunked)"
            }
            throw .framingHeader(name: item.name, reason: "afcli sets it from the body, and \(what)")
        }
    }

    /// The text without leading and trailing spaces and tabs (a header value's optional whitespace).
    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// A body whose length is hidden, so that libcurl sends it with `Transfer-Encoding: chunked`.
package final class ChunkedBodySource: BodySource {
    /// The body sent.
    package let wrapped: BodySource

    /// A source that delivers `wrapped`'s bytes without announcing their length.
    package init(_ wrapped: BodySource) {
        self.wrapped = wrapped
    }

    package var length: UInt64? { nil }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try wrapped.read(into: buffer)
    }

    package func rewind() throws {
        try wrapped.rewind()
    }
}

extension PreparedRequest {
    /// The body as the serializer built it, beneath a `ChunkedBodySource`, for showing it (a
    /// multipart preview, a file's name).
    package var builtBody: BodySource? {
        (body as? ChunkedBodySource)?.wrapped ?? body
    }
}
