import AFKit
import Glibc

/// Reads `afcli run FILE`: the requests of a `.http` file (JetBrains HTTP Client, VS Code REST
/// Client) as batch entries.
///
/// The file (a pipe or a device too, read once) is parsed whole at once (`HTTPFileParser`, at most
/// 16 MiB), and then every request is built once and dropped (`check`): a syntax error, an
/// undefined variable, a bad header or a missing body file in any request is reported with its
/// line before anything is sent. Skipped constructs (response handlers) are warned about with
/// theirs. `--env NAME` picks an environment of `http-client.env.json` and
/// `http-client.private.env.json` beside the file; `{{$dotenv NAME}}` reads `.env` beside it and
/// `{{$processEnv NAME}}` the process's environment. Variables are substituted and body files opened
/// again by `prepare`, request by request, when each is about to be sent. A request is named by `# @name`, else by the text after
/// `###`, else `request-N` (its position in the file). What the file does not say comes from the
/// run's options; `# @no-redirect`, `# @timeout` and `# @connection-timeout` override theirs.
enum HTTPFileBatch {
    /// The largest `.http` file read (16 MiB).
    static let maximumFileSize = 16 << 20

    /// What every entry of one file shares, held once.
    final class Context {
        let builder: HTTPFileRequestBuilder
        /// The run's settings, which a request without directives of its own is sent with.
        let shared: SharedOptions
        let environment: [String: String]

        init(builder: HTTPFileRequestBuilder, settings: ResolvedSettings, environment: [String: String]) {
            self.builder = builder
            shared = SharedOptions(settings)
            self.environment = environment
        }
    }

    /// The entries of the file at `path`, in file order.
    static func load(
        path: String, settings: ResolvedSettings, environment: [String: String]
    ) throws -> (entries: [PlanEntry], archive: ExchangeArchive) {
        let options = settings.options
        // The file may be a pipe or a device (`<(envsubst < api.http)`, `/dev/stdin`), read once.
        let bytes = try read(
            path, limit: maximumFileSize, tooLarge: "it is larger than 16 MiB, the most a .http file may be",
            acceptsStreams: true)
        guard let bytes else { throw BatchError.unreadableFile(path: path, reason: SystemError.message(ENOENT)) }
        var file: HTTPFile
        do {
            file = try HTTPFileParser.parse(bytes)
        } catch {
            throw LocatedError(origin: "\(path):\(error.line)", underlying: error)
        }
        for warning in file.warnings { ErrorReporter.warn("\(path):\(warning.line): \(warning.message)") }
        try HTTPFilePrompts.answer(&file.requests, given: options.run.variables, path: path)

        let directory = Self.directory(ofSource: path)
        let access = try fileAccess(options: options, directory: directory, source: path)
        let (values, hint) = try environmentVariables(
            directory: directory, access: access, source: path, name: options.environment.name,
            variableName: environment["AFCLI_ENV"].flatMap { $0.isEmpty ? nil : $0 })
        let references = RequestReferences(maximumDepth: options.output.maximumDepth)
        var variables = HTTPFileVariables(
                    file: file.variables, environment: values, undefinedHint: hint,
                    dotenv: HTTPFileDotenv.Loader {
                        do {
                            var info = stat()
                            if stat(directory + "/.env", &info) != 0, errno == ENOENT { return .success(nil) }
                            let dotenv = try access.checked(
                                directory + "/.env", marker: "the .env file", written: directory + "/.env", line: 0)
                            return .success(
                                try read(dotenv, limit: HTTPFileDotenv.maximumFileSize, tooLarge: "it is larger than 1 MiB"))
                        } catch let error as HTTPFileError {
                            return .failure(error)
                        } catch {
                            return .failure(HTTPFileError(line: 0, reason: "\(error)"))
                        }
                    })
        variables = variables.overriding(options.run.variables)
        variables.allowsProcessVariable = { [access] name in access.allowsVariable(name) }
        variables.requestValues = { reference, line throws(HTTPFileError) in
            do throws(RequestReferenceError) {
                return try references.value(ofText: reference)
            } catch {
                throw HTTPFileError(line: line, reason: error.reason)
            }
        }
        let context = Context(
            builder: HTTPFileRequestBuilder(
                variables: variables, directory: directory, refusesStandardInput: options.request.ignoreStdin,
                acceptEncoding: RequestPreparation.acceptEncoding,
                acceptLanguage: DefaultHeaders.acceptLanguage(environment: environment), access: access),
            settings: settings.overriding(try BatchCredentials.resolvingPassword(options)), environment: environment)
        try check(file.requests, path: path, context: context, references: references)
        references.startRun()
        var entries = file.requests.enumerated().map { index, request in
            PlanEntry(
                name: request.name ?? "request-\(index + 1)", origin: "\(path):\(request.line)",
                isKeeper: request.isFirst,
                prepare: { try prepare(request, path: path, context: context) },
                written: { (request.method, request.url) })
        }
        references.annotate(&entries)
        return (entries, references.archive)
    }

