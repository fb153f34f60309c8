import Foundation
import PostgresNIO

/// The ``ChannelLinkCache`` in PostgreSQL, shared by every server instance on the database.
struct PostgresChannelLinkCache: ChannelLinkCache {
    let database: PostgresServerDatabase

    func channelIDs(forKeys keys: [String]) async throws -> [String: String] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await database.query("SELECT link_key, channel_id FROM hub_channel_links WHERE link_key = ANY(\(keys)::text[])")
        var found: [String: String] = [:]
        for row in rows {
            let (key, id) = try row.decode((String, String).self)
            found[key] = id
        }
        return found
    }

    func store(_ resolved: [String: String], now: Int64) async throws {
        guard !resolved.isEmpty else { return }
        let keys = Array(resolved.keys)
        let ids = keys.map { resolved[$0] ?? "" }
        _ = try await database.query("""
            INSERT INTO hub_channel_links (link_key, channel_id, resolved_at)
            SELECT key, id, \(now) FROM unnest(\(keys)::text[], \(ids)::text[]) AS t(key, id)
            ON CONFLICT (link_key) DO UPDATE SET channel_id = excluded.channel_id, resolved_at = excluded.resolved_at
            """)
    }
}
