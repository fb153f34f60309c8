import PostgresNIO

/// The ``CatalogRepository`` in PostgreSQL, shared by every server instance on the database.
/// Two instances may find one channel due at once; both calls then ingest the same videos, which
/// ingestion takes as one.
struct PostgresCatalogRepository: CatalogRepository {
    let database: PostgresServerDatabase

    func catalogChannelsDue(now: Int64, backfill: Bool, durations: Bool, limit: Int) async throws -> [CatalogDue] {
        try await database.query("""
            SELECT c.channel_id, coalesce(k.backfilled, false), coalesce(k.failures, 0)::bigint,
                (SELECT coalesce(max(v.seq), 0) FROM hub_videos v WHERE v.channel_id = c.channel_id)::bigint
            FROM hub_channels c LEFT JOIN hub_channel_catalog k ON k.channel_id = c.channel_id
            WHERE EXISTS (SELECT 1 FROM hub_videos f WHERE f.channel_id = c.channel_id) AND coalesce(k.retry_at, 0) <= \(now)
                AND ((\(backfill) AND NOT coalesce(k.backfilled, false))
                    OR (\(durations) AND EXISTS (SELECT 1 FROM hub_videos v WHERE v.channel_id = c.channel_id
                        AND v.duration_seconds IS NULL AND v.seq > coalesce(k.checked_seq, 0))))
            ORDER BY c.registered_at, c.channel_id LIMIT \(limit)
            """).map { row in
            let (channelID, backfilled, failures, maxSeq) = try row.decode((String, Bool, Int64, Int64).self)
            return CatalogDue(channelID: channelID, needsBackfill: backfill && !backfilled, maxSeq: maxSeq, failures: Int(failures))
        }
    }

    func recordCatalogSuccess(channelID: String, backfilled: Bool, checkedSeq: Int64) async throws {
        _ = try await database.query("""
            INSERT INTO hub_channel_catalog (channel_id, backfilled, checked_seq, failures, retry_at, last_error)
            VALUES (\(channelID), \(backfilled), \(checkedSeq), 0, 0, NULL)
            ON CONFLICT (channel_id) DO UPDATE SET backfilled = hub_channel_catalog.backfilled OR excluded.backfilled,
                checked_seq = greatest(hub_channel_catalog.checked_seq, excluded.checked_seq), failures = 0, retry_at = 0, last_error = NULL
            """)
    }

    func recordCatalogFailure(channelID: String, retryAt: Int64, reason: String) async throws {
        _ = try await database.query("""
            INSERT INTO hub_channel_catalog (channel_id, backfilled, checked_seq, failures, retry_at, last_error)
            VALUES (\(channelID), false, 0, 1, \(retryAt), \(reason))
            ON CONFLICT (channel_id) DO UPDATE SET failures = hub_channel_catalog.failures + 1, retry_at = excluded.retry_at,
                last_error = excluded.last_error
            """)
    }

    func oldestPublished(channelID: String) async throws -> Double? {
        try await database.query("SELECT min(published_at)::double precision FROM hub_videos WHERE channel_id = \(channelID)")
            .first.flatMap { try $0.decode(Double?.self) }
    }
}
