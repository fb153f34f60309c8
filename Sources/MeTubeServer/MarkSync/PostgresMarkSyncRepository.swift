import Foundation
import Logging
import MeTubeAPI
import PostgresNIO

/// A ``MarkSyncRepository`` in PostgreSQL, correct with any number of server instances writing.
///
/// **Why `changes/zone` and `changes/database` never skip a change.** Every transaction takes a
/// transaction-scoped advisory lock on each user database (user, container, environment) it
/// touches before it reads or writes anything of it, and holds it to its end. So the transactions
/// of one user database run one after another, on whichever instance: a zone's record sequence
/// numbers and a database's change positions are handed out and committed in order, and every
/// read inside a transaction sees one consistent state, as with SQLite's single writer.
/// Different users' transactions run in parallel. A transaction that PostgreSQL still aborts as a
/// deadlock or a serialization failure is run again, up to three times.
///
/// Every request is awaited statements in one transaction (``PostgresMarkSyncStatements``), and
/// no thread waits for the database: a write reads what its decision needs (the zone first,
/// after the lock), calls the service's decision once and executes the writes it returns; a
/// read reads the zone and then its records. Each statement is answered within
/// ``StorageDeadline/call``, the whole transaction within ``StorageDeadline/transaction``. A statement that gets no answer in time
/// closes its connection, so that the pool replaces it and the transaction's advisory lock goes
/// with it.
public struct PostgresMarkSyncRepository: MarkSyncRepository {
    private let database: PostgresServerDatabase

    /// The status tables of `database`.
    public init(database: PostgresServerDatabase) {
        self.database = database
    }

    public func addUser(name: String, tokenHash: String) async throws -> MarkSyncUser? {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let rows = try await database.query(
            "INSERT INTO status_users (name, token_hash, created_millis) VALUES (\(name), \(tokenHash), \(now)) ON CONFLICT DO NOTHING RETURNING id")
        return try rows.first.map { MarkSyncUser(id: try $0.decode(Int64.self), name: name) }
    }

    public func user(tokenHash: String) async throws -> MarkSyncUser? {
        let rows = try await database.query("SELECT id, name FROM status_users WHERE token_hash = \(tokenHash)")
        return try rows.first.map { row in
            let (id, name) = try row.decode((Int64, String).self)
            return MarkSyncUser(id: id, name: name)
        }
    }

    public func recordSeen(userID: Int64, atMillis millis: Int64) async throws {
        _ = try await database.query("UPDATE status_users SET last_seen_millis = \(millis) WHERE id = \(userID)")
    }

    /// Decides and writes in one transaction, after taking the user database's advisory lock
    /// (``PostgresMarkSyncStatements/modify(_:deciding:)``): the requests of a zone, from any
    /// instance, decide one after another.
    public func modify<T: Sendable>(
        _ reads: MarkSyncModifyReads, deciding decide: @escaping @Sendable (MarkSyncModifyState) throws -> (T, MarkSyncModifyWrites?)
    ) async throws -> T {
        try await inTransaction { statements in try await statements.modify(reads, deciding: decide) }
    }

    public func modifyZones<T: Sendable>(
        _ reads: MarkSyncZonesReads, deciding decide: @escaping @Sendable (MarkSyncZonesState) throws -> (T, MarkSyncZonesWrites)
    ) async throws -> T {
        try await inTransaction { statements in try await statements.modifyZones(reads, deciding: decide) }
    }

    public func zone(_ key: MarkSyncZoneKey, records selection: MarkSyncRecordSelection) async throws -> (zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord])? {
        try await inTransaction { statements in try await statements.zone(key, records: selection) }
    }

    public func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) async throws -> [StoredMarkSyncZone] {
        try await inTransaction { statements in try await statements.zones(in: database, after: name, limit: limit) }
    }

    public func zones(in database: MarkSyncDatabaseKey, named names: [String]) async throws -> [StoredMarkSyncZone?] {
        try await inTransaction { statements in try await statements.zones(in: database, named: names) }
    }

    public func zoneChanges(
        in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int
    ) async throws -> (latest: Int64, changes: [MarkSyncZoneChange]) {
        try await inTransaction { statements in
            (try await statements.changePosition(database),
             try await statements.zoneChanges(in: database, after: position, includeDeleted: includeDeleted, limit: limit))
        }
    }

    /// Runs `body` between `BEGIN` and `COMMIT` (`ROLLBACK` when it throws) within
    /// ``StorageDeadline/transaction``, again from the start when PostgreSQL aborts it as a
    /// deadlock or a serialization failure, up to three times in all.
    private func inTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresMarkSyncStatements) async throws -> T) async throws -> T {
        let (database, logger) = (database, database.logger)
        var attempt = 0
        while true {
            attempt += 1
            do {
                let end = ContinuousClock.now + StorageDeadline.limit(StorageDeadline.transaction)
                return try await database.withConnection("a status transaction", within: end - .now) { connection in
                    let statements = PostgresMarkSyncStatements(connection: connection, end: end, logger: logger)
                    try await statements.execute("BEGIN")
                    do {
                        let value = try await body(statements)
                        try await statements.execute("COMMIT")
                        return value
                    } catch {
                        _ = try? await statements.execute("ROLLBACK")
                        throw error
                    }
                }
            } catch let error as PSQLError {
                let state = PostgresServerDatabase.sqlState(of: error)
                if attempt < 3, state == "40P01" || state == "40001" { continue }
                throw ServerError.storage(.failed(PostgresServerDatabase.describe(error)))
            }
        }
    }
}
