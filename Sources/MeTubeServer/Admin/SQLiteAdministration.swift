import Foundation
import GRDB

/// The operator's view of a database file: users, channels, backup and restore, as the
/// `metube-server users|channels|backup|restore` commands use them.
///
/// Every operation works while a server serves the same file (SQLite's locking keeps them
/// consistent), except ``restore(from:to:)``, which refuses then. Failures are
/// ``ServerError/databaseMissing(_:)``, ``ServerError/unknownName(_:)`` and
/// ``ServerError/databaseBusy(_:)``, or ``ServerError/storage(_:)`` for the rest.
public struct SQLiteAdministration: UserAndChannelAdministration {
    private let database: ServerDatabase

    /// Opens the existing database at `path`; it is never created here.
    public init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw ServerError.databaseMissing(path) }
        do {
            database = try ServerDatabase(path: path)
        } catch let error as ServerError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw ServerError.databaseBusy("\(path) stayed locked: \(error.message ?? "busy")")
        } catch {
            throw ServerError.storage("cannot open \(path): \(error)")
        }
    }

    /// Every user by name, without tokens.
    public func users() async throws -> [AdministeredUser] {
        try await run { db in
            try Row.fetchAll(db, sql: "SELECT name, created_millis, last_seen_millis FROM status_users ORDER BY name").map { row in
                AdministeredUser(name: row[0], createdMillis: row[1], lastSeenMillis: row[2])
            }
        }
    }

    /// Deletes the user `name` with their zones and records; their token stops working at once.
    public func removeUser(name: String) async throws {
        try await run { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM status_users WHERE name = ?", arguments: [name]) else {
                throw ServerError.unknownName("no user named \(name)")
            }
            try db.execute(sql: "DELETE FROM status_zones WHERE user_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM status_users WHERE id = ?", arguments: [id])
        }
    }

    /// Gives the user `name` a new token and returns it (only its hash is stored); the old token
    /// stops working at once.
    public func rotateToken(name: String) async throws -> String {
        let token = MarkSyncTokenHasher.newToken()
        try await run { db in
            try db.execute(sql: "UPDATE status_users SET token_hash = ? WHERE name = ?", arguments: [MarkSyncTokenHasher.hash(token), name])
            guard db.changesCount == 1 else { throw ServerError.unknownName("no user named \(name)") }
        }
        return token
    }

    /// What the user `name` holds and the quota set for them.
    public func quota(name: String) async throws -> MarkSyncUserUsage {
        try await run { db in
            let id = try Self.userID(name, in: db)
            return try SQLiteMarkSyncTransaction(db: db).usage(ofUser: id)
        }
    }

    /// Sets the quota of the user `name` (a nil limit: the server's default).
    public func setQuota(name: String, _ setting: MarkSyncQuotaSetting) async throws {
        try await run { db in
            let id = try Self.userID(name, in: db)
            try db.execute(sql: """
                INSERT INTO status_usage (user_id, max_zones, max_records, max_bytes) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET max_zones = excluded.max_zones, max_records = excluded.max_records, max_bytes = excluded.max_bytes
                """, arguments: [id, setting.zones, setting.records, setting.bytes])
        }
    }

    private static func userID(_ name: String, in db: Database) throws -> Int64 {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM status_users WHERE name = ?", arguments: [name]) else {
            throw ServerError.unknownName("no user named \(name)")
        }
        return id
    }

    /// Every registered channel with its number of stored videos, its newest upload and how its
    /// feed fetches went.
    public func channels() async throws -> [AdministeredChannel] {
        try await run { db in
            try Row.fetchAll(db, sql: """
                SELECT c.channel_id, c.title, c.registered_at, count(v.seq), max(v.published_at),
                    c.last_fetch_millis, c.consecutive_failures, c.last_failure
                FROM hub_channels c LEFT JOIN hub_videos v ON v.channel_id = c.channel_id
                GROUP BY c.channel_id ORDER BY c.channel_id
                """).map { row in
                AdministeredChannel(
                    channelID: row[0], title: row[1], registeredAt: row[2], videoCount: row[3], newestUpload: row[4],
                    lastFetchMillis: row[5], consecutiveFailures: row[6], lastFailure: row[7]
                )
            }
        }
    }

    /// Deletes the channel `channelID` and its videos; it returns when a client registers it again.
    public func removeChannel(id channelID: String) async throws {
        try await run { db in
            try db.execute(sql: "DELETE FROM hub_channels WHERE channel_id = ?", arguments: [channelID])
            guard db.changesCount == 1 else { throw ServerError.unknownName("no channel \(channelID)") }
            try db.execute(sql: "DELETE FROM hub_videos WHERE channel_id = ?", arguments: [channelID])
        }
    }

    /// Copies the whole database into a new file at `destination` with SQLite's online backup,
    /// consistent even while a server writes to it. An existing file at `destination` is refused.
    public func backup(to destination: String) throws {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw ServerError.invalidConfiguration("\(destination) exists; give a new file name")
        }
        do {
            let copy = try DatabaseQueue(path: destination)
            try database.writer.backup(to: copy)
            try copy.close()
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw ServerError.storage("backup to \(destination) failed: \(error)")
        }
    }

    /// Replaces the database at `destination` with the backup `source`, refusing while a server
    /// holds `destination` or when `source` is not a metube-server database.
    public static func restore(from source: String, to destination: String) throws {
        guard FileManager.default.fileExists(atPath: source) else { throw ServerError.databaseMissing(source) }
        let lock = try ServerDatabaseLock(databasePath: destination)
        do {
            var readOnly = Configuration()
            readOnly.readonly = true
            let backup = try DatabaseQueue(path: source, configuration: readOnly)
            let tables = try backup.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            guard Set(tables).isSuperset(of: ["hub_channels", "status_users"]) else {
                throw ServerError.invalidConfiguration("\(source) is not a metube-server database")
            }
            let target = try DatabaseQueue(path: destination)
            try backup.backup(to: target)
            try target.close()
            try backup.close()
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.storage("restore of \(source) into \(destination) failed: \(error)")
        }
        withExtendedLifetime(lock) {}
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.writer.write(body)
        } catch let error as ServerError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw ServerError.databaseBusy("the database stayed locked: \(error.message ?? "busy")")
        } catch {
            throw ServerError.storage("\(error)")
        }
    }
}
