import CSQLiteShim

/// An SQLite failure: the operation that failed, SQLite's result code and its message.
package struct SQLiteError: ClassifiedError, CustomStringConvertible {
    package var operation: String
    package var code: Int32
    package var message: String

    /// A database that cannot be read or written is an I/O failure.
    package var failureClass: FailureClass { .failure }

    /// Whether SQLite found the file damaged: SQLITE_CORRUPT (11) or SQLITE_NOTADB (26), with
    /// any extended code.
    package var isCorruption: Bool { code & 0xFF == 11 || code & 0xFF == 26 }

    package var description: String {
        code == AFSQL_UNAVAILABLE ? "libsqlite3 cannot be loaded" : "\(operation): \(message) (sqlite \(code))"
    }
}

/// One SQLite connection (the cache's), with its prepared statements kept for reuse.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens `path` read-write (creating it when `create`), refusing a symbolic link there.
    init(path: String, create: Bool, busyMilliseconds: Int32 = 5000) throws(SQLiteError) {
        var db: OpaquePointer?
        let code = afsql_open(path, create ? 1 : 0, busyMilliseconds, &db)
        guard code == AFSQL_OK, let db else {
            throw SQLiteError(operation: "open", code: code, message: code == AFSQL_UNAVAILABLE ? "" : "cannot open")
        }
        handle = db
        _ = afsql_persist_wal(db)
    }

    deinit {
        for statement in statements.values { afsql_finalize(statement.handle) }
        afsql_close(handle)
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = afsql_exec(handle, sql)
        guard code == AFSQL_OK else { throw error("exec", code) }
    }

    /// The integer in the first column of the first row `sql` returns; 0 for no row.
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let query = try statement(sql)
        guard try query.step() else { return 0 }
        let value = query.int(0)
        _ = try? query.step()
        return value
    }

    /// The prepared statement for `sql`, reset and with its bindings cleared by the caller's binds.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            _ = afsql_reset(cached.handle)
            return cached
        }
        var raw: OpaquePointer?
        let code = afsql_prepare(handle, sql, &raw)
        guard code == AFSQL_OK, let raw else { throw error("prepare", code) }
        let statement = SQLiteStatement(handle: raw, database: self)
        statements[sql] = statement
        return statement
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(afsql_changes(handle)) }

    /// Runs `body` in an immediate transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The error for `code` with SQLite's current message.
    func error(_ operation: String, _ code: Int32) -> SQLiteError {
        SQLiteError(operation: operation, code: code, message: String(cString: afsql_errmsg(handle)))
    }
}

/// A prepared statement: bind parameters (from 1), step, read columns (from 0).
final class SQLiteStatement {
    fileprivate let handle: OpaquePointer
    private unowned let database: SQLiteDatabase

    fileprivate init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    /// A value a parameter can take.
    enum Value {
        case text(String)
        case blob([UInt8])
        case int(Int64)
        case double(Double)
        case null
    }

    /// Binds `values` to parameters 1… in order. The statement is reset first: binding a
    /// statement that has stepped and not been reset is SQLite's SQLITE_MISUSE, which a statement
    /// reused in a loop (one query per body file) would otherwise hit on its second round.
    @discardableResult
    func bind(_ values: [Value]) throws(SQLiteError) -> SQLiteStatement {
        _ = afsql_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .text(let text):
                let bytes = Array(text.utf8) + [0]
                code = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        afsql_bind_text(handle, index, $0.baseAddress, Int32(bytes.count - 1))
                    }
                }
            case .blob(let bytes):
                let padded = bytes.isEmpty ? [0] : bytes
                code = padded.withUnsafeBytes { afsql_bind_blob(handle, index, $0.baseAddress, Int32(bytes.count)) }
            case .int(let number): code = afsql_bind_int64(handle, index, number)
            case .double(let number): code = afsql_bind_double(handle, index, number)
            case .null: code = afsql_bind_null(handle, index)
            }
            guard code == AFSQL_OK else { throw database.error("bind", code) }
        }
        return self
    }

    /// Advances to the next row: true for a row, false when done.
    func step() throws(SQLiteError) -> Bool {
        let code = afsql_step(handle)
        if code == AFSQL_ROW { return true }
        if code == AFSQL_DONE { return false }
        let failure = database.error("step", code)
        _ = afsql_reset(handle)
        throw failure
    }

    /// Ends the statement's current run, so that it holds no read lock (a checkpoint waits on it).
    func reset() {
        _ = afsql_reset(handle)
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) {
        while try step() {}
        _ = afsql_reset(handle)
    }

    func isNull(_ column: Int32) -> Bool { afsql_column_type(handle, column) == AFSQL_NULL }
    func int(_ column: Int32) -> Int64 { afsql_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { afsql_column_double(handle, column) }

    /// The column's bytes (text or blob).
    func bytes(_ column: Int32) -> [UInt8] {
        var length: Int32 = 0
        guard let base = afsql_column_bytes(handle, column, &length), length > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: Int(length)))
    }

    /// The column as text; nil for NULL.
    func text(_ column: Int32) -> String? {
        isNull(column) ? nil : String(decoding: bytes(column), as: UTF8.self)
    }
}
