import AFCurl
import Glibc

/// What a partial download needs to be continued, kept in `NAME.part.state` beside `NAME.part`
/// (AFNETWORKING.md §8: afcli's own replacement for AF's opaque resume data).
///
/// `bytes` is a promise: at least that many bytes of `NAME.part` are on disk and correct. The
/// data is fsynced before a state claiming it is written, and the state is replaced atomically,
/// so a process killed at any moment (or a power cut) leaves a state that never over-claims.
package struct DownloadState: Equatable, Sendable {
    /// The first line of every state file; the number changes if the format ever does.
    package static let signature = "afcli download state 1"

    /// The URL as requested (before redirects), which `--resume` looks state files up by.
    package var url: String
    /// Bytes of the partial file known to be on disk.
    package var bytes: Int64
    /// The complete length of the resource, when the server stated it.
    package var total: Int64?
    /// The response's `ETag`, when it had one.
    package var etag: String?
    /// The response's `Last-Modified`, when it had one.
    package var lastModified: String?
    /// The inode of the partial file the state was written for: a state is only ever used for
    /// that file (or, once renamed into place, the finished file), never for a `NAME.part` that
    /// something else put beside it.
    package var inode: UInt64?

    package init(
        url: String, bytes: Int64 = 0, total: Int64? = nil, etag: String? = nil, lastModified: String? = nil,
        inode: UInt64? = nil
    ) {
        self.url = url
        self.bytes = bytes
        self.total = total
        self.etag = etag
        self.lastModified = lastModified
        self.inode = inode
    }

    /// The `If-Range` validator for a resumed request: a strong ETag, else Last-Modified (RFC 9110
    /// §13.1.5 forbids weak ETags there); nil when there is neither.
    package var ifRangeValidator: String? {
        if let etag, !etag.hasPrefix("W/"), etag.hasPrefix("\"") { return etag }
        return lastModified
    }

    /// The state as text: the signature line, then one `key: value` line per known field.
    package var encoded: String {
        var lines = [Self.signature, "url: \(url)", "bytes: \(bytes)"]
        if let total { lines.append("total: \(total)") }
        if let etag { lines.append("etag: \(etag)") }
        if let lastModified { lines.append("last-modified: \(lastModified)") }
        if let inode { lines.append("inode: \(inode)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses `encoded` text; nil for a file that is not a state file (wrong signature, no URL,
    /// a bad number).
    package init?(decoding text: String) {
        guard case .success(let state) = Self.decode(text) else { return nil }
        self = state
    }

    /// Parses `encoded` text, or says in lower case what is wrong with it.
    package static func decode(_ text: String) -> Result<DownloadState, DownloadStateProblem> {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == Substring(Self.signature) else { return .failure(.notAState) }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
            fields[String(line[..<colon])] = String(value)
        }
        guard let url = fields["url"], !url.isEmpty else { return .failure(.damaged("it names no URL")) }
        guard let bytesText = fields["bytes"], let bytes = Int64(bytesText), bytes >= 0 else {
            return .failure(.damaged("its byte count is missing or invalid"))
        }
        var total: Int64?
        if let totalText = fields["total"] {
            guard let value = Int64(totalText), value >= 0 else {
                return .failure(.damaged("its total length is invalid"))
            }
            total = value
        }
        var inode: UInt64?
        if let inodeText = fields["inode"] {
            guard let value = UInt64(inodeText) else { return .failure(.damaged("its inode is invalid")) }
            inode = value
        }
        return .success(
            DownloadState(
                url: url, bytes: bytes, total: total, etag: fields["etag"], lastModified: fields["last-modified"],
                inode: inode))
    }

    /// The state with header values that could break the line format left out.
    package var sanitized: DownloadState {
        var copy = self
        func clean(_ value: String?) -> String? {
            guard let value, !value.isEmpty, !value.utf8.contains(where: { $0 == 10 || $0 == 13 }) else { return nil }
            return value
        }
        copy.etag = clean(etag)
        copy.lastModified = clean(lastModified)
        return copy
    }
}

/// Reads and writes state files crash-safely: a temporary file, fsynced, renamed over the old one.
package enum DownloadStateFile {
    /// The state file beside a partial file (`big.iso.part` → `big.iso.part.state`).
    package static func path(forPart part: String) -> String {
        part + ".state"
    }

    /// The longest state file read (a real one is a few hundred bytes).
    static let maximumSize = 65536

    /// What is at a state file's path.
    package enum Loaded: Equatable {
        /// Nothing.
        case missing
        /// A state afcli can use.
        case usable(DownloadState)
        /// A file that cannot be used as a state, and why.
        case unusable(DownloadStateProblem)
    }

    /// Reads a state file; nil when it is missing or cannot be used.
    package static func read(_ path: String) -> DownloadState? {
        if case .usable(let state) = load(path) { return state }
        return nil
    }

    /// Reads a state file, never through a symbolic link and only when it is a regular file of
    /// the user's own, saying what is wrong with one that cannot be used.
    package static func load(_ path: String) -> Loaded {
        let descriptor: Int32
        do {
            descriptor = try FileIO.openOwnedRegularFile(path, flags: O_RDONLY)
        } catch {
            switch error {
            case .cannotOpen(_, let code) where code == ENOENT: return .missing
            case .unsafeFile(_, let problem): return .unusable(.unsafe(problem))
            case .cannotOpen(_, let code): return .unusable(.unreadable(code))
            default: return .unusable(.unreadable(EIO))
            }
        }
        defer { close(descriptor) }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readAll(descriptor, limit: maximumSize, chunkSize: 4096)
        } catch {
            return .unusable(error.code == EFBIG ? .notAState : .unreadable(error.code))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .unusable(.notAState) }
        switch DownloadState.decode(text) {
        case .success(let state): return .usable(state)
        case .failure(let problem): return .unusable(problem)
        }
    }

    /// Creates `path` as a new file for writing, 0600, never through a symbolic link: whatever
    /// an earlier run (or anyone else) left at the name is unlinked first (a link is removed,
    /// not followed), and the file is created exclusively.
    private static func createFresh(_ path: String) -> Int32 {
        unlink(path)
        return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    }

    /// Replaces the state file atomically: write `path.tmp`, fsync it, rename it over `path`.
    /// After a crash the file holds either the old state or the new one, never a torn mix.
    /// Both are 0600 (the URL may hold a signed query string) and never reached through a link.
    ///
    /// On a full disk (no room for the temporary) the existing file is rewritten in place
    /// instead: a state only ever grows (its byte count gains digits, nothing else changes), so a
    /// write cut short leaves the old text or an unreadable file, never a larger claim.
    package static func write(_ state: DownloadState, to path: String) throws(DownloadError) {
        let temporary = path + ".tmp"
        var text = state.sanitized.encoded
        let descriptor = createFresh(temporary)
        guard descriptor >= 0 else {
            let code = errno
            if isOutOfSpace(code), rewriteInPlace(text, at: path) { return }
            throw .cannotOpen(path: temporary, code: code)
        }
        let ok = text.withUTF8 { FileIO.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
        let code = errno
        guard ok, fsync(descriptor) == 0 else {
            let failure = ok ? errno : code
            close(descriptor)
            unlink(temporary)
            if isOutOfSpace(failure), rewriteInPlace(text, at: path) { return }
            throw .cannotWrite(path: temporary, code: failure)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw .cannotRename(from: temporary, to: path, code: failure)
        }
    }

    /// Whether an errno means the file system is full (or the quota is used up).
    private static func isOutOfSpace(_ code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT
    }

    /// Overwrites an existing state file from its start, which needs no new blocks; false when
    /// there is no file or the write fails.
    private static func rewriteInPlace(_ text: String, at path: String) -> Bool {
        guard let descriptor = try? FileIO.openOwnedRegularFile(path, flags: O_WRONLY) else { return false }
        defer { close(descriptor) }
        var text = text
        let ok = text.withUTF8 { bytes in
            pwrite(descriptor, bytes.baseAddress, bytes.count, 0) == bytes.count
                && ftruncate(descriptor, off_t(bytes.count)) == 0
        }
        return ok && fsync(descriptor) == 0
    }

    /// Creates the state file only if none exists, fully written or not at all (a temporary file,
    /// fsynced, then hard-linked to the name, which fails when the name is taken); false when the
    /// name is taken. This is how a new download claims its name against other processes.
    package static func create(_ state: DownloadState, at path: String) throws(DownloadError) -> Bool {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = createFresh(temporary)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, code: errno) }
        defer { unlink(temporary) }
        var text = state.sanitized.encoded
        let ok = text.withUTF8 { FileIO.writeAll(descriptor, UnsafeRawBufferPointer($0)) } && fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard ok else { throw .cannotWrite(path: path, code: code) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw .cannotOpen(path: path, code: errno)
        }
        return true
    }

    /// Removes a state file and any temporary left beside it.
    package static func remove(_ path: String) {
        unlink(path)
        unlink(path + ".tmp")
        removeAbandonedClaims(for: path)
    }

    /// Removes the `path.tmp-PID` files of `create` calls whose process died before cleaning up
    /// (a SIGKILL during the fsync); the file of a live process is left alone.
    package static func removeAbandonedClaims(for path: String) {
        let directory = FileIO.directory(of: path)
        let prefix = FileIO.baseName(of: path) + ".tmp-"
        for name in FileIO.names(in: directory) where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(FileIO.join(directory, name)) }
        }
    }
}

