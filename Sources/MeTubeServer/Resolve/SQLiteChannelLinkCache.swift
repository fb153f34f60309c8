import Foundation
import GRDB

/// The ``ChannelLinkCache`` in the server's SQLite database.
struct SQLiteChannelLinkCache: ChannelLinkCache {
    let database: ServerDatabase

    func channelIDs(forKeys keys: [String]) async throws -> [String: String] {
        guard !keys.isEmpty else { return [:] }
        return try await database.read { db in
            var found: [String: String] = [:]
            let select = try db.cachedStatement(sql: "SELECT channel_id FROM hub_channel_links WHERE link_key = ?")
            for key in keys {
                if let id = try String.fetchOne(select, arguments: [key]) { found[key] = id }
            }
            return found
        }
    }

    func store(_ resolved: [String: String], now: Int64) async throws {
        guard !resolved.isEmpty else { return }
        try await database.write { db in
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO hub_channel_links (link_key, channel_id, resolved_at) VALUES (?, ?, ?)
                ON CONFLICT (link_key) DO UPDATE SET channel_id = excluded.channel_id, resolved_at = excluded.resolved_at
                """)
            for (key, id) in resolved { try upsert.execute(arguments: [key, id, now]) }
        }
    }
}
