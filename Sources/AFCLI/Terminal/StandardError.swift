import Glibc

/// Unbuffered writes to standard error, shared by error messages, warnings and progress lines.
enum StandardError {
    /// Writes `text` whole, retrying short writes and `EINTR`; gives up silently if stderr is gone.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, base + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
