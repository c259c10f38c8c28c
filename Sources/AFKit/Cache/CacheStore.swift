import Glibc

/// The response cache on disk: an SQLite database of entries (WAL, so several afcli processes
/// share it) and a `bodies` directory of large bodies named by their SHA-256.
///
/// An entry's row is written only after its body is complete (`CacheBodyWriter.commit`), in one
/// transaction, so a run killed while storing leaves at most an unreferenced temporary file.
package final class CacheStore {
    package let directory: String
    let database: SQLiteDatabase
    static let schemaVersion: Int64 = 1
    static let databaseName = "cache.db"

    /// The bodies directory.
    var bodiesDirectory: String { directory + "/bodies" }
    package var databasePath: String { directory + "/" + Self.databaseName }

    /// Opens the cache in `directory`, creating it when missing. On a warm cache this is an open
    /// and one `PRAGMA user_version` read; the schema is created only in a new database.
    package init(directory: String) throws(CacheError) {
        self.directory = directory
        try CacheDirectory.prepare(directory)
        let path = directory + "/" + Self.databaseName
        var created = false
        if !FileIO.exists(path) {
            // Created here so it is 0600 whatever the umask; SQLite gives -wal and -shm its mode.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                fchmod(descriptor, 0o600)
                close(descriptor)
                created = true
            } else if errno != EEXIST {
                throw .cannotOpen(path: path, code: errno)
            }
        }
        do {
            database = try SQLiteDatabase(path: path, create: false)
        } catch {
            throw Self.isSymbolicLink(path)
                ? .cannotOpen(path: path, code: ELOOP) : .database(path: path, underlying: error)
        }
        do {
            // The WAL is kept between runs (SQLiteDatabase) but emptied when the last connection
            // closes, so the next afcli has nothing to recover and nothing to checkpoint.
            try database.execute("PRAGMA synchronous=NORMAL; PRAGMA journal_size_limit=0")
            let version = try userVersion()
            if version == 0 || created {
                try createSchema()
            } else if version != Self.schemaVersion {
                throw CacheError.unknownVersion(path: path, version: version)
            }
        } catch let error as SQLiteError {
            throw .database(path: path, underlying: error)
        } catch let error as CacheError {
            throw error
        } catch {
            throw .database(path: path, underlying: SQLiteError(operation: "open", code: 1, message: "\(error)"))
        }
    }

    private func userVersion() throws(SQLiteError) -> Int64 {
        try database.integer("PRAGMA user_version")
    }

    /// Creates the tables in a new (or emptied) database, once, even with several processes racing.
    ///
    /// Two processes creating the same new database can each hold a read lock the other's switch
    /// to WAL needs; SQLite then answers SQLITE_BUSY at once instead of waiting (waiting could not
    /// end), so the creation is retried for up to a second.
    private func createSchema() throws {
        var attempt = 0
        while true {
            do {
                return try createSchemaOnce()
            } catch let error as SQLiteError where error.code == 5 || error.code == 6 {
                attempt += 1
                guard attempt < 100 else { throw error }
                usleep(10_000)
            }
        }
    }

    private func createSchemaOnce() throws {
        try database.execute("PRAGMA journal_mode=WAL")
        try database.transaction {
            guard try userVersion() == 0 else { return }
            try database.execute(
                """
                CREATE TABLE IF NOT EXISTS entries(
                  key TEXT NOT NULL, variant TEXT NOT NULL, namespace TEXT NOT NULL, method TEXT NOT NULL,
                  url TEXT NOT NULL, vary TEXT NOT NULL, status INTEGER NOT NULL, reason TEXT NOT NULL,
                  version TEXT NOT NULL, headers BLOB NOT NULL, body BLOB, body_file TEXT,
                  body_size INTEGER NOT NULL, request_time REAL NOT NULL, response_time REAL NOT NULL,
                  expires REAL, used REAL NOT NULL, PRIMARY KEY(key, variant));
                CREATE INDEX IF NOT EXISTS entries_url ON entries(url);
                PRAGMA user_version=\(Self.schemaVersion);
                """)
        }
    }

    private static let columns =
        "namespace, method, url, vary, status, reason, version, headers, body, body_file, body_size, "
        + "request_time, response_time, expires, used, key, variant"

    /// Reads the entry at the current row of a statement that selected `columns`.
    private static func entry(_ row: SQLiteStatement) -> (key: String, variant: String, entry: CacheEntry) {
        let vary = row.text(3) ?? ""
        let body: CacheEntry.Body = row.isNull(9) ? .inline(row.bytes(8)) : .file(digest: row.text(9) ?? "")
        let entry = CacheEntry(
            namespace: row.text(0) ?? "", method: row.text(1) ?? "", url: row.text(2) ?? "",
            varyNames: vary.isEmpty ? [] : vary.split(separator: "\n").map(String.init),
            statusCode: Int(row.int(4)), reasonPhrase: row.text(5) ?? "", httpVersion: row.text(6) ?? "",
            headers: CacheEntry.decode(row.bytes(7)), body: body, bodySize: row.int(10),
            requestTime: row.double(11), responseTime: row.double(12), expires: row.isNull(13) ? nil : row.double(13),
            lastUsed: row.double(14))
        return (row.text(15) ?? "", row.text(16) ?? "", entry)
    }

    /// Every stored variant of `key`.
    package func variants(of key: String) throws(SQLiteError) -> [(variant: String, entry: CacheEntry)] {
        let statement = try database.statement("SELECT \(Self.columns) FROM entries WHERE key = ?1")
        try statement.bind([.text(key)])
        var found: [(String, CacheEntry)] = []
        while try statement.step() {
            let row = Self.entry(statement)
            found.append((row.variant, row.entry))
        }
        return found
    }

    /// Every entry, most recently used first (`afcli cache ls`), optionally only those for `url`.
    package func entries(url: String? = nil) throws(SQLiteError) -> [CacheEntry] {
        let filter = url == nil ? "" : " WHERE url = ?1"
        let statement = try database.statement("SELECT \(Self.columns) FROM entries\(filter) ORDER BY used DESC")
        if let url { try statement.bind([.text(url)]) }
        var found: [CacheEntry] = []
        while try statement.step() { found.append(Self.entry(statement).entry) }
        return found
    }

    /// Stores `entry` under `key` and `variant`, replacing what was there; a body file the old
    /// entry used and no other does is removed.
    package func put(key: String, variant: String, entry: CacheEntry) throws {
        let orphans: [String] = try database.transaction {
            let old = try bodyFiles(where: "key = ?1 AND variant = ?2", [.text(key), .text(variant)])
            let insert = try database.statement(
                "INSERT OR REPLACE INTO entries(\(Self.columns)) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                    + "?11, ?12, ?13, ?14, ?15, ?16, ?17)")
            var inline: SQLiteStatement.Value = .null
            var file: SQLiteStatement.Value = .null
            switch entry.body {
            case .inline(let bytes): inline = .blob(bytes)
            case .file(let digest): file = .text(digest)
            }
            try insert.bind([
                .text(entry.namespace), .text(entry.method), .text(entry.url),
                .text(entry.varyNames.joined(separator: "\n")),
                .int(Int64(entry.statusCode)), .text(entry.reasonPhrase), .text(entry.httpVersion),
                .blob(CacheEntry.encode(CacheEntry.storable(entry.headers))), inline, file, .int(entry.bodySize),
                .double(entry.requestTime), .double(entry.responseTime), entry.expires.map { .double($0) } ?? .null,
                .double(entry.lastUsed), .text(key), .text(variant),
            ])
            try insert.run()
            return try unreferenced(old)
        }
        removeBodyFiles(orphans)
    }

    /// After a 304: the stored entry's head and times replaced, its body kept.
    package func refresh(key: String, variant: String, entry: CacheEntry) throws(SQLiteError) {
        let update = try database.statement(
            "UPDATE entries SET headers = ?1, request_time = ?2, response_time = ?3, expires = ?4, used = ?5 "
                + "WHERE key = ?6 AND variant = ?7")
        try update.bind([
            .blob(CacheEntry.encode(CacheEntry.storable(entry.headers))), .double(entry.requestTime),
            .double(entry.responseTime), entry.expires.map { .double($0) } ?? .null, .double(entry.lastUsed),
            .text(key), .text(variant),
        ])
        try update.run()
    }

    /// Records a use of an entry, for least-recently-used pruning.
    package func touch(key: String, variant: String, at time: Double) throws(SQLiteError) {
        let update = try database.statement("UPDATE entries SET used = ?1 WHERE key = ?2 AND variant = ?3")
        try update.bind([.double(time), .text(key), .text(variant)])
        try update.run()
    }

    /// Removes the entries `condition` selects (with `values` bound); returns how many.
    @discardableResult
    func remove(where condition: String, _ values: [SQLiteStatement.Value]) throws -> Int {
        let (count, orphans): (Int, [String]) = try database.transaction {
            let files = try bodyFiles(where: condition, values)
            let delete = try database.statement("DELETE FROM entries WHERE \(condition)")
            try delete.bind(values)
            try delete.run()
            return (database.changes, try unreferenced(files))
        }
        removeBodyFiles(orphans)
        return count
    }

    /// Removes one entry.
    package func remove(key: String, variant: String) throws {
        try remove(where: "key = ?1 AND variant = ?2", [.text(key), .text(variant)])
    }

    /// Removes the GET and HEAD entries of `url` (after a successful unsafe request to it).
    package func invalidate(url: String) throws {
        try remove(where: "url = ?1 AND method IN ('GET', 'HEAD')", [.text(url)])
    }

    /// The body files the selected entries use.
    private func bodyFiles(where condition: String, _ values: [SQLiteStatement.Value]) throws(SQLiteError) -> [String] {
        let select = try database.statement(
            "SELECT body_file FROM entries WHERE body_file IS NOT NULL AND (\(condition))")
        try select.bind(values)
        var files: [String] = []
        while try select.step() { if let name = select.text(0) { files.append(name) } }
        return files
    }

    /// Those of `files` no entry uses any more.
    private func unreferenced(_ files: [String]) throws(SQLiteError) -> [String] {
        let count = try database.statement("SELECT COUNT(*) FROM entries WHERE body_file = ?1")
        var orphans: [String] = []
        for file in Set(files) {
            try count.bind([.text(file)])
            if try count.step(), count.int(0) == 0 { orphans.append(file) }
            count.reset()
        }
        return orphans
    }

    private func removeBodyFiles(_ names: [String]) {
        for name in names where CacheBodyWriter.isDigestName(name) { unlink(bodiesDirectory + "/" + name) }
    }

    /// Opens a stored body file for reading; nil when it is missing, a link, or not `size` bytes.
    func openBody(digest: String, size: Int64) -> Int32? {
        guard CacheBodyWriter.isDigestName(digest) else { return nil }
        let descriptor = open(bodiesDirectory + "/" + digest, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int64(info.st_size) == size else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// A writer for one body, spilling to a temporary file in `bodies` past `inlineLimit` bytes.
    package func bodyWriter() -> CacheBodyWriter {
        CacheBodyWriter(directory: bodiesDirectory)
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }
}
