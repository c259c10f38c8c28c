import AFKit
import Glibc

/// The one place where errors become messages on stderr and exit statuses (xh's
/// error_reporting.rs): library code only throws typed errors with lower-case descriptions.
enum ErrorReporter {
    /// Prints `afcli: error: …` (plus any caret lines) and returns the documented exit status.
    static func report(_ error: any Error) -> ExitStatus {
        let (status, message, detail) = classify(error)
        self.error(message, detail: detail)
        return status
    }

    // Messages quote what servers and files chose (reason phrases, envelope messages, names from
    // Content-Disposition): each is written on one line with its control characters escaped, so
    // none can act on a terminal or pass for a line of afcli's own.

    /// Prints `afcli: error: …` for a failure already classified, and the lines under it, if any.
    static func error(_ message: String, detail: String? = nil) {
        var text = "afcli: error: \(message.escapingControlsOnOneLine)\n"
        if let detail { text += detail.escapingTerminalControls + "\n" }
        StandardError.write(text)
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
        let (message, detail) = wording(of: error)
        return (exitStatus(of: error), message, detail)
    }

    /// The documented status of `error`, from the class it states (`ClassifiedError`).
    static func exitStatus(of error: any Error) -> ExitStatus {
        // Every error type of afcli states its class; ErrorClassificationTests finds them all in
        // the sources and fails for one that does not, so this 1 is only for the unexpected.
        guard let classified = error as? any ClassifiedError else { return .failure }
        return ExitStatus(classified.failureClass)
    }

    /// The message line of `error` and any lines under it: its own wording when it has one
    /// (`ReportedError`), else its description.
    static func wording(of error: any Error) -> (message: String, detail: String?) {
        guard let reported = error as? any ReportedError else { return (String(describing: error), nil) }
        return (reported.reportMessage, reported.reportDetail)
    }
}
