import Foundation
import GRDB

/// What the YouTube Data API enrichment reads and writes: the videos and channels still to look
/// up, what was found, and the units spent per UTC day; in the server's SQLite database
/// (``SQLiteEnrichmentRepository``) or in its PostgreSQL database, shared by every instance
/// (``PostgresEnrichmentRepository``). Times are milliseconds since 1970.
protocol EnrichmentRepository: Sendable {
    /// Up to `limit` videos without a duration, newest first: never looked up, or looked up
    /// before `recheckBefore` fewer than `maxAttempts` times. Where several instances share the
    /// storage, a video one of them is looking up is left out for the others.
    func videosToEnrich(recheckBefore: Int64, maxAttempts: Int, limit: Int) async throws -> [String]
    /// Records a lookup of `checked` at `now` and stores `durations`. A video whose duration
    /// changes gets a fresh `seq`, so clients paging by `seq` receive it again with its duration.
    /// Returns how many videos changed.
    func recordVideoLookup(checked: [String], durations: [String: Int], now: Int64) async throws -> Int
    /// Forgets the lookups of videos the hub no longer keeps.
    func forgetRemovedVideos() async throws
    /// Up to `limit` videos whose availability re-check (``AvailabilityRecheck``) is due at
    /// `now`, each claimed for ``AvailabilityRecheck/claim`` so that no other pass or instance
    /// asks about it meanwhile.
    func availabilityRechecksDue(now: Int64, limit: Int) async throws -> [String]
    /// Stores what the Data API said at `now` of whether `states`' videos can be watched: a
    /// changed state or scheduled start gets a fresh `seq`, so clients receive the row again,
    /// and the video's next re-check is scheduled by ``AvailabilityRecheck``. Videos the hub does
    /// not keep are ignored. Returns how many videos changed.
    func recordAvailability(_ states: [String: LiveStreamingState], now: Int64) async throws -> Int
    /// Up to `limit` channels to look up, newest registrations first: never looked up, looked up
    /// without a thumbnail before `retryBefore`, or looked up before `refreshBefore`. Where
    /// several instances share the storage, a channel one of them is looking up is left out for
    /// the others.
    func channelsToEnrich(retryBefore: Int64, refreshBefore: Int64, limit: Int) async throws -> [String]
    /// Records a lookup of `checked` at `now` and stores the titles and thumbnails found.
    func recordChannelLookup(checked: [String], details: [String: YouTubeChannelDetails], now: Int64) async throws
    /// Spends `units` of `day`'s budget of `dailyUnits`; false (nothing spent) when that would
    /// pass the budget or the API said the quota is exceeded that day. Usage of days before
    /// `forgetBefore` is dropped. Every instance sharing the storage spends from the one budget.
    func spend(units: Int, day: String, dailyUnits: Int, forgetBefore: String) async throws -> Bool
    /// Marks `day`'s quota as spent: the API answered `quotaExceeded`.
    func markQuotaExceeded(day: String) async throws
    /// The units spent on `day`, and whether the API said its quota is exceeded.
    func quotaUsage(day: String) async throws -> (used: Int, exceeded: Bool)
}

/// The ``EnrichmentRepository`` in the server's SQLite database.
struct SQLiteEnrichmentRepository: EnrichmentRepository {
    let database: ServerDatabase

    // MARK: Videos

