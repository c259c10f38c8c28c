import Glibc

/// What `afcli cache prune` did.
package struct CachePruneReport: Equatable, Sendable {
    package var expired = 0
    package var evicted = 0
    package var filesRemoved = 0
    /// Whether the database was unreadable and has been recreated empty.
    package var rebuilt = false
    /// Body files whose SHA-256 was not their name (`--verify`), removed with their entries.
    package var damaged = 0
}

extension CacheStore {
    /// Removes every entry; returns how many there were.
    package func removeAll() throws -> Int {
        try remove(where: "1", [])
    }

    /// Removes the entries of `url` (any method, namespace or variant); returns how many.
    package func remove(url: String) throws -> Int {
        try remove(where: "url = ?1", [.text(CacheKey.normalize(url))])
    }

    /// Removes expired entries, then the least recently used until the stored size is at most
    /// `maxSize`, then body files no entry uses (temporary files only once an hour old, since
    /// another afcli may still be writing them). With `verify`, first every body file whose
    /// SHA-256 is not its name, with the entries that use it.
    package func prune(now: Double, maxSize: Int64, verify: Bool = false) throws -> CachePruneReport {
        var report = CachePruneReport()
        if verify {
            for name in FileIO.names(in: bodiesDirectory) where CacheBodyWriter.isDigestName(name) {
                guard let digest = Self.digest(ofFile: bodiesDirectory + "/" + name), digest != name else { continue }
                try remove(where: "body_file = ?1", [.text(name)])
                if unlink(bodiesDirectory + "/" + name) == 0 || errno == ENOENT { report.damaged += 1 }
            }
        }
        report.expired = try remove(where: "expires IS NOT NULL AND expires <= ?1", [.double(now)])
        var total = try totalSize()
        while total > maxSize {
            let oldest = try database.statement(
                "SELECT key, variant, body_size + length(headers) FROM entries ORDER BY used ASC LIMIT 1")
            guard try oldest.step(), let key = oldest.text(0), let variant = oldest.text(1) else { break }
            let size = oldest.int(2)
            _ = try? oldest.step()
            report.evicted += try remove(where: "key = ?1 AND variant = ?2", [.text(key), .text(variant)])
            total -= size
        }
        report.filesRemoved = try removeUnusedFiles(now: now)
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return report
    }

    /// The SHA-256 (hex) of a file's bytes, read in chunks; nil when it cannot be read.
    static func digest(ofFile path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let digest = BodyDigest()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        return digest.failed ? nil : digest.finalize()
    }

    /// The bytes the entries take: bodies and heads.
    package func totalSize() throws(SQLiteError) -> Int64 {
        try database.integer("SELECT COALESCE(SUM(body_size + length(headers)), 0) FROM entries")
    }

    private func removeUnusedFiles(now: Double) throws -> Int {
        let used = try database.statement("SELECT DISTINCT body_file FROM entries WHERE body_file IS NOT NULL")
        var referenced: Set<String> = []
        while try used.step() { if let name = used.text(0) { referenced.insert(name) } }
        var removed = 0
        for name in FileIO.names(in: bodiesDirectory) {
            let path = bodiesDirectory + "/" + name
            if CacheBodyWriter.isDigestName(name), !referenced.contains(name) {
                if unlink(path) == 0 { removed += 1 }
            } else if name.hasPrefix(CacheBodyWriter.temporaryPrefix) {
                var info = stat()
                if lstat(path, &info) == 0, Double(info.st_mtim.tv_sec) < now - 3600, unlink(path) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// Recreates an unreadable cache: the database and every body file are removed (a symbolic
    /// link at the directory is left alone and refused), then an empty cache is opened.
    package static func rebuild(directory: String) throws(CacheError) -> CacheStore {
        try CacheDirectory.prepare(directory)
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(directory + "/" + databaseName + suffix) }
        let bodies = directory + "/bodies"
        var info = stat()
        if lstat(bodies, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            for name in FileIO.names(in: bodies) { unlink(bodies + "/" + name) }
        }
        return try CacheStore(directory: directory)
    }
}
