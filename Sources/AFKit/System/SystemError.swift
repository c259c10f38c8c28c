import Glibc

/// A failed C library call: its errno value and the system's text for it, in the one casing all
/// of afcli's messages use (`no such file or directory`, `broken pipe`).
///
/// Every place that shows an errno goes through `message(_:)`, so the same failure reads the same
/// in a download, an upload, a log file or standard output.
package struct SystemError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// The errno value.
    package var code: Int32

    package init(code: Int32) {
        self.code = code
    }

    /// The error for the current `errno`.
    package static var current: SystemError { SystemError(code: errno) }

    /// A failed system call is an I/O failure; one that a signal stopped (afcli's handlers do not
    /// restart calls) is an interrupt.
    package var failureClass: FailureClass { code == EINTR ? .interrupted : .failure }

    /// The system's text for `code`.
    package var description: String { Self.message(code) }

    /// strerror's text with its first letter in lower case, unless the first word is an acronym
    /// (a capital follows the first letter, as in `RPC struct is bad`).
    package static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return lowercasingFirstLetter(String(cString: text))
    }

    /// `No such file` → `no such file`; `RPC version wrong` stays as it is.
    package static func lowercasingFirstLetter(_ message: String) -> String {
        guard let first = message.first, first.isUppercase else { return message }
        if let second = message.dropFirst().first, second.isUppercase { return message }
        return first.lowercased() + message.dropFirst()
    }
}
