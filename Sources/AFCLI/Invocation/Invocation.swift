import AFKit
import Glibc

/// Everything a request command line asks for, checked and ready to serialize.
struct Invocation {
    /// The request as the serializers take it.
    var spec: RequestSpec
    /// Standard input, already peeked, when it is the body.
    var standardInput: StandardInputBodySource?
    /// The URL's path as typed, relative to the environment's base (what `--local` reads).
    var apiPath = ""
}

/// Builds an `Invocation` from the positionals and options (HTTPie's command shape, DESIGN §2).
///
/// Every check that can fail happens here, before a byte is sent: items, files, JSON, the URL,
/// conflicting bodies.
enum InvocationBuilder {
    /// The METHOD words, recognised in any case as the first positional. A list, not a set:
    /// building a set costs a single request more than searching seven words.
    static let methodWords = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Builds the invocation, reading the files items name and peeking at standard input.
    static func build(
        positionals: [String], settings: ResolvedSettings
    ) throws -> Invocation {
        let options = settings.options
        let (methodWord, urlText, items) = try split(positionals)
        var resolver = ItemResolver()
        for argument in items { try resolver.add(argument) }

        var rawBody: RawBody?
        if let raw = options.request.rawBody { rawBody = .bytes(Array(raw.utf8)) }
        if let file = resolver.bodyFile {
            guard rawBody == nil else { throw ItemError.conflictingBodies(Self.mixedBodies) }
            rawBody = file.path == "-" ? .standardInput : .file(path: file.path, contentType: file.contentType)
        }
        let hasItemsBody = resolver.hasData || !resolver.files.isEmpty
        if rawBody != nil, hasItemsBody { throw ItemError.conflictingBodies(Self.mixedBodies) }

        var standardInput: StandardInputBodySource?
        var stdinNamed = resolver.files.contains { $0.path == "-" }
        // A pattern, not `==`: comparing optionals of RawBody builds and destroys a value.
        if case .standardInput? = rawBody { stdinNamed = true }
        if stdinNamed, options.request.ignoreStdin {
            // Refused before anything is sent rather than read anyway or sent empty.
            let file = resolver.files.first { $0.path == "-" }
            throw ItemError.ignoredStandardInput(item: file.map { $0.field + "@-" } ?? resolver.bodyFile?.item ?? "@-")
        }
        if !options.request.ignoreStdin, StandardInput.kind() == .readable {
            if stdinNamed {
                standardInput = StandardInputBodySource()
            } else if rawBody != nil || hasItemsBody {
                // The command line already has a body: only refuse stdin that visibly carries one.
                if StandardInput.isReadyNow() {
                    let source = StandardInputBodySource()
                    if try source.peekFirstChunk() > 0 { throw ItemError.conflictingBodies(Self.mixedBodies) }
                }
            } else {
                let source = StandardInputBodySource()
                if try source.peekFirstChunk() > 0 {
                    standardInput = source
                    rawBody = .standardInput
                }
            }
        } else if stdinNamed {
            standardInput = StandardInputBodySource()
        }

        let inferred = (rawBody != nil || hasItemsBody) ? "POST" : "GET"
        let method = options.request.method ?? methodWord ?? inferred
        if !resolver.files.isEmpty, method == "GET" || method == "HEAD" {
            throw ItemError.invalidFileOption(
                item: resolver.files[0].field + "@" + resolver.files[0].path,
                reason: "file uploads need a method with a body, not \(method)")
        }
        let target = try EnvironmentTarget.resolve(urlText, settings: settings)
        let encoding = options.request.encoding ?? (resolver.files.isEmpty ? .json : .multipart)
        var spec = RequestSpec(
            method: method, url: target.url, queryItems: resolver.queryItems, headers: resolver.headers,
            parameters: resolver.parameters.tree, files: resolver.files, rawBody: rawBody,
            encoding: encoding, credentials: try credentials(options))
        spec.urlIsFinal = target.isFinal
        return Invocation(spec: spec, standardInput: standardInput, apiPath: target.apiPath)
    }

    /// The method and URL `positionals` name as written, before any item is read or the URL
    /// resolved: what a run's line says of a request that could not be built. The method is the
    /// METHOD word or `--method`, else the one the items imply (POST for a body, else GET).
    static func written(_ positionals: [String], options: Settings) -> (method: String, url: String) {
        guard let (word, url, items) = try? split(positionals) else { return ("", positionals.first ?? "") }
        let sendsBody =
            options.request.rawBody != nil
            || items.contains { item in
                switch RequestItem.parse(item)?.kind {
                case .header?, .emptyHeader?, .headerFromFile?, .query?, .queryFromFile?, nil: return false
                default: return true
                }
            }
        return (options.request.method ?? word ?? (sendsBody ? "POST" : "GET"), url)
    }

