import CSQLite

/// One open SQLite connection with a cache of prepared statements.
///
/// A connection is not `Sendable`; share it through `SQLiteDatabase`, which serializes access.
/// Files are opened in WAL mode with a busy timeout and foreign keys enabled.
public final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    private var transactionDepth = 0

    /// Opens (creating if needed) the database at `path`; `":memory:"` opens a private in-memory
    /// database. `busyTimeoutMilliseconds` is how long a write waits for another connection's lock.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(connection)
            throw SQLiteError(code: code, message: message, context: "opening \(path)")
        }
        self.handle = connection
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(connection, 1)
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
    }

    deinit {
        statements.removeAll()
        sqlite3_close(handle)
    }

    /// Runs one or more SQL statements separated by semicolons, without parameters or results.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text, context: "executing \(sql)")
        }
    }

    /// Returns the cached prepared statement for `sql`, preparing it on first use, with `bindings`
    /// bound to parameters 1, 2, … in order.
    public func statement(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteStatement {
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try SQLiteStatement(connection: handle, sql: sql)
            statements[sql] = statement
        }
        return try statement.bind(bindings)
    }

    /// Runs `sql` once with `bindings`, ignoring any rows.
    public func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) {
        try statement(sql, bindings).run()
    }

    /// Runs `sql` with `bindings` and maps every row through `row`.
    public func query<Row>(
        _ sql: String, _ bindings: [SQLiteValue] = [], row: (SQLiteStatement) throws(SQLiteError) -> Row
    ) throws(SQLiteError) -> [Row] {
        var rows: [Row] = []
        try statement(sql, bindings).forEachRow { (statement) throws(SQLiteError) in rows.append(try row(statement)) }
        return rows
    }

    /// Runs `sql` with `bindings` and returns the first column of the first row as an integer,
    /// or nil when there is no row or the value is `NULL`.
    public func scalar(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        let statement = try statement(sql, bindings)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The rowid of the most recent successful insert on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the most recent insert, update or delete.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` inside a transaction (`BEGIN IMMEDIATE` … `COMMIT`), rolling back when it throws.
    /// Nested calls join the outer transaction through savepoints.
    public func transaction<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        let savepoint = "sp\(transactionDepth)"
        try execute(transactionDepth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        do {
            let result = try body(self)
            transactionDepth -= 1
            try execute(transactionDepth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
            return result
        } catch {
            transactionDepth -= 1
            try? execute(transactionDepth == 0 ? "ROLLBACK" : "ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            throw error
        }
    }

    /// Applies the migrations that have not run yet, in order, each in its own transaction.
    ///
    /// Throws when the database records a migration that `migrations` does not contain (a newer
    /// schema) or when a migration fails; a failed migration leaves the schema as it was.
    public func migrate(_ migrations: [SQLiteMigration]) throws {
        try execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
        let applied = Set(try query("SELECT name FROM schema_migrations") { $0.text(0) })
        let known = Set(migrations.map(\.name))
        if let unknown = applied.subtracting(known).sorted().first {
            throw SQLiteError(code: SQLITE_ERROR, message: "the database has migration \(unknown), which this program does not know; it was written by a newer version", context: "migrating")
        }
        for migration in migrations where !applied.contains(migration.name) {
            try transaction { connection in
                try connection.execute(migration.sql)
                try connection.run("INSERT INTO schema_migrations (name) VALUES (?)", [.text(migration.name)])
            }
        }
    }
}
