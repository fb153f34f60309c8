import GRDB
import PostgresNIO

extension FreshSeqs {
    /// `changes`, each with a fresh `seq` from the SQLite counter, moved once by their number.
    static func take<Change>(for changes: [Change], _ db: Database) throws -> [(seq: Int64, change: Change)] {
        guard !changes.isEmpty else { return [] }
        let statement = try db.cachedStatement(sql: "UPDATE hub_counters SET value = value + ? WHERE name = 'last_seq' RETURNING value")
        return numbered(changes, endingAt: try counter(Int64.fetchOne(statement, arguments: [changes.count])))
    }

    /// Locks the PostgreSQL counter's row until the transaction ends; a transaction that may hand
    /// out seqs takes it before it reads the rows it plans from. Transactions that hand out seqs
    /// so run one after another and commit in `seq` order (see ``PostgresHubRepository``). A
    /// missing row, which nothing would lock, fails as ``counter(_:)`` says.
    static func lock(_ connection: PostgresConnection, _ logger: Logger) async throws {
        _ = try await counter(PostgresServerDatabase.single(Int64.self, connection.query(
            "SELECT value FROM hub_counters WHERE name = 'last_seq' FOR UPDATE", logger: logger)))
    }

    /// `changes`, each with a fresh `seq` from the PostgreSQL counter (locked by ``lock(_:_:)``),
    /// moved once by their number.
    static func take<Change>(
        for changes: [Change], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [(seq: Int64, change: Change)] {
        guard !changes.isEmpty else { return [] }
        let last = try await counter(PostgresServerDatabase.single(Int64.self, connection.query(
            "UPDATE hub_counters SET value = value + \(changes.count) WHERE name = 'last_seq' RETURNING value", logger: logger)))
        return numbered(changes, endingAt: last)
    }
}
