import Glibc

/// Why the cache could not be used; the request goes on without it (AFCLI warns once).
package enum CacheError: ClassifiedError, CustomStringConvertible {
    /// The cache directory is a symbolic link, not a directory, or another user's.
    case unsafeDirectory(path: String, reason: String)
    /// A file or directory could not be created or opened.
    case cannotOpen(path: String, code: Int32)
    /// The database cannot be read or written (corrupt, locked too long, from a newer afcli).
    case database(path: String, underlying: SQLiteError)
    /// The database's schema version is not one this afcli knows.
    case unknownVersion(path: String, version: Int64)
    /// Writing a body failed (a full disk); the entry was not stored.
    case cannotWrite(path: String, code: Int32)

    /// A cache that cannot be used is an I/O failure.
    package var failureClass: FailureClass { .failure }

    /// Whether the database itself is damaged (not a database, or corrupt): only then may
    /// `afcli cache prune` rebuild it empty.
    package var isCorruption: Bool {
        if case .database(_, let underlying) = self { return underlying.isCorruption }
        return false
    }

    package var description: String {
        switch self {
        case .unsafeDirectory(let path, let reason):
            return "the cache directory \(path) is refused: \(reason)"
        case .cannotOpen(let path, let code):
            let reason =
                code == ELOOP ? "it is a symbolic link, which afcli does not follow" : SystemError.message(code)
            return "cannot open \(path): \(reason)"
        case .database(let path, let underlying):
            return "the cache database \(path) is unreadable: \(underlying)"
        case .unknownVersion(let path, let version):
            return "the cache database \(path) has schema version \(version), which this afcli does not know"
        case .cannotWrite(let path, let code):
            return "cannot write \(path): \(SystemError.message(code))"
        }
    }
}