    /// Builds every request once, in file order, and drops it: the first mistake stops the run
    /// before anything is sent. The encryption command is not run here (it runs once, when the
    /// request is sent; a failure then fails that request alone, and nothing plain is sent).
    static func check(
        _ requests: [HTTPFileRequest], path: String, context: Context, references: RequestReferences? = nil
    ) throws {
        for (index, request) in requests.enumerated() {
            if index % 1024 == 1023, Interruption.isInterrupted {
                throw LocatedError(
                    origin: "\(path):\(request.line)", underlying: HTTPFileError.interrupted(line: request.line))
            }
            references?.checkingRequest(index)
            do {
                // A request that takes values from earlier ones (in its URL or headers) is not
                // built here: those values are not known yet, and the request is built and
                // checked with them when its turn comes.
                let begun = try begin(request, path: path, context: context)
                if references?.dependencies[index] == nil {
                    let (prepared, _, _) = try build(request, from: begun, path: path, context: context)
                    _ = try atLine(of: path) { () throws(HTTPFileError) in
                        try begun.head.awsStage(request, url: prepared.url)
                    }
                }
            } catch {
                // Nor is one whose body takes them: its mistakes are reported then.
                guard let references, references.dependencies[index] != nil, !references.unknownName else { throw error }
            }
            references?.checked(index, name: request.name)
        }
    }

    /// Builds one request with the run's options and the request's own directives.
    static func prepare(_ request: HTTPFileRequest, path: String, context: Context) throws -> PlannedRequest {
        // A request the file writes with what afcli cannot do (`?? js`) fails alone, unsent.
        if let refusal = request.refusal { throw LocatedError(origin: "\(path):\(refusal.line)", underlying: refusal) }
        let begun = try begin(request, path: path, context: context)
        var (prepared, shared, isShared) = try build(request, from: begun, path: path, context: context)
        let settings = shared.settings
        let options = settings.options
        // `Authorization: AWS …` signs the request with its own keys, in place of the run's
        // `--aws-sigv4`, last of all.
        let signing = try atLine(of: path) { () throws(HTTPFileError) in
            try begun.head.awsStage(request, url: prepared.url)
        }
        var encoding = settings
        if signing != nil {
            var unsigned = options
            unsigned.request.authStages.awsSigV4 = nil
            encoding = settings.overriding(unsigned)
        }
        // Encrypted (`--encrypt-cmd`), then compressed, as a request typed on the command line.
        // The file's own Content-Type is replaced by the encrypted type.
        try LocatedError.locating("\(path):\(request.line)") {
            try RequestPreparation.encode(&prepared, settings: encoding)
            if let signing { try RequestAuthentication.sign(&prepared, with: signing) }
        }
        var planned = PlannedRequest(prepared: prepared, shared: shared, isShared: isShared)
        if RequestLogger.isWanted(options) { planned.logFields = RequestLogFields(prepared: prepared) }
        planned.sendsCookies = !request.noCookieJar
        planned.assertions = request.assertions
        if !request.assertions.isEmpty { planned.conditionRetries = request.retries ?? options.retry.count }
        return planned
    }

    /// The request as the file writes it, serialized, and the options it is sent with: the run's,
    /// with the request's own directives layered over them (`EntryOverrides`).
    private static func build(
        _ request: HTTPFileRequest, path: String, context: Context
    ) throws -> (PreparedRequest, SharedOptions, isShared: Bool) {
        try build(request, from: begin(request, path: path, context: context), path: path, context: context)
    }

    /// The first step of `build`: the options, the credentials, and the URL and headers
    /// expanded. A check stops after it when the request turns out to take values from others.
    private struct Begun {
        var shared: SharedOptions
        var isShared: Bool
        var credentials: Credentials?
        var head: HTTPFileRequestBuilder.ExpandedHead
    }

    private static func begin(_ request: HTTPFileRequest, path: String, context: Context) throws -> Begun {
        let (shared, isShared) = EntryOverrides(request).applied(to: context.shared)
        let credentials = try InvocationBuilder.credentials(shared.values)
        let head = try atLine(of: path) { () throws(HTTPFileError) in try context.builder.expandHead(request) }
        return Begun(shared: shared, isShared: isShared, credentials: credentials, head: head)
    }

