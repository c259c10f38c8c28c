import Glibc

/// Why a download failed, described in lower case; AFCLI's ErrorReporter turns these into
/// messages and exit statuses.
package enum DownloadError: ClassifiedError, Equatable, CustomStringConvertible, Sendable {
    /// The final response was not a success (nothing was written for it).
    case httpStatus(code: Int, reason: String)
    /// A 206 whose `Content-Range` does not continue the partial file (or none at all).
    case unexpectedContentRange(value: String?, offset: Int64, path: String)
    /// A 206 the download did not ask for.
    case unsolicitedPartialContent
    /// The body ended before the length the server announced; for a file (`path`), the state
    /// was saved so `--resume` continues it.
    case incomplete(received: Int64, expected: Int64?, path: String?, detail: String)
    /// The finished file's SHA-256 is not the one `--sha256` expected; the file was removed.
    case checksumMismatch(expected: String, actual: String, path: String, removed: Bool)
    /// libcrypto failed while hashing for `--sha256`: nothing was compared; the file is kept.
    case checksumUnavailable(path: String)
    /// `-o` names a directory.
    case outputIsDirectory(path: String)
    /// The directory the file would go in cannot be written (or does not exist).
    case directoryNotWritable(path: String, code: Int32)
    /// A file could not be created or opened.
    case cannotOpen(path: String, code: Int32)
    /// Writing (or flushing) data failed: a full disk, a file size limit, an I/O error.
    case cannotWrite(path: String, code: Int32)
    /// Reading a partial file back (to hash it) failed.
    case cannotRead(path: String, code: Int32)
    /// The finished file could not be renamed into place.
    case cannotRename(from: String, to: String, code: Int32)
    /// Another process holds the lock on the partial file.
    case busy(path: String)
    /// No free name was found after trying many numbered ones.
    case noFreeName(String)
    /// The server sent the whole resource again, but part of it already went to a stream.
    case cannotRestartStream(written: Int64)
    /// `--resume` into standard output or a device, which cannot be continued.
    case cannotResumeStream(target: String)
    /// A file the download would write, read back or rename is a symbolic link, not a regular
    /// file, belongs to another user, or was replaced while the download ran.
    case unsafeFile(path: String, problem: UnsafeFileProblem)
    /// A range answer continues the partial file but gives another complete length than the
    /// state recorded: the file changed on the server.
    case totalChanged(expected: Int64, now: Int64, path: String)
    /// SIGINT or SIGTERM stopped the download; `saved` bytes are kept in the partial file `path`.
    case interrupted(signal: Int32, saved: Int64, path: String)

    // MARK: - Classification

    /// Whether the failure may go away by itself, so `--retry` tries again: a server that
    /// stopped early, or a status that says "later" (408, 429, 500, 502, 503, 504, curl's list).
    package var isTransient: Bool {
        switch self {
        case .incomplete: return true
        case .httpStatus(let code, _): return [408, 429, 500, 502, 503, 504].contains(code)
        default: return false
        }
    }

    /// A final status that is not a success is told by its class (3, 4, 5) whatever
    /// `--check-status` says, since no file is saved; a bad `-o` is bad input; Ctrl-C an
    /// interrupt; the rest are ordinary failures.
    package var failureClass: FailureClass {
        switch self {
        case .httpStatus(let code, _): return .httpStatus(code)
        case .outputIsDirectory, .cannotResumeStream: return .badInput
        case .interrupted: return .interrupted
        case .unexpectedContentRange, .unsolicitedPartialContent, .incomplete, .checksumMismatch,
            .checksumUnavailable, .directoryNotWritable, .cannotOpen, .cannotWrite, .cannotRead, .cannotRename,
            .busy, .noFreeName, .cannotRestartStream, .unsafeFile, .totalChanged:
            return .failure
        }
    }

    // MARK: - Descriptions

    /// What is said while the download is tried again: an incomplete transfer without the advice
    /// to run again with `--resume`, which the retry is about to do.
    package var retriedDescription: String {
        guard case .incomplete(let received, let expected, _, let detail) = self else { return description }
        return DownloadError.incomplete(received: received, expected: expected, path: nil, detail: detail).description
    }

    package var description: String {
        switch self {
        case .httpStatus(let code, let reason):
            return "HTTP \(code)\(reason.isEmpty ? "" : " " + reason); nothing was saved"
        case .unexpectedContentRange(let value, let offset, let path):
            let got = value.map { "Content-Range \"\($0)\"" } ?? "no Content-Range"
            return "asked for bytes \(offset)- but the server answered with \(got); \(path) was left untouched"
        case .unsolicitedPartialContent:
            return "the server sent part of the file (206) without being asked for a range"
        case .incomplete(let received, let expected, let path, let detail):
            let of = expected.map { " of \(ByteCount.format($0))" } ?? ""
            let why = detail.isEmpty ? "" : " (\(detail))"
            let text = "incomplete download: the transfer stopped after \(ByteCount.format(received))\(of)\(why)"
            guard let path else { return text }
            return text + "; \(path) is kept, run again with --resume to continue"
        case .checksumMismatch(let expected, let actual, let path, let removed):
            return "SHA-256 mismatch for \(path): expected \(expected), got \(actual)"
                + (removed ? "; the file was not kept" : "")
        case .checksumUnavailable(let path):
            return "cannot compute the SHA-256 of \(path) (libcrypto failed); the file was kept, unchecked"
        case .outputIsDirectory(let path):
            return "\(path) is a directory; -o needs a file name"
        case .directoryNotWritable(let path, let code):
            let name = path == "." ? "the current directory" : "the directory \(path)"
            return "cannot write to \(name): \(Self.errorText(code))"
        case .cannotOpen(let path, let code):
            return "cannot create \(path): \(Self.errorText(code))"
        case .cannotWrite(let path, let code):
            return "cannot write to \(path): \(Self.errorText(code))"
        case .cannotRead(let path, let code):
            return "cannot read \(path): \(Self.errorText(code))"
        case .cannotRename(let from, let to, let code):
            return "cannot rename \(from) to \(to): \(Self.errorText(code))"
        case .busy(let path):
            return "\(path) is being written by another process"
        case .noFreeName(let name):
            return "no free file name like \(name) in this directory"
        case .cannotRestartStream(let written):
            return "the server sent the whole file again after \(ByteCount.format(written)) had been written "
                + "to the output, which cannot be taken back"
        case .cannotResumeStream(let target):
            return "--resume needs a file to continue, not \(target)"
        case .unsafeFile(let path, let problem):
            return "refusing to use \(path): \(problem); afcli writes only regular files of your own, "
                + "so remove it and run again"
        case .totalChanged(let expected, let now, let path):
            return "the server now reports \(now) bytes for the file, the partial download expected \(expected) "
                + "(it changed on the server); remove \(path) to start again"
        case .interrupted(_, let saved, let path):
            return "interrupted: \(ByteCount.format(saved)) saved in \(path); "
                + "run the same command with --resume to continue"
        }
    }

    /// The C library's text for an errno value, in lower case as afcli's messages are.
    package static func errorText(_ code: Int32) -> String {
        SystemError.message(code)
    }
}

/// Why a file at a download's name is not used (see `FileIO.openOwnedRegularFile`).
package enum UnsafeFileProblem: Equatable, Sendable, CustomStringConvertible {
    /// A symbolic link (never followed).
    case symbolicLink
    /// A directory, device, FIFO or socket.
    case notRegular
    /// A regular file that belongs to another user.
    case foreignOwner
    /// The name no longer leads to the file afcli had open.
    case replaced

    package var description: String {
        switch self {
        case .symbolicLink: return "it is a symbolic link"
        case .notRegular: return "it is not a regular file"
        case .foreignOwner: return "it belongs to another user"
        case .replaced: return "it was replaced while the download ran"
        }
    }
}

/// Byte counts for people: `512 B`, `1.5 KiB`, `3.2 MiB`, `1.0 GiB`.
package enum ByteCount {
    /// Formats `bytes` with binary units and one decimal above a kibibyte.
    package static func format(_ bytes: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
