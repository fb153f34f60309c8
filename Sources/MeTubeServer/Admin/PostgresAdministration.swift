import Foundation
import PostgresNIO

/// ``UserAndChannelAdministration`` of a PostgreSQL database, safe while servers use it.
/// Failures are ``ServerError/storage(_:)``.
public struct PostgresAdministration: UserAndChannelAdministration {
    private let database: PostgresServerDatabase

    /// The administration of `database`.
    public init(database: PostgresServerDatabase) {
        self.database = database
    }

    public func users() async throws -> [AdministeredUser] {
        try await database.query("SELECT name, created_millis, last_seen_millis FROM status_users ORDER BY name COLLATE \"C\"").map { row in
            let (name, created, seen) = try row.decode((String, Int64?, Int64?).self)
            return AdministeredUser(name: name, createdMillis: created, lastSeenMillis: seen)
        }
    }

    public func removeUser(name: String) async throws -> Bool {
        try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                let logger = database.logger
                guard let id = try await PostgresServerDatabase.single(
                    Int64.self, connection.query("SELECT id FROM status_users WHERE name = \(name) FOR UPDATE", logger: logger))
                else { return false }
                try await connection.query("DELETE FROM status_zones WHERE user_id = \(id)", logger: logger)
                try await connection.query("DELETE FROM status_users WHERE id = \(id)", logger: logger)
                return true
            }
        }
    }

    public func rotateToken(name: String) async throws -> String? {
        let token = MarkSyncTokenHasher.newToken()
        let rows = try await database.query("UPDATE status_users SET token_hash = \(MarkSyncTokenHasher.hash(token)) WHERE name = \(name) RETURNING id")
        return rows.isEmpty ? nil : token
    }

    public func quota(name: String) async throws -> MarkSyncUserUsage? {
        let rows = try await database.query("""
            SELECT u.id, q.zones, q.records, q.bytes, q.max_zones, q.max_records, q.max_bytes
            FROM status_users u LEFT JOIN status_usage q ON q.user_id = u.id WHERE u.name = \(name)
            """)
        guard let row = rows.first else { return nil }
        let (_, zones, records, bytes, maxZones, maxRecords, maxBytes) = try row.decode((Int64, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?).self)
        return MarkSyncUserUsage(
            usage: MarkSyncUsage(zones: zones ?? 0, records: records ?? 0, bytes: bytes ?? 0),
            setting: MarkSyncQuotaSetting(zones: maxZones, records: maxRecords, bytes: maxBytes))
    }

    public func setQuota(name: String, _ setting: MarkSyncQuotaSetting) async throws -> Bool {
        let rows = try await database.query("""
            INSERT INTO status_usage (user_id, max_zones, max_records, max_bytes)
            SELECT id, \(setting.zones), \(setting.records), \(setting.bytes) FROM status_users WHERE name = \(name)
            ON CONFLICT (user_id) DO UPDATE SET max_zones = excluded.max_zones, max_records = excluded.max_records, max_bytes = excluded.max_bytes
            RETURNING user_id
            """)
        return !rows.isEmpty
    }

    public func channels() async throws -> [AdministeredChannel] {
        try await database.query("""
            SELECT c.channel_id, c.title, c.registered_at, count(v.seq), max(v.published_at),
                c.last_fetch_millis, c.consecutive_failures, c.last_failure
            FROM hub_channels c LEFT JOIN hub_videos v ON v.channel_id = c.channel_id
            GROUP BY c.channel_id ORDER BY c.channel_id
            """).map { row in
            let (id, title, registered, videos, newest, fetched, failures, failure) =
                try row.decode((String, String?, Int64, Int, Double?, Int64?, Int, String?).self)
            return AdministeredChannel(
                channelID: id, title: title, registeredAt: registered, videoCount: videos, newestUpload: newest,
                lastFetchMillis: fetched, consecutiveFailures: failures, lastFailure: failure)
        }
    }

    public func removeChannel(id channelID: String) async throws -> Bool {
        try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                let logger = database.logger
                let removed = try await PostgresServerDatabase.single(
                    String.self, connection.query("DELETE FROM hub_channels WHERE channel_id = \(channelID) RETURNING channel_id", logger: logger))
                guard removed != nil else { return false }
                try await connection.query("DELETE FROM hub_videos WHERE channel_id = \(channelID)", logger: logger)
                return true
            }
        }
    }
}
