import Glibc

/// Keeps the files afcli opens off descriptors 0, 1 and 2.
///
/// A program started with one of them closed (`afcli URL >&-`) would otherwise get it back from
/// its next `open`: a `--log-file`, a download or libcurl's socket pair would become "standard
/// output" and receive the body. So before anything is opened each closed one is given
/// `/dev/null`, as glibc does for set-user-ID programs. Standard output gets it read-only: writing
/// a body there fails (`EBADF`), which afcli reports as the write error it is (exit 1; curl's 23),
/// instead of a silent success.
enum StandardStreams {
    /// Whether standard output was closed when afcli started.
    nonisolated(unsafe) private(set) static var stdoutWasClosed = false

    /// Puts `/dev/null` on each of descriptors 0-2 that is closed; one `poll` finds them (a closed
    /// descriptor reports `POLLNVAL`), so a normal start pays a single system call.
    static func reserve() {
        var descriptors = (0...2).map { pollfd(fd: Int32($0), events: 0, revents: 0) }
        guard poll(&descriptors, 3, 0) > 0 else { return }
        for entry in descriptors where entry.revents & Int16(POLLNVAL) != 0 {
            // Input and standard output read-only (an empty stdin; a write to stdout fails),
            // standard error write-only (messages vanish, the exit status still tells).
            let mode = entry.fd == STDERR_FILENO ? O_WRONLY : O_RDONLY
            let opened = open("/dev/null", mode)
            // The lowest free descriptor is the closed one, since those below it are open now.
            if opened >= 0, opened != entry.fd {
                dup2(opened, entry.fd)
                close(opened)
            }
            if entry.fd == STDOUT_FILENO { stdoutWasClosed = true }
        }
    }

    /// Why a write to `descriptor` failed with `code`, when the cause is a standard output that
    /// was closed at start (the read-only `/dev/null` put there answers `EBADF`); nil otherwise.
    static func closedReason(descriptor: Int32, code: Int32) -> String? {
        code == EBADF && descriptor == STDOUT_FILENO && stdoutWasClosed ? "it was closed when afcli started" : nil
    }

    /// Whether `path`, the FILE of an output option, is `-`: standard output, as for `-o -`.
    static func isStandardOutput(_ path: String?) -> Bool { path == "-" }

    /// The descriptor a FILE names as a standard stream: `-` (standard output), `/dev/stdin`,
    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N`; nil for any other name.
    /// These are links to the process's own descriptors, which afcli then writes to as they are
    /// rather than opening the link (which its refusal of symbolic links would refuse).
    static func descriptor(named path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return STDOUT_FILENO
        case "/dev/stdin": return STDIN_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let number = path.dropFirst(prefix.count)
                guard !number.isEmpty, number.count <= 9, number.allSatisfy({ ("0"..."9").contains($0) }) else {
                    return nil
                }
                return Int32(number)
            }
            return nil
        }
    }

    /// Checks, before anything is sent, that `option`'s FILE may be `-` (standard output, as
    /// curl's `--stderr -` and `--trace -` are): refused when standard output already carries
    /// `carrying` (the response, a run's lines), since the two would mix into one stream, and
    /// when standard output was closed at start, as writing the body there is.
    static func claim(_ path: String?, for option: String, carrying: String?, instead: String) throws {
        guard isStandardOutput(path) else { return }
        if let carrying {
            throw UsageError.invalidValue(
                option: option, value: "-", reason: "is standard output, which carries \(carrying) (\(instead))")
        }
        if let reason = closedReason(descriptor: STDOUT_FILENO, code: EBADF) {
            throw OutputStream.WriteError(target: "standard output", code: EBADF, reason: reason)
        }
    }
}
