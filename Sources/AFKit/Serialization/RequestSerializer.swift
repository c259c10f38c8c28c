import AFCurl

/// Turns a `RequestSpec` into a `PreparedRequest`: the final URL, the headers in wire order and
/// the body source, the way AF's `requestBySerializingRequest:withParameters:` does.
package enum RequestSerializer {
    /// AF's `HTTPMethodsEncodingParametersInURI`: these methods carry parameters in the query.
    package static let methodsEncodingParametersInURI: Set<String> = ["GET", "HEAD", "DELETE"]

    /// Prepares `spec` for sending.
    ///
    /// - URL: `spec.url` validated and without user information (which becomes basic credentials
    ///   unless `spec.credentials` is set), then the `==` items, then for GET/HEAD/DELETE the
    ///   flattened parameters, each appended before any fragment.
    /// - Headers, defaults first: `User-Agent`, `Accept-Encoding` (only when `acceptEncoding` is
    ///   given), `Accept`, `Accept-Language`, `Authorization` (basic or bearer), `Content-Type`;
    ///   then the user's header items merged over them (see `mergeHeaders`).
    /// - Body: parameters encoded by `spec.encoding` for other methods; a raw body streamed.
    ///   A raw body is announced with its `;type=` when given; else an `@file` body with the type
    ///   its extension gives (the multipart table, `application/octet-stream` when unknown), as
    ///   HTTPie does, and standard input or `--raw` with the type of the chosen encoding
    ///   (`application/json` by default).
    ///   `Accept` is `application/json, */*;q=0.5` exactly when the body is announced as JSON.
    ///
    /// POST, PUT and PATCH always have a body, empty when nothing was given (libcurl then sends
    /// `Content-Length: 0`). Typed framing headers are checked by `RequestFraming`.
    ///
    /// A multipart body (file items, or `--multipart` for a method other than GET/HEAD) carries the
    /// fields and files as parts, streamed by `MultipartBodySource` with an exact length; its
    /// boundary is `boundary` when given (see `MultipartRequestEncoder`).
    ///
    /// `standardInput` is the source the CLI already peeked at; a new one is made when nil.
    /// `presetBody` is a body the caller built (a `.http` file's): it replaces the spec's body and
    /// brings no Content-Type of its own. `acceptLanguage` is
    /// `DefaultHeaders.acceptLanguage(environment:)` when the caller already made it (a batch
    /// makes it once for all its requests); nil makes it from `environment`.
    package static func prepare(
        _ spec: RequestSpec, environment: [String: String], acceptEncoding: String? = nil,
        standardInput: StandardInputBodySource? = nil, boundary: String? = nil,
        presetBody: (source: BodySource, bytes: [UInt8]?)? = nil, acceptLanguage: String? = nil
    ) throws(SerializationError) -> PreparedRequest {
        let multipart = try MultipartRequestEncoder.sendsMultipartBody(spec)
        let parametersInURL = !multipart && encodesParametersInURI(spec.method)

        var url = spec.url
        var userInfo: (user: String, password: String?)?
        if spec.urlIsFinal {
            assert((try? URLReference.parseRequestURL(url))?.string == url, "a final URL is its own normal form")
            assert(URLReference(parsing: url).userInfo == nil, "a final URL has no user information")
        } else {
            var reference = try URLReference.parseRequestURL(url)
            userInfo = reference.removeUserInfo()
            url = reference.string
        }
        if !spec.queryItems.isEmpty {
            url = QueryStringSerializer.appendQuery(QueryStringSerializer.queryString(from: spec.queryItems), to: url)
        }
        if parametersInURL, let parameters = spec.parameters {
            url = QueryStringSerializer.appendQuery(QueryStringSerializer.queryString(from: parameters), to: url)
        }

        var headerItems = spec.headers
        var body: PreparedBody
        if let presetBody {
            body = PreparedBody(source: presetBody.source, bytes: presetBody.bytes, contentType: nil)
        } else if multipart {
            let form = try MultipartRequestEncoder.form(for: spec, boundary: boundary, standardInput: standardInput)
            headerItems = MultipartRequestEncoder.headers(headerItems, for: form)
            // A form without parts is the closing delimiter alone, as HTTPie sends it.
            body = PreparedBody(source: form.makeBodySource(), bytes: form.inMemoryBytes, contentType: form.contentType)
        } else {
            body = try makeBody(spec, parametersInURL: parametersInURL, standardInput: standardInput)
        }
        if body.source == nil, RequestFraming.alwaysHasBody(spec.method) {
            body = PreparedBody(source: BytesBodySource([]), bytes: [], contentType: nil)
        }
        let framed = try RequestFraming.apply(headerItems, body: body.source)
        headerItems = framed.items
        body.source = framed.body
        let credentials = spec.credentials ?? userInfo.map { .basic(user: $0.user, password: $0.password ?? "") }

        var defaults: [HTTPField] = []
        defaults.reserveCapacity(6)
        defaults.append(HTTPField(name: "User-Agent", value: DefaultHeaders.userAgent))
        if let acceptEncoding { defaults.append(HTTPField(name: "Accept-Encoding", value: acceptEncoding)) }
        let accept = body.contentType == MediaType.json ? MediaType.acceptJSON : MediaType.acceptAny
        defaults.append(HTTPField(name: "Accept", value: accept))
        defaults.append(
            HTTPField(
                name: "Accept-Language",
                value: acceptLanguage ?? DefaultHeaders.acceptLanguage(environment: environment)))
        var digestCredentials: (user: String, password: String)?
        var scheme = ChallengeScheme.digest
        switch credentials {
        case .basic(let user, let password)?:
            defaults.append(
                HTTPField(
                    name: "Authorization", value: DefaultHeaders.basicAuthorization(user: user, password: password)))
        case .bearer(let token)?:
            defaults.append(HTTPField(name: "Authorization", value: DefaultHeaders.bearerAuthorization(token: token)))
        case .digest(let user, let password)?:
            digestCredentials = (user, password)
        case .ntlm(let user, let password)?:
            digestCredentials = (user, password)
            scheme = .ntlm
        case .negotiate(let user, let password)?:
            digestCredentials = (user, password)
            scheme = .negotiate
        case nil:
            break
        }
        if let contentType = body.contentType { defaults.append(HTTPField(name: "Content-Type", value: contentType)) }

        let merged = try mergeHeaders(distinctDefaults: defaults, items: headerItems)
        var prepared = PreparedRequest(
            method: spec.method, url: url, headers: merged.headers, removedHeaders: merged.removed,
            body: body.source, bodyBytes: body.bytes, digestCredentials: digestCredentials)
        prepared.challengeScheme = scheme
        return prepared
    }

    /// Whether `method` is one of `methodsEncodingParametersInURI`, in any case.
    private static func encodesParametersInURI(_ method: String) -> Bool {
        // The usual spellings are compared as they are, without an upper-cased copy to hash.
        if method == "GET" || method == "HEAD" || method == "DELETE" { return true }
        if method == "POST" || method == "PUT" || method == "PATCH" { return false }
        return methodsEncodingParametersInURI.contains(method.uppercased())
    }

    /// `mergeHeaders` for defaults known to have distinct names (the ones `prepare` makes). Items
    /// that each add a header of a new name, the usual case, follow the defaults as they are: the
    /// grouping by name would change nothing.
    private static func mergeHeaders(
        distinctDefaults defaults: [HTTPField], items: [HeaderItem]
    ) throws(SerializationError) -> (headers: [HTTPField], removed: [String]) {
        if items.isEmpty { return (defaults, []) }
        // Beyond a few items the pairwise comparisons would cost more than the grouping.
        guard items.count <= 8 else { return try mergeHeaders(defaults: defaults, items: items) }
        for (index, item) in items.enumerated() {
            guard item.value != nil, !defaults.contains(where: { sameName($0.name, item.name) }),
                !items[..<index].contains(where: { sameName($0.name, item.name) })
            else { return try mergeHeaders(defaults: defaults, items: items) }
        }
        var headers = defaults
        headers.reserveCapacity(defaults.count + items.count)
        for item in items {
            try validate(item)
            headers.append(HTTPField(name: item.name, value: item.value ?? ""))
        }
        return (headers, [])
    }

    /// Whether two header names are equal ignoring ASCII case (`ASCIICase.equal`), answered by
    /// their lengths first: names of different lengths are the usual case.
    private static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && ASCIICase.equal(lhs, rhs)
    }

    /// The user's header items applied over the defaults, in the order typed.
    ///
    /// A set item replaces every default of the same name (case-insensitively) at the default's
    /// position; repeated items of one name are all sent, each after the previous one; `Name:`
    /// (a nil value) removes every header of that name so far and records the name in `removed`
    /// so the transport suppresses its own; `Name;` (an empty value) sends the header empty.
    /// Headers are grouped by name as they are merged, so many items cost linear time.
    package static func mergeHeaders(
        defaults: [HTTPField], items: [HeaderItem]
    ) throws(SerializationError) -> (headers: [HTTPField], removed: [String]) {
        // Without items and with distinct default names (the usual request), the defaults stand as
        // they are: no grouping needed.
        if items.isEmpty, hasDistinctNames(defaults) { return (defaults, []) }
        // The headers of one name, where they go, and whether they are still the defaults.
        struct Group {
            var order: Int
            var fields: [HTTPField]
            var isDefault: Bool
        }
        var groups: [String: Group] = [:]
        var removed: [String: (order: Int, name: String)] = [:]
        var counter = 0
        func nextOrder() -> Int {
            counter += 1
            return counter
        }
        for field in defaults {
            let name = ASCIICase.lowercased(field.name)
            if groups[name] == nil {
                groups[name] = Group(order: nextOrder(), fields: [field], isDefault: true)
            } else {
                groups[name]?.fields.append(field)
            }
        }
        for item in items {
            try validate(item)
            let name = ASCIICase.lowercased(item.name)
            guard let value = item.value else {
                groups[name] = nil
                if removed[name] == nil { removed[name] = (nextOrder(), item.name) }
                continue
            }
            removed[name] = nil
            let field = HTTPField(name: item.name, value: value)
            switch groups[name]?.isDefault {
            case true?:
                groups[name]?.fields = [field]
                groups[name]?.isDefault = false
            case false?:
                groups[name]?.fields.append(field)
            case nil:
                groups[name] = Group(order: nextOrder(), fields: [field], isDefault: false)
            }
        }
        let headers = groups.values.sorted { $0.order < $1.order }.flatMap(\.fields)
        return (headers, removed.values.sorted { $0.order < $1.order }.map(\.name))
    }

    /// Whether no two of `fields` share a name (ignoring case); for the few defaults of a request.
    private static func hasDistinctNames(_ fields: [HTTPField]) -> Bool {
        for (index, field) in fields.enumerated() {
            for other in fields[(index + 1)...] where ASCIICase.equal(field.name, other.name) {
                return false
            }
        }
        return true
    }

    /// A body ready to send: the source, its bytes when built in memory, and its type.
    private struct PreparedBody {
        var source: BodySource?
        var bytes: [UInt8]?
        var contentType: String?
    }

    /// Builds the body of `spec`: a raw body, or the parameters encoded for a body method.
    private static func makeBody(
        _ spec: RequestSpec, parametersInURL: Bool, standardInput: StandardInputBodySource?
    ) throws(SerializationError) -> PreparedBody {
        let encodingType = ParameterBodyEncoder.contentType(for: spec.encoding)
        if let raw = spec.rawBody {
            if !parametersInURL, spec.parameters != nil { throw .conflictingBody }
            switch raw {
            case .bytes(let bytes):
                return PreparedBody(source: BytesBodySource(bytes), bytes: bytes, contentType: encodingType)
            case .file(let path, let contentType):
                let guessed = contentType ?? MIMETypeTable.shared.type(forPath: path)
                return PreparedBody(source: try FileBodySource(path: path), contentType: guessed)
            case .standardInput:
                return PreparedBody(source: standardInput ?? StandardInputBodySource(), contentType: encodingType)
            }
        }
        guard !parametersInURL, let encoded = try ParameterBodyEncoder.encode(spec.parameters, as: spec.encoding) else {
            return PreparedBody()
        }
        return PreparedBody(
            source: BytesBodySource(encoded.bytes), bytes: encoded.bytes, contentType: encoded.contentType)
    }

    /// Refuses header names that are not RFC 9110 tokens and values with line breaks or NUL,
    /// which would split or end the header block.
    package static func validate(_ item: HeaderItem) throws(SerializationError) {
        guard !item.name.isEmpty, item.name.utf8.allSatisfy(isTokenByte) else {
            throw .invalidHeader(name: item.name, reason: "a name is letters, digits and !#$%&'*+-.^_`|~")
        }
        if let value = item.value, let problem = headerValueProblem(value) {
            throw .invalidHeader(name: item.name, reason: problem)
        }
    }

    /// Why `value` cannot be sent as a header value (a line break would split the header block,
    /// a NUL would end it), naming what it holds; nil when it can.
    package static func headerValueProblem(_ value: String) -> String? {
        for byte in value.utf8 {
            if byte == 0x00 { return "the value contains a NUL byte" }
            if byte == 0x0A || byte == 0x0D { return "the value contains a line break" }
        }
        return nil
    }

    /// Whether `byte` is an RFC 9110 `tchar` (a header name's or a method's byte).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