    /// The rest of `build`.
    private static func build(
        _ request: HTTPFileRequest, from begun: Begun, path: String, context: Context
    ) throws -> (PreparedRequest, SharedOptions, isShared: Bool) {
        let prepared = try atLine(of: path) { () throws(HTTPFileError) in
            try context.builder.prepare(
                request, head: begun.head, baseURL: begun.shared.values.request.baseURL,
                credentials: begun.credentials, environment: context.environment)
        }
        return (prepared, begun.shared, begun.isShared)
    }

    /// `body`'s result; its error placed at its line of the file at `path`.
    private static func atLine<T>(of path: String, _ body: () throws(HTTPFileError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw LocatedError(origin: "\(path):\(error.line)", underlying: error)
        }
    }

    /// What the file may read: files under `--file-root`, else under its own directory, and the
    /// environment variables `--allow-env` names.
    private static func fileAccess(options: Settings, directory: String, source: String) throws -> HTTPFileAccess {
        do {
            return try HTTPFileAccess(
                root: options.run.fileRoot ?? directory,
                rootOrigin: options.run.fileRoot == nil
                    ? (directory == "." && Self.directory(of: source) != "." ? "the working directory" : "the .http file's directory")
                    : "--file-root",
                allowedNames: options.run.allowedEnvironment)
        } catch {
            throw UsageError.invalidValue(option: "--file-root", value: options.run.fileRoot ?? directory, reason: error.reason)
        }
    }

    /// The chosen environment's variables and the hint for an undefined variable: `--env NAME`,
    /// else `$AFCLI_ENV` (`variableName`) when there are environment files to pick from.
    /// The environment files, like every file the .http file reads, must lie under the file root.
    private static func environmentVariables(
        directory: String, access: HTTPFileAccess, source: String, name typedName: String?,
        variableName: String? = nil
    ) throws -> (variables: [String: String], hint: String?) {
        let limit = HTTPClientEnvironment.maximumFileSize
        func readEnvironmentFile(_ name: String) throws -> [UInt8]? {
            let path = directory + "/" + name
            var info = stat()
            if stat(path, &info) != 0, errno == ENOENT { return nil }
            let checked: String
            do {
                checked = try access.checked(path, marker: "the environment file", written: name, line: 0)
            } catch {
                throw LocatedError(origin: source, underlying: error)
            }
            return try read(checked, limit: limit, tooLarge: "it is larger than 1 MiB")
        }
        let files = HTTPClientEnvironment.Files(
            publicBytes: try readEnvironmentFile(HTTPClientEnvironment.publicFile),
            privateBytes: try readEnvironmentFile(HTTPClientEnvironment.privateFile))
        let exists = files.publicBytes != nil || files.privateBytes != nil
        // The variable is set for a whole shell: without environment files beside this file it
        // names nothing here, where `--env` typed for the run would be an error.
        guard let name = typedName ?? (exists ? variableName : nil) else {
            return ([:], exists ? "no --env NAME was given to pick an environment of the environment files" : nil)
        }
        let variables: [String: String]
        do {
            variables = try HTTPClientEnvironment.variables(named: name, in: files)
        } catch {
            guard typedName == nil, case .unknownEnvironment(_, let known, _) = error else { throw error }
            throw HTTPClientEnvironmentError.unknownEnvironment(name, known: known, chosenBy: "$AFCLI_ENV")
        }
        return (variables, "nor in environment \(name)")
    }

    /// A file's bytes, nil when it does not exist.
    private static func read(
        _ path: String, limit: Int, tooLarge: String, acceptsStreams: Bool = false
    ) throws -> [UInt8]? {
        var info = stat()
        if stat(path, &info) != 0, errno == ENOENT { return nil }
        do {
            return try SmallFile.read(path, limit: limit, tooLarge: tooLarge, acceptsStreams: acceptsStreams)
        } catch {
            if error.isTerminal { throw BatchError.terminalInput(source: path) }
            // Ctrl-C while a pipe was read (`afcli run <(slow-command)`): interrupted, not unreadable.
            if Interruption.isInterrupted { throw LocatedError(origin: path, underlying: LineReaderError.interrupted) }
            throw BatchError.unreadableFile(path: path, reason: error.reason)
        }
    }

    /// The directory `< PATH` and the environment files are found in: the file's own, or the
    /// working directory for a pipe or a device (`/dev/fd/63` of `<(cmd)` is no place for them).
    static func directory(ofSource path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG else { return directory(of: path) }
        return "."
    }

    /// The directory part of `path` (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