    func videosToEnrich(recheckBefore: Int64, maxAttempts: Int, limit: Int) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: """
                SELECT v.video_id FROM hub_videos v LEFT JOIN youtube_video_checks c ON c.video_id = v.video_id
                WHERE v.duration_seconds IS NULL AND (c.video_id IS NULL OR (c.checked_at <= ? AND c.attempts < ?))
                ORDER BY v.seq DESC LIMIT ?
                """, arguments: [recheckBefore, maxAttempts, limit])
        }
    }

    func recordVideoLookup(checked: [String], durations: [String: Int], now: Int64) async throws -> Int {
        try await database.write { db in
            let check = try db.cachedStatement(sql: """
                INSERT INTO youtube_video_checks (video_id, checked_at, attempts) VALUES (?, ?, 1)
                ON CONFLICT (video_id) DO UPDATE SET checked_at = excluded.checked_at, attempts = attempts + 1
                """)
            for id in checked { try check.execute(arguments: [id, now]) }
            var changed = 0
            for (id, seconds) in durations.sorted(by: { $0.key < $1.key }) {
                let known = try Row.fetchOne(db, sql: "SELECT duration_seconds FROM hub_videos WHERE video_id = ?", arguments: [id])
                guard let known, (known[0] as Int?) != seconds else { continue }
                let seq = try Int64.fetchOne(db, sql: "UPDATE hub_counters SET value = value + 1 WHERE name = 'last_seq' RETURNING value") ?? 0
                try db.execute(sql: "UPDATE hub_videos SET duration_seconds = ?, seq = ? WHERE video_id = ?", arguments: [seconds, seq, id])
                changed += 1
            }
            return changed
        }
    }

    func forgetRemovedVideos() async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM youtube_video_checks WHERE video_id NOT IN (SELECT video_id FROM hub_videos)")
            try db.execute(sql: "DELETE FROM youtube_availability_rechecks WHERE video_id NOT IN (SELECT video_id FROM hub_videos)")
        }
    }

    // MARK: Channels

    func channelsToEnrich(retryBefore: Int64, refreshBefore: Int64, limit: Int) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: """
                SELECT c.channel_id FROM hub_channels c LEFT JOIN youtube_channel_checks k ON k.channel_id = c.channel_id
                WHERE k.channel_id IS NULL OR k.checked_at <= ? OR (c.thumbnail_url IS NULL AND k.checked_at <= ?)
                ORDER BY c.registered_at DESC, c.channel_id LIMIT ?
                """, arguments: [refreshBefore, retryBefore, limit])
        }
    }

    func recordChannelLookup(checked: [String], details: [String: YouTubeChannelDetails], now: Int64) async throws {
        try await database.write { db in
            let check = try db.cachedStatement(sql: """
                INSERT INTO youtube_channel_checks (channel_id, checked_at)
                SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM hub_channels WHERE channel_id = ?1)
                ON CONFLICT (channel_id) DO UPDATE SET checked_at = excluded.checked_at
                """)
            for id in checked { try check.execute(arguments: [id, now]) }
            let update = try db.cachedStatement(sql: """
                UPDATE hub_channels SET title = coalesce(?, title), thumbnail_url = coalesce(?, thumbnail_url) WHERE channel_id = ?
                """)
            for (id, found) in details { try update.execute(arguments: [found.title, found.thumbnailURL, id]) }
        }
    }

    // MARK: Quota

    func spend(units: Int, day: String, dailyUnits: Int, forgetBefore: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO youtube_quota (day, used, exhausted) VALUES (?, 0, 0) ON CONFLICT (day) DO NOTHING", arguments: [day])
            try db.execute(
                sql: "UPDATE youtube_quota SET used = used + ?1 WHERE day = ?2 AND exhausted = 0 AND used + ?1 <= ?3",
                arguments: [units, day, dailyUnits])
            let spent = db.changesCount > 0
            try db.execute(sql: "DELETE FROM youtube_quota WHERE day < ?", arguments: [forgetBefore])
            return spent
        }
    }

    func markQuotaExceeded(day: String) async throws {
        try await database.write { db in
            try db.execute(sql: """
                INSERT INTO youtube_quota (day, used, exhausted) VALUES (?, 0, 1) ON CONFLICT (day) DO UPDATE SET exhausted = 1
                """, arguments: [day])
        }
    }

    func quotaUsage(day: String) async throws -> (used: Int, exceeded: Bool) {
        try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT used, exhausted FROM youtube_quota WHERE day = ?", arguments: [day])
            let used: Int = row?[0] ?? 0
            let exceeded: Bool = row?[1] ?? false
            return (used, exceeded)
        }
    }
}
