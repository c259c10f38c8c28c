import AFKit
import Glibc

/// What a request's log block says of the request: its address and its parameters as given and
/// as sent. Made when the request is built (for `afcli run`, on the thread that builds them).
struct RequestLogFields: Sendable {
    var address: String
    var originalParameters: String
    var finalParameters: String

    /// The fields of a request built from items.
    init(spec: RequestSpec, prepared: PreparedRequest) {
        address = CJRequestLog.address(spec.url)
        originalParameters = CJRequestLog.originalParameters(spec.parameters, queryItems: spec.queryItems)
        finalParameters = CJRequestLog.finalParameters(bodyBytes: prepared.bodyBytes)
    }

    /// The fields of a request written out whole (a `.http` file's): no items, so no parameters.
    init(prepared: PreparedRequest) {
        address = CJRequestLog.address(prepared.targetURI)
        originalParameters = CJRequestLog.originalParameters(nil, queryItems: [])
        finalParameters = CJRequestLog.finalParameters(bodyBytes: prepared.bodyBytes)
    }
}

/// The start of a response body, kept for the request log and for assertions: at most `limit`
/// bytes, however large the body.
struct LoggedBody {
    private(set) var bytes: [UInt8] = []
    /// Whether `bytes` is only the start of the body.
    private(set) var truncated = false
    /// The most bytes kept.
    var limit = RequestLogger.bodyLimit

    init(limit: Int = RequestLogger.bodyLimit) {
        self.limit = limit
    }

    /// Keeps what still fits of `chunk`.
    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        guard !truncated else { return }
        let room = limit - bytes.count
        bytes.append(contentsOf: chunk.prefix(room))
        truncated = chunk.count > room
    }

    /// The first `limit` bytes of what was kept (the log quotes less than assertions read).
    func prefix(_ limit: Int) -> LoggedBody {
        guard bytes.count > limit else { return self }
        var start = LoggedBody(limit: limit)
        start.bytes = Array(bytes.prefix(limit))
        start.truncated = true
        return start
    }
}

/// Writes the request log (`--log=cj`, `--log-file`): one CJNetwork block per request, to
/// standard error or appended to a file that is opened before anything is sent.
final class RequestLogger {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let address: String
    private let originalParameters: String
    private var finalParameters: String

    /// The most of a response body a log block quotes.
    static let bodyLimit = 4 * 1024 * 1024

    /// Whether the options ask for the request log.
    static func isWanted(_ options: Settings) -> Bool {
        (options.pipeline.log ?? (options.pipeline.logFile != nil ? .cj : .none)) == .cj
    }

    /// Where the log goes: the `--log-file`, opened (the caller closes a descriptor above 2),
    /// standard output for `--log-file -`, or standard error; nil when the options ask for no
    /// log. Throws when the log file cannot be opened.
    static func openTarget(_ options: Settings) throws -> Int32? {
        guard isWanted(options) else { return nil }
        guard let path = options.pipeline.logFile else { return STDERR_FILENO }
        if StandardStreams.isStandardOutput(path) { return STDOUT_FILENO }
        return try openLogFile(path)
    }

    /// A logger when the options ask for one, else nil; throws when the log file cannot be opened.
    convenience init?(options: Settings, spec: RequestSpec, prepared: PreparedRequest) throws {
        guard let descriptor = try Self.openTarget(options) else { return nil }
        self.init(
            descriptor: descriptor, owning: descriptor > STDERR_FILENO,
            fields: RequestLogFields(spec: spec, prepared: prepared))
    }

    /// A logger writing to `descriptor`, closed with the logger when `owning`.
    init(descriptor: Int32, owning: Bool, fields: RequestLogFields) {
        self.descriptor = descriptor
        ownsDescriptor = owning
        address = fields.address
        originalParameters = fields.originalParameters
        finalParameters = fields.finalParameters
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Opens the log file for appending: a new file is created 0600 (the log holds request
    /// parameters), and a symbolic link at the name is never followed, so a link planted there
    /// cannot send the log into another file.
    static func openLogFile(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LogFileError(path: path, code: errno) }
        return descriptor
    }

    /// Logs a response: its body as compact JSON when it passed validation, else the failure
    /// text for its status code.
    func responded(statusCode: Int, accepted: Bool, body: LoggedBody) {
        let result =
            accepted
            ? CJRequestLog.successText(body: body.bytes, truncated: body.truncated)
            : CJRequestLog.failureText(statusCode: statusCode)
        write(result)
    }

    /// Marks the answer as the response cache's: nothing was sent, so 最终参数 is the fallback text.
    func answeredFromCache() {
        finalParameters = CJRequestLog.finalParameters(bodyBytes: nil)
    }

    /// Logs a stored answer given before the network's (`--cache=cj-then-network`): its own block,
    /// with the fallback text as 最终参数, then the next block is the request's again.
    func respondedFromCache(statusCode: Int, accepted: Bool, body: LoggedBody) {
        let sent = finalParameters
        answeredFromCache()
        responded(statusCode: statusCode, accepted: accepted, body: body)
        finalParameters = sent
    }

    /// Logs a transfer that failed: `statusCode` is the response's, if a head had arrived.
    func failed(statusCode: Int?) {
        write(CJRequestLog.failureText(statusCode: statusCode))
    }

    /// Writes one block with `result` as 结果.
    private func write(_ result: String) {
        var text = CJRequestLog(
            address: address, originalParameters: originalParameters, finalParameters: finalParameters, result: result
        ).text
        // The block quotes the response body: on a terminal its control characters are shown,
        // not obeyed, as the printed body's are; a log file keeps the bytes as CJNetwork wrote them.
        if isatty(descriptor) == 1 { text = text.escapingTerminalControls }
        // A log that cannot be written must not fail the request it describes.
        try? FileDescriptorIO.writeAll(descriptor, text)
    }
}

/// The log file could not be opened (checked before anything is sent).
struct LogFileError: ClassifiedError, CustomStringConvertible {
    var path: String
    var code: Int32

    var failureClass: FailureClass { .badInput }

    var description: String {
        // O_NOFOLLOW reports a link as ELOOP, whose text ("too many levels…") would mislead.
        let reason =
            code == ELOOP ? "it is a symbolic link, which afcli does not follow" : SystemError.message(code)
        return "cannot open the log file \"\(path)\": \(reason)"
    }
}
