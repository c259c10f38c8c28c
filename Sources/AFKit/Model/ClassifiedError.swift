/// Which documented outcome a failure is: bad input, a timeout, a refused response…
///
/// AFKit does not know afcli's exit codes (they are AFCLI's `ExitStatus`), but it knows what went
/// wrong: each error says which of these classes it is where it is declared, and AFCLI maps every
/// class to one exit status in a single exhaustive switch. A new error type or case thus has to
/// state its class to compile, instead of falling through to a default.
package enum FailureClass: Equatable, Sendable {
    /// The command line or its input was wrong, found before anything was sent (exit 2).
    case badInput
    /// Anything without a more specific class: I/O, protocol, a failed decryption (exit 1).
    case failure
    /// A final response whose status alone stopped the command (a download saves nothing for it):
    /// 3xx, 4xx and 5xx as `--check-status` tells them apart (3, 4, 5), any other code exit 1.
    case httpStatus(Int)
    /// A final response whose status `--accept-status` refused: 3xx, 4xx and 5xx as
    /// `--check-status` tells them apart (3, 4, 5), a 1xx or 2xx as a rejected response (11).
    case unacceptableStatus(Int)
    /// A redirect was not followed: too many of them, or to a scheme other than http(s) (exit 6).
    case redirectNotFollowed
    /// Connecting, an idle stretch or the whole exchange took too long (exit 7).
    case timeout
    /// The host did not resolve or the connection was refused (exit 8).
    case connectionFailed
    /// The TLS handshake or certificate verification failed (exit 9).
    case tlsFailure
    /// No certificate of the server's chain matched a pin (exit 10).
    case pinMismatch
    /// The response is not what was asked for: `--accept-type`, or not an envelope (exit 11).
    case responseRejected
    /// The response went beyond a limit: body size, expansion, header size (exit 12).
    case limitExceeded
    /// `--cache=only` had nothing to answer with; nothing was sent (exit 15).
    case cacheMiss
    /// SIGINT or SIGTERM stopped the work (exit 130).
    case interrupted
}

/// An error that says which documented outcome it is.
///
/// Every error type afcli's libraries throw conforms, in its own declaration (AFCurl's, which
/// cannot see this protocol, in `CurlError+FailureClass.swift`); a unit test in AFCLITests finds
/// every error type in the sources and checks each case's exit status against the documented
/// table, so an error that does not conform fails that test rather than exiting with a silent 1.
package protocol ClassifiedError: Error {
    /// The outcome this error is.
    var failureClass: FailureClass { get }
}

extension FailureClass {
    /// The class of an error that wraps `underlying` and adds only context (where it happened,
    /// the stage it went through): the underlying error's own.
    package static func of(wrapped underlying: any Error) -> FailureClass {
        // Every error type of afcli conforms (the test above); anything else is unexpected.
        (underlying as? any ClassifiedError)?.failureClass ?? .failure
    }
}
