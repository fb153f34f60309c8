import GRDB

/// The ``ChannelLinkCache`` in the server's SQLite database.
struct SQLiteChannelLinkCache: ChannelLinkCache {
    let database: ServerDatabase

    func answers(forKeys keys: [String], foundSince: Int64, missingSince: Int64) async throws -> [String: CachedLink] {
        guard !keys.isEmpty else { return [:] }
        return try await database.read { db in
            var found: [String: CachedLink] = [:]
            let select = try db.cachedStatement(sql: "SELECT channel_id, resolved_at FROM hub_channel_links WHERE link_key = ?")
            for key in keys {
                guard let row = try Row.fetchOne(select, arguments: [key]) else { continue }
                let channelID: String? = row["channel_id"]
                let resolvedAt: Int64 = row["resolved_at"]
                guard resolvedAt >= (channelID == nil ? missingSince : foundSince), let answer = CachedLink(stored: channelID) else { continue }
                found[key] = answer
            }
            return found
        }
    }

    func store(_ answer: CachedLink, forKey key: String, now: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: """
                INSERT INTO hub_channel_links (link_key, channel_id, resolved_at) VALUES (?, ?, ?)
                ON CONFLICT (link_key) DO UPDATE SET channel_id = excluded.channel_id, resolved_at = excluded.resolved_at
                """, arguments: [key, answer.storedChannelID, now])
        }
    }
}
