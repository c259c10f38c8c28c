import AFCurl

/// Turns a `RequestSpec` with file items (or `--multipart`) into a multipart form, the way AF's
/// `multipartFormRequestWithMethod:URLString:parameters:constructingBodyWithBlock:` does.
///
/// Fields come first, flattened by `AFQueryStringPairsFromDictionary` (keys sorted, `a[b]`, `l[]`)
/// with names left unescaped and null as an empty value; the file parts follow in the order typed
/// (CJNetwork's uploads too: ordinary fields travel before the files).
package enum MultipartRequestEncoder {
    /// The methods that never carry a multipart body (AF asserts against them).
    static let methodsWithoutBody: Set<String> = ["GET", "HEAD"]

    /// Whether `spec` is sent as a multipart body; throws when file items cannot be sent at all.
    ///
    /// File items always make the body multipart (with `--form`, or no encoding option); with
    /// `--json` or `--plist` given explicitly they are refused, as HTTPie refuses them. `--multipart`
    /// without files makes a multipart body for every method but GET and HEAD, whose fields go to
    /// the query string instead. A raw body is never multipart.
    package static func sendsMultipartBody(_ spec: RequestSpec) throws(SerializationError) -> Bool {
        // The usual request has neither: no upper-cased copy of its method is needed.
        guard !spec.files.isEmpty || spec.encoding == .multipart else { return false }
        let method = spec.method.uppercased()
        if !spec.files.isEmpty {
            if spec.rawBody != nil { throw .conflictingBody }
            switch spec.encoding {
            case .json: throw .filesNeedMultipart(encoding: "--json")
            case .plist: throw .filesNeedMultipart(encoding: "--plist")
            case .form, .multipart: break
            }
            if methodsWithoutBody.contains(method) { throw .filesNeedBodyMethod(method: method) }
            return true
        }
        return spec.encoding == .multipart && spec.rawBody == nil && !methodsWithoutBody.contains(method)
    }

    /// The form for `spec`: its fields, then its files.
    ///
    /// The boundary is `boundary` when given, else the one in a `Content-Type: multipart/…;
    /// boundary=B` header item (HTTPie honours it), else a fresh random one. A file item `-` reads
    /// `standardInput` (one is made when nil); only one item may.
    package static func form(
        for spec: RequestSpec, boundary: String?, standardInput: StandardInputBodySource?,
        mimeTypes: MIMETypeTable = .shared
    ) throws(SerializationError) -> MultipartFormData {
        let chosen = boundary ?? userContentType(spec.headers).flatMap(MultipartBoundary.parameter(inContentType:))
        var form = try MultipartFormData(boundary: chosen ?? MultipartBoundary.random(), mimeTypes: mimeTypes)
        if let parameters = spec.parameters {
            for pair in QueryStringSerializer.pairs(from: parameters) {
                // AF sends an NSNull as an empty part.
                try form.append(field: pair.field, value: pair.value ?? "")
            }
        }
        var standardInputUsed = false
        for file in spec.files {
            if file.path == "-" {
                guard !standardInputUsed else { throw .standardInputUsedTwice }
                standardInputUsed = true
                // curl names a part read from standard input `-` too.
                try form.append(
                    stream: standardInput ?? StandardInputBodySource(), path: "-", name: file.field,
                    filename: file.filename ?? "-", contentType: file.contentType)
            } else {
                try form.append(
                    fileAt: file.path, name: file.field, filename: file.filename, contentType: file.contentType)
            }
        }
        return form
    }

    /// The header items with a boundary added to a multipart `Content-Type` that lacks one, so
    /// the type the user set still describes the body (HTTPie does the same).
    package static func headers(_ items: [HeaderItem], for form: MultipartFormData) -> [HeaderItem] {
        items.map { item in
            guard ASCIICase.lowercased(item.name) == "content-type", let value = item.value,
                ASCIICase.lowercased(value).hasPrefix("multipart/"),
                MultipartBoundary.parameter(inContentType: value) == nil
            else { return item }
            return HeaderItem(name: item.name, value: value + "; boundary=\(form.boundary)")
        }
    }

    /// The value of the last `Content-Type` header item, if the user set one.
    private static func userContentType(_ items: [HeaderItem]) -> String? {
        items.last { ASCIICase.equal($0.name, "content-type") }?.value
    }
}
