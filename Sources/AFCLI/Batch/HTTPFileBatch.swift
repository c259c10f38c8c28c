import AFKit
import Glibc

/// Reads `afcli run FILE`: the requests of a `.http` file (JetBrains HTTP Client, VS Code REST
/// Client) as batch entries.
///
/// The file is parsed whole at once (`HTTPFileParser`, at most 16 MiB), so every syntax error is
/// reported with its line before anything is sent; skipped constructs (response handlers) are
/// warned about with theirs. `--env NAME` picks an environment of `http-client.env.json` and
/// `http-client.private.env.json` beside the file. Variables are substituted and body files opened
/// by `prepare`, request by request. A request is named by `# @name`, else by the text after
/// `###`, else `request-N` (its position in the file). What the file does not say comes from the
/// run's options; `# @no-redirect`, `# @timeout` and `# @connection-timeout` override theirs.
enum HTTPFileBatch {
    /// The largest `.http` file read (16 MiB).
    static let maximumFileSize = 16 << 20

    /// What every entry of one file shares, held once.
    final class Context {
        let builder: HTTPFileRequestBuilder
        let options: OptionValues
        let environment: [String: String]

        init(builder: HTTPFileRequestBuilder, options: OptionValues, environment: [String: String]) {
            self.builder = builder
            self.options = options
            self.environment = environment
        }
    }

    /// The entries of the file at `path`, in file order.
    static func load(path: String, options: OptionValues, environment: [String: String]) throws -> [BatchEntry] {
        let bytes = try read(
            path, limit: maximumFileSize, tooLarge: "it is larger than 16 MiB, the most a .http file may be")
        guard let bytes else { throw BatchError.unreadableFile(path: path, reason: SystemError.message(ENOENT)) }
        let file: HTTPFile
        do {
            file = try HTTPFileParser.parse(bytes)
        } catch {
            throw LocatedError(origin: "\(path):\(error.line)", underlying: error)
        }
        for warning in file.warnings { ErrorReporter.warn("\(path):\(warning.line): \(warning.message)") }

        let directory = Self.directory(of: path)
        let (variables, hint) = try environmentVariables(directory: directory, name: options.environmentName)
        let context = Context(
            builder: HTTPFileRequestBuilder(
                variables: HTTPFileVariables(file: file.variables, environment: variables, undefinedHint: hint),
                directory: directory),
            options: try BatchCredentials.resolvingPassword(options), environment: environment)
        return file.requests.enumerated().map { index, request in
            BatchEntry(
                name: request.name ?? "request-\(index + 1)", origin: "\(path):\(request.line)",
                isKeeper: request.isFirst,
                prepare: { try prepare(request, path: path, context: context) })
        }
    }

    /// Builds one request with the run's options and the request's own directives.
    static func prepare(_ request: HTTPFileRequest, path: String, context: Context) throws -> BatchRequest {
        var options = context.options
        if request.noRedirect { options.follow = false }
        if let timeout = request.timeout { options.timeout = timeout }
        if let connectionTimeout = request.connectionTimeout { options.connectTimeout = connectionTimeout }
        var prepared: PreparedRequest
        do {
            prepared = try context.builder.prepare(
                request, baseURL: options.baseURL, credentials: try InvocationBuilder.credentials(options),
                environment: context.environment)
        } catch let error as HTTPFileError {
            throw LocatedError(origin: "\(path):\(error.line)", underlying: error)
        }
        if options.compress {
            try LocatedError.locating("\(path):\(request.line)") { try RequestCompression.apply(to: &prepared) }
        }
        var batchRequest = BatchRequest(prepared: prepared, options: options)
        if RequestLogger.isWanted(options) { batchRequest.logFields = RequestLogFields(prepared: prepared) }
        batchRequest.decryptCommand = options.crypto.decryptCommand(profile: nil)
        return batchRequest
    }

    /// The chosen environment's variables and the hint for an undefined variable.
    private static func environmentVariables(
        directory: String, name: String?
    ) throws -> (variables: [String: String], hint: String?) {
        let publicPath = directory + "/" + HTTPClientEnvironment.publicFile
        let privatePath = directory + "/" + HTTPClientEnvironment.privateFile
        let limit = HTTPClientEnvironment.maximumFileSize
        let files = HTTPClientEnvironment.Files(
            publicBytes: try read(publicPath, limit: limit, tooLarge: "it is larger than 1 MiB"),
            privateBytes: try read(privatePath, limit: limit, tooLarge: "it is larger than 1 MiB"))
        guard let name else {
            let exists = files.publicBytes != nil || files.privateBytes != nil
            return ([:], exists ? "no --env NAME was given to pick an environment of the environment files" : nil)
        }
        return (try HTTPClientEnvironment.variables(named: name, in: files), "nor in environment \(name)")
    }

    /// A file's bytes, nil when it does not exist.
    private static func read(_ path: String, limit: Int, tooLarge: String) throws -> [UInt8]? {
        var info = stat()
        if stat(path, &info) != 0, errno == ENOENT { return nil }
        do {
            return try SmallFile.read(path, limit: limit, tooLarge: tooLarge)
        } catch {
            throw BatchError.unreadableFile(path: path, reason: error.reason)
        }
    }

    /// The directory part of `path` (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
