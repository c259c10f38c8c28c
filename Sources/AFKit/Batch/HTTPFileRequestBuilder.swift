import AFCurl

/// Builds the request a `.http` file's entry describes: variables substituted, the URL made
/// absolute, headers exactly as written, the body as written (no Content-Type is added: the
/// file's own header is the one sent), a `< ./file` part streamed from disk.
///
/// Body lines are joined with LF, or CRLF when the written Content-Type is `multipart/…` (whose
/// delimiters need CRLF); a `< ./file` part among text lines is set off by one line break on each
/// side, as the file shows it. Files are opened here, when the request is about to be sent, never
/// while the file is read.
package struct HTTPFileRequestBuilder {
    /// The variables in effect (a request's `# @prompt` answers over them: `scoped`).
    package private(set) var variables: HTTPFileVariables
    /// The directory of the `.http` file, which `< PATH` is relative to.
    package let directory: String
    /// Whether a `< PATH` naming standard input (`< /dev/stdin`) is refused (`--ignore-stdin`).
    package let refusesStandardInput: Bool
    /// The Accept-Encoding and Accept-Language defaults, worked out once for every request the
    /// builder prepares; nil: asked of libcurl and the environment at each `prepare`.
    package let acceptEncoding: String?
    package let acceptLanguage: String?
    /// The directory files must lie under (`--file-root`); nil reads any file.
    package let access: HTTPFileAccess?

    package init(
        variables: HTTPFileVariables, directory: String, refusesStandardInput: Bool = false,
        acceptEncoding: String? = nil, acceptLanguage: String? = nil, access: HTTPFileAccess? = nil
    ) {
        self.variables = variables
        self.directory = directory
        self.refusesStandardInput = refusesStandardInput
        self.access = access
        self.acceptEncoding = acceptEncoding
        self.acceptLanguage = acceptLanguage
    }

    /// The paths that name the process's standard input itself, whatever it is.
    package static let standardInputPaths: Set<String> = [
        "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0",
    ]

    /// The prepared request; errors are `HTTPFileError`s at the line concerned. `credentials`
    /// (the run's `--auth`) give an Authorization header unless the file writes one.
    package func prepare(
        _ request: HTTPFileRequest, baseURL: String?, credentials: Credentials? = nil, environment: [String: String]
    ) throws(HTTPFileError) -> PreparedRequest {
        try prepare(
            request, head: expandHead(request), baseURL: baseURL, credentials: credentials, environment: environment)
    }

    /// A request's URL and headers with their variables substituted: what `prepare` does first.
    package struct ExpandedHead {
        var url: String
        var headers: [HeaderItem]

        /// The AWS Signature Version 4 stage an `Authorization: AWS …` header asks for, to sign
        /// `url`; nil for a request without one. The stage signs the request as sent, after every
        /// other stage.
        package func awsStage(_ request: HTTPFileRequest, url: String) throws(HTTPFileError) -> AWSSigV4Stage? {
            guard let index = headers.lastIndex(where: { ASCIICase.equal($0.name, "authorization") }),
                let value = headers[index].value
            else { return nil }
            let line = request.headers[index].line
            let stage: AWSSigV4Stage?
            do {
                stage = try HTTPFileRequestConventions.authorization(value).awsStage()
            } catch {
                throw HTTPFileError(line: line, reason: error.reason)
            }
            if let stage, (try? stage.scope(for: url)) == nil {
                throw HTTPFileError(
                    line: line,
                    reason: "Authorization: AWS needs region:REGION and service:SERVICE: "
                        + "\(URLReference(parsing: url).host ?? url) is no AWS host name to read them from")
            }
            return stage
        }
    }

    /// The first step of `prepare`. A check of a file stops after it when the request turns out
    /// to take values from earlier ones, which are not known before the run.
    package func expandHead(_ request: HTTPFileRequest) throws(HTTPFileError) -> ExpandedHead {
        if !request.promptValues.isEmpty {
            let (builder, request) = scoped(request)
            return try builder.expandHead(request)
        }
        let url = try variables.expand(request.url, line: request.line)
        var headers: [HeaderItem] = []
        headers.reserveCapacity(request.headers.count)
        for header in request.headers {
            headers.append(
                HeaderItem(
                    name: try variables.expand(header.name, line: header.line),
                    value: try variables.expand(header.value, line: header.line)))
        }
        return ExpandedHead(url: url, headers: headers)
    }

    /// `prepare` from its first step's result.
    package func prepare(
        _ request: HTTPFileRequest, head: ExpandedHead, baseURL: String?, credentials: Credentials? = nil,
        environment: [String: String]
    ) throws(HTTPFileError) -> PreparedRequest {
        if !request.promptValues.isEmpty {
            let (builder, request) = scoped(request)
            return try builder.prepare(
                request, head: head, baseURL: baseURL, credentials: credentials, environment: environment)
        }
        var url = head.url
        var headers = head.headers
        // `OPTIONS *` asks the server itself: the URL names the server, the target is `*`.
        let asksServer = url == "*"
        if asksServer {
            guard request.method == "OPTIONS" else {
                throw HTTPFileError(
                    line: request.line, reason: "* (the server itself) is a request target of OPTIONS only")
            }
            url = "/"
        }
        let hostIndex = headers.lastIndex { ASCIICase.equal($0.name, "host") }
        if url.hasPrefix("/"), baseURL == nil, let hostIndex, let host = headers[hostIndex].value, !host.isEmpty {
            // JetBrains' form: `GET /path` with a `Host:` header, which may name the scheme too
            // (`Host: https://example.com:8443`); the header sent is the host and port alone.
            if let scheme = host.firstRange(of: "://") {
                let authority = host[scheme.upperBound...].prefix(while: { $0 != "/" })
                url = String(host[..<authority.endIndex]) + url
                headers[hostIndex].value = String(authority)
            } else {
                url = "http://" + host + url
            }
        } else if asksServer, baseURL == nil {
            throw HTTPFileError(
                line: request.line, reason: "OPTIONS * needs a Host: header or --base-url to name the server")
        }
        var credentials = credentials
        // The head's headers are the request's, one for one, in order.
        if let index = headers.lastIndex(where: { ASCIICase.equal($0.name, "authorization") }),
            let value = headers[index].value
        {
            switch HTTPFileRequestConventions.authorization(value) {
            case .header(let sent):
                headers[index].value = sent
            case .digest(let user, let password):
                headers.remove(at: index)
                credentials = .digest(user: user, password: password)
            case .awsSigV4:
                // Signed as the last stage, once the body is final (`ExpandedHead.awsStage`).
                headers.remove(at: index)
                credentials = nil
            case .refused(let reason):
                throw HTTPFileError(line: request.headers[index].line, reason: reason)
            }
        }
        let isGraphQL = HTTPFileRequestConventions.isGraphQL(headers)
        if isGraphQL { headers.removeAll { ASCIICase.equal($0.name, "x-request-type") } }
        var contentType = headers.last { ASCIICase.equal($0.name, "content-type") }?.value
        if isGraphQL, contentType == nil {
            contentType = "application/json"
            headers.append(HeaderItem(name: "Content-Type", value: contentType))
        }
        let isMultipart = contentType.map { ASCIICase.lowercased($0).hasPrefix("multipart/") } ?? false
        let body =
            isGraphQL
            ? try graphQLBody(request.body)
            : try makeBody(
                request.body, lineBreak: isMultipart ? "\r\n" : "\n",
                joinsFormLines: HTTPFileRequestConventions.isForm(contentType))
        return try located(request, head) { () throws(SerializationError) in
            let made = try RequestURL.makeFinal(from: url, baseURL: baseURL)
            var spec = RequestSpec(method: request.method, url: made.url, headers: headers, credentials: credentials)
            spec.urlIsFinal = made.isFinal
            var prepared = try RequestSerializer.prepare(
                spec, environment: environment, acceptEncoding: acceptEncoding ?? HTTPClient.supportedAcceptEncoding,
                presetBody: body, acceptLanguage: acceptLanguage)
            if asksServer { prepared.requestTarget = "*" }
            return prepared
        }
    }

    /// This builder with the request's `# @prompt` answers over its variables, and the request
    /// without them (whose text the scoped builder expands).
    private func scoped(_ request: HTTPFileRequest) -> (builder: HTTPFileRequestBuilder, request: HTTPFileRequest) {
        var builder = self
        builder.variables = variables.overriding(request.promptValues)
        var request = request
        request.promptValues = [:]
        return (builder, request)
    }

    /// The body's source (and bytes when it is all text), or nil for no body. `joinsFormLines`:
    /// text lines starting with `&` continue the line before them (a form written over lines).
    private func makeBody(
        _ parts: [HTTPFileBodyPart], lineBreak: String, joinsFormLines: Bool
    ) throws(HTTPFileError) -> (source: BodySource, bytes: [UInt8]?)? {
        if parts.isEmpty { return nil }
        var sources: [BodySource] = []
        var allText: [UInt8]? = []
        for (index, part) in parts.enumerated() {
            if index > 0 { sources.append(BytesBodySource(Array(lineBreak.utf8))) }
            switch part {
            case .text, .substitutedFile:
                var expanded = try text(of: part)
                if joinsFormLines { expanded = HTTPFileRequestConventions.joinedFormLines(expanded) }
                if lineBreak != "\n" {
                    expanded = expanded.split(separator: "\n", omittingEmptySubsequences: false).joined(
                        separator: lineBreak)
                }
                let bytes = Array(expanded.utf8)
                sources.append(BytesBodySource(bytes))
                allText? += bytes
            case .file(let path, let line):
                let resolved = try resolvedPath(path, line: line, marker: "<")
                let source = try located(line) { () throws(SerializationError) in try FileBodySource(path: resolved) }
                sources.append(source)
                allText = nil
            }
        }
        if sources.count == 1 { return (sources[0], allText) }
        return (ConcatenatedBodySource(sources), allText)
    }

    /// A GraphQL request's body: its text parts and `<@` files, joined by line breaks, as the
    /// JSON object of a query and its variables; no body when the file writes none.
    private func graphQLBody(_ parts: [HTTPFileBodyPart]) throws(HTTPFileError) -> (
        source: BodySource, bytes: [UInt8]?
    )? {
        if parts.isEmpty { return nil }
        var texts: [String] = []
        var firstLine: Int?
        for part in parts {
            if case .file(_, let line) = part {
                throw HTTPFileError(
                    line: line, reason: "a GraphQL request's body is text: use <@ PATH to insert a file's query")
            }
            if case .text(_, let line) = part { firstLine = firstLine ?? line }
            texts.append(try text(of: part))
        }
        do {
            let bytes = try HTTPFileRequestConventions.graphQLBody(texts.joined(separator: "\n"))
            return (BytesBodySource(bytes), bytes)
        } catch {
            throw HTTPFileError(line: firstLine ?? parts.first.map(Self.line(of:)) ?? 0, reason: error.reason)
        }
    }

    /// The text of a `.text` part or a `<@` file, its variables substituted.
    private func text(of part: HTTPFileBodyPart) throws(HTTPFileError) -> String {
        switch part {
        case .text(let text, let line):
            return try variables.expand(text, line: line)
        case .substitutedFile(let path, let encoding, let line):
            let resolved = try resolvedPath(path, line: line, marker: "<@")
            let bytes: [UInt8]
            do {
                // Read whole, as a .http file is: its text is substituted before it is sent.
                bytes = try SmallFile.read(
                    resolved, limit: HTTPFileVariables.defaultMaximumLength,
                    tooLarge: "it is larger than 16 MiB, the most a <@ file may be")
            } catch {
                throw HTTPFileError(
                    line: line, reason: SerializationError.unreadable(path: resolved, reason: error.reason).description)
            }
            return try variables.expand(encoding.decode(bytes), line: line)
        case .file(_, let line):
            throw HTTPFileError(line: line, reason: "< PATH is streamed, not text")
        }
    }

    /// The path a `< PATH` or `<@ PATH` part names, its variables substituted, relative to the
    /// `.http` file's directory, its links resolved and checked to lie under the file root;
    /// standard input is refused under `--ignore-stdin` (and is no file the root bounds).
    private func resolvedPath(_ path: String, line: Int, marker: String) throws(HTTPFileError) -> String {
        let expanded = try variables.expand(path, line: line)
        let relative = expanded.hasPrefix("./") ? String(expanded.dropFirst(2)) : expanded
        let resolved = expanded.hasPrefix("/") ? expanded : directory + "/" + relative
        if refusesStandardInput, Self.standardInputPaths.contains(resolved) {
            throw HTTPFileError(
                line: line, reason: "\(marker) \(expanded) reads standard input, which --ignore-stdin leaves unread")
        }
        guard let access, !Self.standardInputPaths.contains(resolved) else { return resolved }
        return try access.checked(resolved, marker: marker, written: expanded, line: line)
    }

    /// The line a body part starts on.
    private static func line(of part: HTTPFileBodyPart) -> Int {
        switch part {
        case .text(_, let line), .file(_, let line), .substitutedFile(_, _, let line): return line
        }
    }

    /// Runs `body`, turning a serialization error into an error at `line`.
    private func located<T>(_ line: Int, _ body: () throws(SerializationError) -> T) throws(HTTPFileError) -> T {
        do {
            return try body()
        } catch {
            throw HTTPFileError(line: line, reason: error.description)
        }
    }

    /// `located` at the request's line, or at the header's own line for a header the serializer
    /// refuses (found by its name among those written).
    private func located<T>(
        _ request: HTTPFileRequest, _ head: ExpandedHead, _ body: () throws(SerializationError) -> T
    ) throws(HTTPFileError) -> T {
        do {
            return try body()
        } catch {
            var line = request.line
            if case .invalidHeader(let name, _) = error,
                let index = head.headers.firstIndex(where: { header in
                    header.name == name && (try? RequestSerializer.validate(header)) == nil
                })
            {
                line = request.headers[index].line
            }
            throw HTTPFileError(line: line, reason: error.description)
        }
    }
}