/// Why a state file cannot be used, in lower case for a warning.
package enum DownloadStateProblem: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// A link, a special file, another user's file.
    case unsafe(UnsafeFileProblem)
    /// It could not be read (errno).
    case unreadable(Int32)
    /// It is not an afcli download state at all.
    case notAState
    /// It is a state, but a field is missing or invalid.
    case damaged(String)
    /// It was written for another partial file than the one beside it.
    case belongsToAnotherFile
    /// It names no partial file (an older afcli wrote it), so it cannot vouch for the one beside it.
    case namesNoPartialFile
    /// It was written for another URL.
    case otherURL(String)

    /// Only ever warned about (a state file is then ignored); an I/O failure if it were thrown.
    package var failureClass: FailureClass { .failure }

    package var description: String {
        switch self {
        case .unsafe(let problem): return problem.description
        case .unreadable(let code): return "it cannot be read (\(DownloadError.errorText(code)))"
        case .notAState: return "it is not an afcli download state"
        case .damaged(let why): return "it is damaged (\(why))"
        case .belongsToAnotherFile: return "it was not written for the partial file beside it"
        case .namesNoPartialFile: return "it does not name its partial file (an older afcli wrote it)"
        case .otherURL(let url): return "it belongs to another URL (\(url))"
        }
    }
}
