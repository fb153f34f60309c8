import PostgresNIO

/// The ``ChannelLinkCache`` in PostgreSQL, shared by every server instance on the database.
struct PostgresChannelLinkCache: ChannelLinkCache {
    let database: PostgresServerDatabase

    func answers(forKeys keys: [String], foundSince: Int64, missingSince: Int64) async throws -> [String: CachedLink] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await database.query("""
            SELECT link_key, channel_id FROM hub_channel_links WHERE link_key = ANY(\(keys)::text[])
                AND resolved_at >= CASE WHEN channel_id IS NULL THEN \(missingSince) ELSE \(foundSince) END
            """)
        var found: [String: CachedLink] = [:]
        for row in rows {
            let (key, channelID) = try row.decode((String, String?).self)
            found[key] = CachedLink(stored: channelID)
        }
        return found
    }

    func store(_ answer: CachedLink, forKey key: String, now: Int64) async throws {
        _ = try await database.query("""
            INSERT INTO hub_channel_links (link_key, channel_id, resolved_at) VALUES (\(key), \(answer.storedChannelID), \(now))
            ON CONFLICT (link_key) DO UPDATE SET channel_id = excluded.channel_id, resolved_at = excluded.resolved_at
            """)
    }
}
