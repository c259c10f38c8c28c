import AFKit
import Glibc

/// Decides whether standard input is a request body, without ever blocking on a terminal or an
/// idle inherited pipe when the command line already says what to send.
///
/// HTTPie reads stdin whenever it is not a terminal, which hangs under cron and CI. afcli never
/// reads a terminal or `/dev/null` (or a closed descriptor); when the command line already has
/// data, it only checks whether stdin has bytes ready right now, to refuse mixing the two.
enum StandardInput {
    /// What standard input is.
    enum Kind {
        case unusable
        case readable
    }

    /// Whether standard input may carry a body at all.
    static func kind() -> Kind {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return .unusable }
        if isatty(STDIN_FILENO) == 1 { return .unusable }
        var null = stat()
        if (info.st_mode & S_IFMT) == S_IFCHR, stat("/dev/null", &null) == 0, info.st_rdev == null.st_rdev {
            return .unusable
        }
        return .readable
    }

    /// Whether standard input has bytes (or end of file) ready without waiting.
    static func isReadyNow() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && (descriptor.revents & Int16(POLLIN | POLLHUP)) != 0
    }
}
