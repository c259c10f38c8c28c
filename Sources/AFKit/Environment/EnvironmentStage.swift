import AFCurl

/// The environment stage of the request pipeline (DESIGN §3): merges an environment's common
/// parameters and headers into a request before it is serialized. The request's own values win.
///
/// - Headers: a common header is added unless the request has a header item of that name
///   (set, empty or removed); a common `Authorization` also yields to `--auth` credentials.
///   Common headers come first, in the config's order.
/// - Parameters go where the request's own parameters would go: into the query for GET, HEAD
///   and DELETE (after the URL's own query, before `==` items), into the body otherwise, and into
///   a multipart body as form fields (CJNetwork skipped uploads). A parameter is left out when the
///   request has a data field, `==` item or URL query parameter of the same name. When the body
///   cannot take fields (a raw body, standard input, an `@file` body, or a top-level JSON array),
///   the common parameters go into the query instead, so they are never lost.
package struct EnvironmentStage: Sendable {
    /// The environment whose parameters and headers are merged.
    package var profile: EnvironmentProfile

    package init(profile: EnvironmentProfile) {
        self.profile = profile
    }

    /// Merges the common headers and parameters into `spec`.
    package func apply(to spec: inout RequestSpec) throws(SerializationError) {
        applyHeaders(to: &spec)
        try applyParameters(to: &spec)
    }

    /// Prepends the common headers the request does not set itself.
    package func applyHeaders(to spec: inout RequestSpec) {
        guard !profile.headers.isEmpty else { return }
        // Without header items or credentials every common header is added: nothing to compare.
        if spec.headers.isEmpty, spec.credentials == nil {
            spec.headers = profile.headers.map { HeaderItem(name: $0.name, value: $0.value) }
            return
        }
        let typed = Set(spec.headers.map { ASCIICase.lowercased($0.name) })
        let common = profile.headers.filter { field in
            let name = ASCIICase.lowercased(field.name)
            if typed.contains(name) { return false }
            return !(name == "authorization" && spec.credentials != nil)
        }
        spec.headers = common.map { HeaderItem(name: $0.name, value: $0.value) } + spec.headers
    }

    /// Merges the common parameters the request does not give itself into its query or body.
    package func applyParameters(to spec: inout RequestSpec) throws(SerializationError) {
        guard !profile.parameters.isEmpty else { return }
        var typed = Set(spec.queryItems.map(\.name))
        for member in spec.parameters?.objectMembers ?? [] { typed.insert(member.key) }
        for name in Self.queryNames(of: spec.url) { typed.insert(name) }
        let common = profile.parameters.filter { !typed.contains($0.name) }.map(Self.member)
        guard !common.isEmpty else { return }

        let multipart = try MultipartRequestEncoder.sendsMultipartBody(spec)
        let inURL = !multipart && RequestSerializer.methodsEncodingParametersInURI.contains(spec.method.uppercased())
        switch spec.parameters {
        case _ where inURL || spec.rawBody != nil:
            appendQuery(common, to: &spec)
        case nil:
            spec.parameters = .object(common)
        case .object(let members)?:
            spec.parameters = .object(common + members)
        default:
            appendQuery(common, to: &spec)
        }
    }

    /// Puts the parameters, AF-flattened (`a[b]=1`, keys sorted), before the `==` items, so the
    /// URL keeps its own query and the request log counts them among the original parameters.
    private func appendQuery(_ members: [JSONMember], to spec: inout RequestSpec) {
        let pairs = QueryStringSerializer.pairs(from: .object(members))
        spec.queryItems = pairs.map { QueryItem(name: $0.field, value: $0.value ?? "") } + spec.queryItems
    }

    /// A common parameter as a parameter-tree member: text as a string, JSON as its value.
    private static func member(_ parameter: CommonParameter) -> JSONMember {
        switch parameter.value {
        case .text(let text):
            return JSONMember(key: parameter.name, value: .string(text))
        case .json(let text):
            // The loader wrote this text from a parsed value, so it parses; a string is the fallback.
            let value = (try? JSONParser.parse(text)) ?? .string(text)
            return JSONMember(key: parameter.name, value: value)
        }
    }

    /// The decoded names of the parameters already in `url`'s query.
    private static func queryNames(of url: String) -> [String] {
        if let names = url.utf8.withContiguousStorageIfAvailable(asciiQueryNames) ?? nil { return names }
        guard let query = URLReference(parsing: url).query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return URLPercentEncoding.decode(name.replacing("+", with: " "))
        }
    }

    /// `queryNames` for an ASCII URL, on its bytes; nil for any other. The query is cut as
    /// `URLReference(parsing:)` cuts it (after the first `?` before the first `#`); among ASCII
    /// bytes `&`, `=` and `+` are whole Characters, and a name without `+` or `%` decodes to itself.
    private static func asciiQueryNames(_ url: UnsafeBufferPointer<UInt8>) -> [String]? {
        guard !url.contains(where: { $0 >= 0x80 }) else { return nil }
        let fragmentStart = url.firstIndex(of: UInt8(ascii: "#")) ?? url.count
        guard let question = url[..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) else { return [] }
        let bytes = UnsafeBufferPointer(rebasing: url[(question + 1)..<fragmentStart])
        var names: [String] = []
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            // `split` omits empty pairs.
            if end > start {
                var nameEnd = start
                while nameEnd < end, bytes[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
                let name = UnsafeBufferPointer(rebasing: bytes[start..<nameEnd])
                let text = String(decoding: name, as: UTF8.self)
                let plain = !name.contains(UInt8(ascii: "+")) && !name.contains(UInt8(ascii: "%"))
                names.append(plain ? text : URLPercentEncoding.decode(text.replacing("+", with: " ")))
            }
            start = end + 1
        }
        return names
    }
}
