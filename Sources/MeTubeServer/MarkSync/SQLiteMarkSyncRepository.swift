import Foundation
import GRDB
import MeTubeAPI

/// A ``MarkSyncRepository`` in the server's SQLite database.
///
/// Concurrent transactions are committed in groups (``GroupCommit``): each one is durable when
/// it returns, and one sync of the database serves the whole group.
public struct SQLiteMarkSyncRepository: MarkSyncRepository {
    private let database: ServerDatabase
    private let groupCommit: GroupCommit

    /// The status tables of `database`.
    public init(database: ServerDatabase) {
        self.database = database
        self.groupCommit = GroupCommit(database: database)
    }

    /// The status tables of the database file at `path` (created if needed).
    public init(path: String) throws {
        self.init(database: try ServerDatabase(path: path))
    }

    /// The status tables of a fresh in-memory database.
    public init() throws {
        self.init(database: try ServerDatabase())
    }

    public func addUser(name: String, tokenHash: String) async throws -> MarkSyncUser? {
        try await database.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO status_users (name, token_hash, created_millis) VALUES (?, ?, ?)",
                arguments: [name, tokenHash, Int64(Date().timeIntervalSince1970 * 1000)])
            return db.changesCount == 1 ? MarkSyncUser(id: db.lastInsertedRowID, name: name) : nil
        }
    }

    public func user(tokenHash: String) async throws -> MarkSyncUser? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name FROM status_users WHERE token_hash = ?", arguments: [tokenHash])
                .map { MarkSyncUser(id: $0["id"], name: $0["name"]) }
        }
    }

    public func recordSeen(userID: Int64, atMillis millis: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE status_users SET last_seen_millis = ? WHERE id = ?", arguments: [millis, userID])
        }
    }

    /// Decides and writes in the next group's transaction (``GroupCommit``), after the bodies
    /// queued before it: SQLite's single writer puts the requests of a zone one after another.
    public func modify<T: Sendable>(
        _ reads: MarkSyncModifyReads, deciding decide: @escaping @Sendable (MarkSyncModifyState) throws -> (T, MarkSyncModifyWrites?)
    ) async throws -> T {
        try await groupCommit.write { db in try SQLiteMarkSyncTransaction(db: db).modify(reads, deciding: decide) }
    }

    public func modifyZones<T: Sendable>(
        _ reads: MarkSyncZonesReads, deciding decide: @escaping @Sendable (MarkSyncZonesState) throws -> (T, MarkSyncZonesWrites)
    ) async throws -> T {
        try await groupCommit.write { db in try SQLiteMarkSyncTransaction(db: db).modifyZones(reads, deciding: decide) }
    }

    public func zone(_ key: MarkSyncZoneKey, records selection: MarkSyncRecordSelection) async throws -> (zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord])? {
        try await database.read { db in try SQLiteMarkSyncTransaction(db: db).zone(key, records: selection) }
    }

    public func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) async throws -> [StoredMarkSyncZone] {
        try await self.database.read { db in try SQLiteMarkSyncTransaction(db: db).zones(in: database, after: name, limit: limit) }
    }

    public func zones(in database: MarkSyncDatabaseKey, named names: [String]) async throws -> [StoredMarkSyncZone?] {
        try await self.database.read { db in try SQLiteMarkSyncTransaction(db: db).zones(in: database, named: names) }
    }

    public func zoneChanges(
        in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int
    ) async throws -> (latest: Int64, changes: [MarkSyncZoneChange]) {
        try await self.database.read { db in
            let transaction = SQLiteMarkSyncTransaction(db: db)
            return (
                try transaction.databaseChangePosition(database),
                try transaction.zoneChanges(in: database, after: position, includeDeleted: includeDeleted, limit: limit))
        }
    }
}
