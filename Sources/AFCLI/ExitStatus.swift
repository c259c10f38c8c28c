import AFKit

/// The process exit statuses afcli documents, one case per distinct outcome.
///
/// This enum is the only table of exit codes: the man page's EXIT STATUS section and the long help
/// are generated from `allCases` and `meaning`, so a new code appears in the docs by being added here.
/// Codes 3, 4 and 5 follow HTTPie's `--check-status` (on by default in afcli); the transport codes
/// (6 to 10) are afcli's own, chosen so that scripts can tell a slow server from an absent one.
package enum ExitStatus: Int32, CaseIterable, Sendable {
    /// Everything went as asked.
    case success = 0
    /// Any error without a more specific code: I/O, protocol, unexpected.
    case failure = 1
    /// The command line or its input was wrong; nothing was sent.
    case usage = 2
    /// The final response was a 3xx (redirects were not followed, or ran out).
    case redirection = 3
    /// The final response was a 4xx.
    case clientError = 4
    /// The final response was a 5xx.
    case serverError = 5
    /// A redirect was not followed: more than `--max-redirects`, or one to a scheme other than
    /// http and https.
    case tooManyRedirects = 6
    /// Connecting timed out, no data came for `--timeout`, or the exchange took over `--max-time`.
    case timeout = 7
    /// The host name could not be resolved or the connection was refused.
    case connectionFailed = 8
    /// The TLS handshake or certificate verification failed.
    case tlsFailure = 9
    /// No certificate of the server's chain matched `--pin-key` or `--pin-cert`; nothing was sent.
    case pinMismatch = 10
    /// The final response failed `--accept-type`, or `--accept-status` with a 1xx or 2xx code
    /// (a 3xx, 4xx or 5xx that fails `--accept-status` exits with 3, 4 or 5).
    case responseRejected = 11
    /// The response exceeded a limit: `--max-filesize`, `--max-expansion`, or the header limits.
    case limitExceeded = 12
    /// `--envelope`: the envelope's status was not a success status.
    case envelopeFailure = 13
    /// `--envelope`: the envelope's status was a common-failure status.
    case envelopeCommonFailure = 14
    /// `--cache=only` found no response it may answer with; nothing was sent.
    case cacheMiss = 15
    /// A request's assertions (`??` lines of a `.http` file) did not all hold.
    case assertionFailed = 16
    /// Interrupted by SIGINT (Ctrl-C) or SIGTERM, as shells report 128 + SIGINT.
    case interrupted = 130

    /// A one-line meaning, used verbatim in the man page and the long help.
    package var meaning: String {
        switch self {
        case .success:
            return "Success."
        case .failure:
            return "Any other error: I/O, protocol, a failed --decrypt-cmd, or unexpected. For reachability: not reachable."
        case .usage:
            return "Usage error or bad input, or the encryption command failed; nothing was sent."
        case .redirection:
            return "The final response was 3xx (with --check-status, the default)."
        case .clientError:
            return "The final response was 4xx (with --check-status, the default)."
        case .serverError:
            return "The final response was 5xx (with --check-status, the default)."
        case .tooManyRedirects:
            return "A redirect was not followed: more than --max-redirects, or to a scheme other than http(s)."
        case .timeout:
            return "Timed out: connecting, no data for --timeout, or longer than --max-time."
        case .connectionFailed:
            return "Could not resolve the host or connect to it."
        case .tlsFailure:
            return "TLS failure: handshake, or a certificate that is untrusted, expired or for another host."
        case .pinMismatch:
            return "No certificate of the server's chain matched --pin-key or --pin-cert; nothing was sent."
        case .responseRejected:
            return "The response failed --accept-type, or --accept-status with a 1xx or 2xx code, or is not an envelope (--envelope)."
        case .limitExceeded:
            return "The response was too large: --max-filesize, --max-expansion, or the header limits."
        case .envelopeFailure:
            return "--envelope: the answer's status was not a success status; its message was printed."
        case .envelopeCommonFailure:
            return "--envelope: the answer's status was a common-failure status (logged in elsewhere and the like)."
        case .cacheMiss:
            return "--cache=only found no stored response it may answer with; nothing was sent."
        case .assertionFailed:
            return "afcli run: a request's assertions (?? lines) did not all hold; each is listed with its actual value."
        case .interrupted:
            return "Interrupted (Ctrl-C or SIGTERM)."
        }
    }

    /// The status for a final HTTP response under `--check-status`: 3, 4 or 5 for 3xx, 4xx and 5xx,
    /// nil for anything else (including 1xx and 2xx).
    package init?(checkingHTTPStatus code: Int) {
        switch code {
        case 300...399: self = .redirection
        case 400...499: self = .clientError
        case 500...599: self = .serverError
        default: return nil
        }
    }

    /// The status of a failure of `failureClass`: the one place where an error's class becomes
    /// a code, with no default, so a new class must be given its code here.
    package init(_ failureClass: FailureClass) {
        switch failureClass {
        case .badInput: self = .usage
        case .failure: self = .failure
        case .httpStatus(let code): self = ExitStatus(checkingHTTPStatus: code) ?? .failure
        case .unacceptableStatus(let code): self = ExitStatus(checkingHTTPStatus: code) ?? .responseRejected
        case .redirectNotFollowed: self = .tooManyRedirects
        case .timeout: self = .timeout
        case .connectionFailed: self = .connectionFailed
        case .tlsFailure: self = .tlsFailure
        case .pinMismatch: self = .pinMismatch
        case .responseRejected: self = .responseRejected
        case .limitExceeded: self = .limitExceeded
        case .cacheMiss: self = .cacheMiss
        case .interrupted: self = .interrupted
        }
    }

    /// The exit status to report for a final HTTP response code, given whether `--check-status`
    /// is in effect; `.success` whenever the code does not map to 3, 4 or 5.
    package static func forFinalResponse(code: Int, checkStatus: Bool) -> ExitStatus {
        guard checkStatus, let status = ExitStatus(checkingHTTPStatus: code) else { return .success }
        return status
    }

    /// The rows of the documented table, in code order, as (code, meaning) pairs.
    package static var table: [(code: Int32, meaning: String)] {
        allCases.map { ($0.rawValue, $0.meaning) }
    }
}
