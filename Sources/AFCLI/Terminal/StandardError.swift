import AFKit
import Glibc

/// Unbuffered writes to standard error, shared by error messages, warnings and progress lines.
enum StandardError {
    /// Writes `text` whole, retrying short writes and `EINTR`; gives up silently if stderr is gone.
    static func write(_ text: String) {
        try? FileDescriptorIO.writeAll(STDERR_FILENO, text)
    }
}
