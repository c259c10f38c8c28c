import AFKit
import Glibc

/// An error whose report on standard error is more than its description: AFCLI's own words that
/// name options, lines under the message that point at the problem, or the report of the error
/// it wraps. `ErrorReporter` prints any other error's description.
protocol ReportedError: Error {
    /// The message line, without `afcli: error: `.
    var reportMessage: String { get }
    /// Lines printed under the message line, or nil.
    var reportDetail: String? { get }
}

extension LocatedError: ReportedError {
    /// The wrapped error's report, its message prefixed with where the entry was written.
    var reportMessage: String { "\(origin): \(ErrorReporter.wording(of: underlying).message)" }
    var reportDetail: String? { ErrorReporter.wording(of: underlying).detail }
}

extension CurlError: ReportedError {
    /// The error a body source or a response handler threw, when this only carries it through
    /// libcurl: it is what the user needs to read.
    private var carried: (any Error)? {
        kind == .bodyReadFailed || kind == .responseHandlerFailed ? underlyingError : nil
    }

    var reportMessage: String {
        if let carried { return ErrorReporter.wording(of: carried).message }
        switch (kind, limitViolation) {
        case (.interrupted, _):
            return "interrupted"
        // An exceeded response limit names the option that sets or lifts it.
        case (.limitExceeded, .bodySize(let limit)?):
            return "response body exceeds --max-filesize \(limit)"
        case (.limitExceeded, .expansionRatio(let limit)?):
            return "response body expands more than \(limit) times its encoded size, a compression bomb? "
                + "(--max-expansion 0 turns this check off)"
        default:
            return description
        }
    }

    var reportDetail: String? { carried.flatMap { ErrorReporter.wording(of: $0).detail } }
}

extension ItemError: ReportedError {
    var reportMessage: String { description }
    /// The argument and a caret line under the place that is wrong.
    var reportDetail: String? { pointer }
}

extension SecurityPolicyError: ReportedError {
    /// AF's terms with afcli's option names beside them.
    var reportMessage: String { SecurityOptions.message(for: self) }
    var reportDetail: String? { nil }
}

extension ResponseValidationError: ReportedError {
    /// AF's own message.
    var reportMessage: String { description }
    /// A content-type failure under a status failure, on the next line.
    var reportDetail: String? { underlyingError.map { "  \($0)" } }
}

extension PipedCommandError: ReportedError {
    var reportMessage: String { description }
    /// What the command wrote to its standard error.
    var reportDetail: String? {
        let text = standardError.trimmingCharacters(in: "\n")
        return text.isEmpty ? nil : text
    }
}

extension DownloadError: ReportedError {
    /// `-o -` with a standard output closed at start: the same words as a request's body.
    var reportMessage: String {
        if case .cannotWrite(let path, let code) = self, path == DownloadDestination.standardOutputName,
            let reason = StandardStreams.closedReason(descriptor: STDOUT_FILENO, code: code)
        {
            return "cannot write to \(path): \(reason)"
        }
        return description
    }
    var reportDetail: String? { nil }
}
