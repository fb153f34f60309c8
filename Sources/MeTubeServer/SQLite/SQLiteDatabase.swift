import Synchronization

/// A `Sendable` owner of one `SQLiteConnection` that serializes every use of it.
///
/// Callers run short synchronous bodies with `read` / `write`; a body never suspends, so the lock
/// is held only for the SQL it runs. `write` wraps the body in a transaction.
///
/// `@unchecked Sendable` is safe here: the connection is private and only ever touched inside
/// `lock.withLock`, so no two threads use it at once, and bodies cannot keep it (it is not
/// `Sendable`, so it cannot escape into another task).
public final class SQLiteDatabase: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let lock = Mutex<Void>(())
    /// The path the database was opened from (`":memory:"` for an in-memory database).
    public let path: String

    /// Opens (creating if needed) the database at `path` and applies `migrations`.
    public init(path: String, migrations: [SQLiteMigration] = [], busyTimeoutMilliseconds: Int32 = 5_000) throws {
        let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try connection.migrate(migrations)
        self.connection = connection
        self.path = path
    }

    /// Runs `body` with exclusive use of the connection, without a transaction.
    public func read<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try lock.withLock { _ in try body(connection) }
    }

    /// Runs `body` with exclusive use of the connection inside a transaction, which commits when
    /// `body` returns and rolls back when it throws.
    public func write<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try lock.withLock { _ in try connection.transaction(body) }
    }
}
