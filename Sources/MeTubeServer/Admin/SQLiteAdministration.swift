import Foundation
import GRDB

/// The operator's view of a database file: users, channels, backup and restore, as the
/// `metube-server users|channels|backup|restore` commands use them.
///
/// Every operation works while a server serves the same file (SQLite's locking keeps them
/// consistent), except ``restore(from:to:)``, which refuses then. Failures are the storage
/// failures ``ServerError/StorageFailure/missing(path:)``, ``ServerError/StorageFailure/busy(_:)``
/// and ``ServerError/StorageFailure/failed(_:)``.
public struct SQLiteAdministration: UserAndChannelAdministration {
    /// The database administered.
    let database: ServerDatabase

    /// The administration of `database`.
    init(database: ServerDatabase) {
        self.database = database
    }

    /// Opens the existing database at `path`; it is never created here.
    public init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw ServerError.storage(.missing(path: path)) }
        do {
            database = try ServerDatabase(path: path)
        } catch let error as ServerError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw ServerError.storage(.busy("\(path) stayed locked: \(error.message ?? "busy")"))
        } catch {
            throw ServerError.storage(.failed("cannot open \(path): \(error)"))
        }
    }

    /// Every user by name, without tokens.
    public func users() async throws -> [AdministeredUser] {
        try await run { db in
            try Row.fetchAll(db, sql: "SELECT name, created_millis, last_seen_millis FROM status_users ORDER BY name").map { row in
                AdministeredUser(name: row["name"], createdMillis: row["created_millis"], lastSeenMillis: row["last_seen_millis"])
            }
        }
    }

    /// Deletes the user `name` with their zones and records, their token stopping working at once;
    /// false when no user has that name.
    public func removeUser(name: String) async throws -> Bool {
        try await run { db in
            guard let id = try Self.userID(name, in: db) else { return false }
            try db.execute(sql: "DELETE FROM status_zones WHERE user_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM status_users WHERE id = ?", arguments: [id])
            return true
        }
    }

    /// Gives the user `name` a new token and returns it (only its hash is stored); the old token
    /// stops working at once; nil when no user has that name.
    public func rotateToken(name: String) async throws -> String? {
        let token = MarkSyncTokenHasher.newToken()
        let rotated = try await run { db in
            try db.execute(sql: "UPDATE status_users SET token_hash = ? WHERE name = ?", arguments: [MarkSyncTokenHasher.hash(token), name])
            return db.changesCount == 1
        }
        return rotated ? token : nil
    }

    /// What the user `name` holds and the quota set for them; nil when no user has that name.
    public func quota(name: String) async throws -> MarkSyncUserUsage? {
        try await run { db in
            guard let id = try Self.userID(name, in: db) else { return nil }
            return try SQLiteMarkSyncTransaction(db: db).usage(ofUser: id)
        }
    }

    /// Sets the quota of the user `name` (a nil limit: the server's default); false when no user
    /// has that name.
    public func setQuota(name: String, _ setting: MarkSyncQuotaSetting) async throws -> Bool {
        try await run { db in
            guard let id = try Self.userID(name, in: db) else { return false }
            try db.execute(sql: """
                INSERT INTO status_usage (user_id, max_zones, max_records, max_bytes) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET max_zones = excluded.max_zones, max_records = excluded.max_records, max_bytes = excluded.max_bytes
                """, arguments: [id, setting.zones, setting.records, setting.bytes])
            return true
        }
    }

    private static func userID(_ name: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM status_users WHERE name = ?", arguments: [name])
    }

    /// Every registered channel with its number of stored videos, its newest upload and how its
    /// feed fetches went.
    public func channels() async throws -> [AdministeredChannel] {
        try await run { db in
            try Row.fetchAll(db, sql: """
                SELECT c.channel_id, c.title, c.registered_at, count(v.seq) AS video_count, max(v.published_at) AS newest_upload,
                    c.last_fetch_millis, c.consecutive_failures, c.last_failure
                FROM hub_channels c LEFT JOIN hub_videos v ON v.channel_id = c.channel_id
                GROUP BY c.channel_id ORDER BY c.channel_id
                """).map { row in
                AdministeredChannel(
                    channelID: row["channel_id"], title: row["title"], registeredAt: row["registered_at"], videoCount: row["video_count"],
                    newestUpload: row["newest_upload"], lastFetchMillis: row["last_fetch_millis"], consecutiveFailures: row["consecutive_failures"],
                    lastFailure: row["last_failure"]
                )
            }
        }
    }

    /// Deletes the channel `channelID` and its videos (it returns when a client registers it
    /// again); false when it is not registered.
    public func removeChannel(id channelID: String) async throws -> Bool {
        try await run { db in
            try db.execute(sql: "DELETE FROM hub_channels WHERE channel_id = ?", arguments: [channelID])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM hub_videos WHERE channel_id = ?", arguments: [channelID])
            return true
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
            throw ServerError.storage(.failed("backup to \(destination) failed: \(error)"))
        }
    }

    /// Replaces the database at `destination` with the backup `source`, refusing while a server
    /// holds `destination` or when `source` is not a metube-server database.
    public static func restore(from source: String, to destination: String) throws {
        guard FileManager.default.fileExists(atPath: source) else { throw ServerError.storage(.missing(path: source)) }
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
            throw ServerError.storage(.failed("restore of \(source) into \(destination) failed: \(error)"))
        }
        withExtendedLifetime(lock) {}
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.writer.write(body)
        } catch let error as ServerError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw ServerError.storage(.busy("the database stayed locked: \(error.message ?? "busy")"))
        } catch {
            throw ServerError.storage(.failed("\(error)"))
        }
    }
}
