import AFKit
import Glibc

/// The one place where errors become messages on stderr and exit statuses (xh's
/// error_reporting.rs): library code only throws typed errors with lower-case descriptions.
enum ErrorReporter {
    /// Prints `afcli: error: …` (plus any caret lines) and returns the documented exit status.
    static func report(_ error: any Error) -> ExitStatus {
        let (status, message, detail) = classify(error)
        var text = "afcli: error: \(message.escapingControlsOnOneLine)\n"
        if let detail { text += detail.escapingTerminalControls + "\n" }
        StandardError.write(text)
        return status
    }

    // Messages quote what servers and files chose (reason phrases, envelope messages, names from
    // Content-Disposition): each is written on one line with its control characters escaped, so
    // none can act on a terminal or pass for a line of afcli's own.

    /// Prints `afcli: error: …` for a failure already classified.
    static func error(_ message: String) {
        StandardError.write("afcli: error: \(message.escapingControlsOnOneLine)\n")
    }

    /// Prints `afcli: warning: …`.
    static func warn(_ message: String) {
        StandardError.write("afcli: warning: \(message.escapingControlsOnOneLine)\n")
    }

    /// Prints `afcli: note: …`, information `--verbose` asked for.
    static func note(_ message: String) {
        StandardError.write("afcli: note: \(message.escapingControlsOnOneLine)\n")
    }

    /// The exit status, the message line and optional lines pointing at the problem.
    static func classify(_ error: any Error) -> (ExitStatus, String, String?) {
        switch error {
        case let error as UsageError:
            return (.usage, error.description, nil)
        case let error as LocatedError:
            let (status, message, detail) = classify(error.underlying)
            return (status, "\(error.origin): \(message)", detail)
        case let error as BatchError:
            return (.usage, error.description, nil)
        case let error as HTTPFileError:
            return (error.isInterrupt ? .interrupted : .usage, error.description, nil)
        case let error as HTTPClientEnvironmentError:
            return (.usage, error.description, nil)
        case let error as CommandLineSplitError:
            return (.usage, error.description, nil)
        case let error as LineReaderError:
            return (error == .interrupted ? .interrupted : .usage, error.description, nil)
        case let error as ItemError:
            return (error == .interrupted ? .interrupted : .usage, error.description, error.pointer)
        case let error as SerializationError:
            return (.usage, error.description, nil)
        case let error as HTTPClientError:
            return classify(clientError: error)
        case let error as CurlError:
            return classify(curlError: error)
        case let error as OutputStream.WriteError:
            return (.failure, error.description, nil)
        case let error as DownloadUsageError:
            return (.usage, error.description, nil)
        case let error as SecurityPolicyError:
            return (.usage, SecurityOptions.message(for: error), nil)
        case let error as ReachabilityError:
            return (.usage, error.description, nil)
        case let error as DownloadError:
            return classify(downloadError: error)
        case let error as ResponseValidationError:
            // AF's own message; a content-type failure under a status failure goes on the next line.
            return (ResponseChecks.exitStatus(for: error), error.description, error.underlyingError.map { "  \($0)" })
        case let error as PipedCommandError:
            // An encrypt command fails before anything is sent; a decrypt command after the exchange.
            let text = error.standardError.trimmingCharacters(in: "\n")
            return (error.role == "encrypt" ? .usage : .failure, error.description, text.isEmpty ? nil : text)
        case let error as EnvelopeError:
            if case .tooLarge = error { return (.limitExceeded, error.description, nil) }
            return (.responseRejected, error.description, nil)
        case let error as TemporaryFileError:
            return (.failure, error.description, nil)
        case let error as LogFileError:
            return (.usage, error.description, nil)
        case let error as ConfigError:
            return (.usage, error.description, nil)
        case let error as LocalAnswerError:
            return (.usage, error.description, nil)
        case let error as EnvironmentUsageError:
            return (.usage, error.description, nil)
        case let error as CacheMissError:
            return (.cacheMiss, error.description, nil)
        case let error as CacheUsageError:
            return (.usage, error.description, nil)
        case let error as CacheError:
            return (.failure, error.description, nil)
        case let error as BatchFileError:
            // A --output-dir that cannot be a directory is bad input, found before anything is
            // sent; a body that cannot be written is a failure of the run.
            if case .badDirectory = error { return (.usage, error.description, nil) }
            return (.failure, error.description, nil)
        case let error as SessionError:
            // A session that cannot be read stops the request before it is sent; one that cannot be
            // written back fails after the exchange.
            if case .cannotWrite = error { return (.failure, error.description, nil) }
            return (.usage, error.description, nil)
        default:
            return (.failure, String(describing: error), nil)
        }
    }

    /// A failed download: its HTTP status as 3/4/5 (whatever --check-status says, since no file is
    /// saved), 2 for a bad -o, 1 for the rest.
    private static func classify(downloadError: DownloadError) -> (ExitStatus, String, String?) {
        if downloadError.isInterrupt { return (.interrupted, downloadError.description, nil) }
        // `-o -` with a standard output closed at start: the same words as a request's body.
        if case .cannotWrite(let path, let code) = downloadError, path == DownloadDestination.standardOutputName,
            let reason = StandardStreams.closedReason(descriptor: STDOUT_FILENO, code: code)
        {
            return (.failure, "cannot write to \(path): \(reason)", nil)
        }
        if let code = downloadError.httpStatusCode {
            return (ExitStatus(checkingHTTPStatus: code) ?? .failure, downloadError.description, nil)
        }
        return (downloadError.isUsageError ? .usage : .failure, downloadError.description, nil)
    }

    private static func classify(clientError: HTTPClientError) -> (ExitStatus, String, String?) {
        switch clientError {
        case .tooManyRedirects, .refusedRedirect:
            return (.tooManyRedirects, clientError.description, nil)
        default:
            return (.failure, clientError.description, nil)
        }
    }

    /// The message for an exceeded response limit, naming the option that sets or lifts it.
    private static func limitMessage(_ error: CurlError) -> String {
        switch error.limitViolation {
        case .bodySize(let limit)?:
            return "response body exceeds --max-filesize \(limit)"
        case .expansionRatio(let limit)?:
            return "response body expands more than \(limit) times its encoded size, a compression bomb? "
                + "(--max-expansion 0 turns this check off)"
        default:
            return error.description
        }
    }

    private static func classify(curlError: CurlError) -> (ExitStatus, String, String?) {
        switch curlError.kind {
        case .timeout: return (.timeout, curlError.description, nil)
        case .couldNotResolve, .couldNotConnect: return (.connectionFailed, curlError.description, nil)
        case .tls: return (curlError.isPinMismatch ? .pinMismatch : .tlsFailure, curlError.description, nil)
        case .interrupted: return (.interrupted, "interrupted", nil)
        // libcurl refused the URL before connecting: bad input, nothing sent.
        case .badURL: return (.usage, curlError.description, nil)
        case .limitExceeded: return (.limitExceeded, limitMessage(curlError), nil)
        case .bodyReadFailed:
            // Bytes of the body already went out, so this is no longer bad input (exit 2): a file
            // that changed size or failed mid-upload is an ordinary failure.
            guard let underlying = curlError.underlyingError else { return (.failure, curlError.description, nil) }
            let (_, message, detail) = classify(underlying)
            return (.failure, message, detail)
        case .responseHandlerFailed:
            if let underlying = curlError.underlyingError { return classify(underlying) }
            return (.failure, curlError.description, nil)
        default: return (.failure, curlError.description, nil)
        }
    }
}