    /// The METHOD word of `positionals` (upper-cased, nil when left out), the URL and the items;
    /// throws when the URL is missing or a word before it reads as an unknown METHOD.
    static func split(
        _ positionals: [String]
    ) throws(UsageError) -> (method: String?, url: String, items: ArraySlice<String>) {
        var rest = positionals[...]
        var methodWord: String?
        if let first = rest.first, let word = recognizedMethod(first) {
            methodWord = word
            rest = rest.dropFirst()
        }
        guard let urlText = rest.first else { throw UsageError.missingURL }
        if methodWord == nil, looksLikeMethod(urlText), rest.dropFirst().contains(where: isURL) {
            throw UsageError.unknownMethod(urlText)
        }
        return (methodWord, urlText, rest.dropFirst())
    }

    /// `text` upper-cased when it is one of `methodWords` in any case, else nil.
    static func recognizedMethod(_ text: String) -> String? {
        // An ASCII byte other than a letter stays in the upper-cased text, which is then no method
        // word: a URL (the usual first positional) is refused without an upper-cased copy.
        guard !text.utf8.contains(where: { $0 < 0x80 && !(0x41...0x5A).contains($0 & 0xDF) }) else { return nil }
        let word = text.uppercased()
        return methodWords.contains(word) ? word : nil
    }

    /// Whether a first positional reads as a method name rather than a URL: letters only
    /// (`PURGE`), with no dot, colon or slash a host or URL would have.
    static func looksLikeMethod(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Whether a positional is a URL that no item could be: an absolute URL (`scheme://…`) or the
    /// `:PORT` shorthand (an item would be a header with no name).
    static func isURL(_ text: String) -> Bool {
        let utf8 = text.utf8
        if utf8.count > 1, utf8.first == UInt8(ascii: ":"), (0x30...0x39).contains(utf8.dropFirst().first ?? 0) {
            return true
        }
        return isAbsoluteURL(text)
    }

    /// Whether a positional is an absolute URL (`scheme://…`), which an item never is: the scheme
    /// is a letter then letters, digits, `+`, `-` or `.` (RFC 3986).
    static func isAbsoluteURL(_ text: String) -> Bool {
        guard let range = text.firstRange(of: "://") else { return false }
        let scheme = text.utf8[..<range.lowerBound]
        guard let first = scheme.first, (0x61...0x7A).contains(first | 0x20) else { return false }
        return scheme.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    static let mixedBodies =
        "a request body (from stdin, --raw or @FILE) and data items (NAME=VALUE, NAME@FILE) cannot be mixed"

    /// `-a` with `-A`: `user:password` splits at the first colon; a bearer token is taken whole;
    /// `user` alone asks for the password on the terminal (`TerminalPrompt`).
    /// With `--aws-sigv4`, `-a` holds the keys it signs with, and no credentials are sent as such;
    /// `-A negotiate` needs no `-a` (its ticket comes from the system: curl's `-u :`).
    static func credentials(_ options: Settings) throws -> Credentials? {
        // -a holds the AWS keys, or the OAuth 2 client's id and secret, not credentials to send.
        guard options.request.authStages.awsSigV4 == nil, options.request.authType != .oauth2 else { return nil }
        // Checked before sending; --offline and --curl only show the request.
        if options.request.authType == .ntlm || options.request.authType == .negotiate, !options.request.offline,
            !options.request.curl
        {
            try ChallengeAuthCheck.check(options.request.authType == .ntlm ? .ntlm : .negotiate) { name in
                getenv(name).map { String(cString: $0) }
            }
        }
        guard let auth = options.request.auth else {
            return options.request.authType == .negotiate ? .negotiate(user: "", password: "") : nil
        }
        switch options.request.authType {
        case .oauth2:
            return nil
        case .bearer:
            return .bearer(token: auth)
        case .basic, .digest, .ntlm, .negotiate:
            let parts = auth.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let user = String(parts[0])
            // `-a USER` asks for the password on the terminal; without one it is empty.
            let password = parts.count > 1 ? String(parts[1]) : try TerminalPrompt.password(user: user) ?? ""
            switch options.request.authType {
            case .digest: return .digest(user: user, password: password)
            case .ntlm: return .ntlm(user: user, password: password)
            case .negotiate: return .negotiate(user: user, password: password)
            case .basic, .bearer, .oauth2: return .basic(user: user, password: password)
            }
        }
    }
}
