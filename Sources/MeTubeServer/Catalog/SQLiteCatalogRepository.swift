import GRDB

/// The ``CatalogRepository`` in the server's SQLite database.
struct SQLiteCatalogRepository: CatalogRepository {
    let database: ServerDatabase

    func catalogChannelsDue(now: Int64, backfill: Bool, durations: Bool, limit: Int) async throws -> [CatalogDue] {
        try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.channel_id, coalesce(k.backfilled, 0) AS backfilled, coalesce(k.failures, 0) AS failures,
                    (SELECT coalesce(max(v.seq), 0) FROM hub_videos v WHERE v.channel_id = c.channel_id) AS max_seq
                FROM hub_channels c LEFT JOIN hub_channel_catalog k ON k.channel_id = c.channel_id
                WHERE EXISTS (SELECT 1 FROM hub_videos f WHERE f.channel_id = c.channel_id) AND coalesce(k.retry_at, 0) <= ?
                    AND ((? AND coalesce(k.backfilled, 0) = 0)
                        OR (? AND EXISTS (SELECT 1 FROM hub_videos v WHERE v.channel_id = c.channel_id
                            AND v.duration_seconds IS NULL AND v.seq > coalesce(k.checked_seq, 0))))
                ORDER BY c.registered_at, c.channel_id LIMIT ?
                """, arguments: [now, backfill, durations, limit]).map { row in
                CatalogDue(channelID: row["channel_id"], needsBackfill: backfill && (row["backfilled"] as Int) == 0,
                           maxSeq: row["max_seq"], failures: row["failures"])
            }
        }
    }

    func recordCatalogSuccess(channelID: String, backfilled: Bool, checkedSeq: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: """
                INSERT INTO hub_channel_catalog (channel_id, backfilled, checked_seq, failures, retry_at, last_error) VALUES (?, ?, ?, 0, 0, NULL)
                ON CONFLICT (channel_id) DO UPDATE SET backfilled = max(backfilled, excluded.backfilled),
                    checked_seq = max(checked_seq, excluded.checked_seq), failures = 0, retry_at = 0, last_error = NULL
                """, arguments: [channelID, backfilled, checkedSeq])
        }
    }

    func recordCatalogFailure(channelID: String, retryAt: Int64, reason: String) async throws {
        try await database.write { db in
            try db.execute(sql: """
                INSERT INTO hub_channel_catalog (channel_id, backfilled, checked_seq, failures, retry_at, last_error) VALUES (?, 0, 0, 1, ?, ?)
                ON CONFLICT (channel_id) DO UPDATE SET failures = failures + 1, retry_at = excluded.retry_at, last_error = excluded.last_error
                """, arguments: [channelID, retryAt, reason])
        }
    }

    func oldestPublished(channelID: String) async throws -> Double? {
        try await database.read { db in
            try Double.fetchOne(db, sql: "SELECT min(published_at) FROM hub_videos WHERE channel_id = ?", arguments: [channelID])
        }
    }
}
