/// One named, append-only schema step.
///
/// Migrations are applied in the order given, each once, inside its own transaction; their names
/// are recorded in the `schema_migrations` table. A list may only ever grow at the end: a database
/// that has applied a name the list does not contain was written by a newer program and is refused.
public struct SQLiteMigration: Sendable {
    /// A stable, unique name, e.g. `"001-create-channels"`.
    public let name: String
    /// One or more SQL statements separated by semicolons.
    public let sql: String

    /// Creates a migration from its stable name and its SQL.
    public init(_ name: String, sql: String) {
        self.name = name
        self.sql = sql
    }
}
