import Foundation
import MeTubeYouTube
import PostgresNIO

/// An ``EnrichmentRepository`` in PostgreSQL, shared by every server instance on the database.
///
/// **One budget.** The units spent per UTC day are one row of `youtube_quota`, spent by a single
/// conditional upsert: PostgreSQL applies concurrent spends to that row one after another and
/// checks the budget against the newest count, so the instances together never pass
/// `--youtube-daily-units`, and a `quotaExceeded` answer seen by one pauses all of them.
///
/// **One lookup per video.** ``videosToEnrich(recheckBefore:maxAttempts:limit:)`` and
/// ``channelsToEnrich(retryBefore:refreshBefore:limit:)`` claim what they return in
/// `youtube_claims` for ``claimDuration`` (longer than one API call may take), as
/// ``PostgresWebSubRepository`` claims subscriptions, so no unit is spent twice on one video or
/// channel. An instance's own claims never hold it back; another instance's run out when the
/// instance dies. Durations re-sequence their videos under the `seq` counter's row lock, taken
/// before the stored durations are read (``FreshSeqs``), as ``PostgresHubRepository`` ingests, so
/// readers paging by `seq` never miss them.
struct PostgresEnrichmentRepository: EnrichmentRepository {
    /// How long a claimed lookup is left to the instance that claimed it.
    static let claimDuration: Duration = .seconds(300)

    let database: PostgresServerDatabase
    private let holder: String

    /// The enrichment tables of `database`; `holder` names this instance in the claims.
    init(database: PostgresServerDatabase, holder: String = UUID().uuidString) {
        self.database = database
        self.holder = holder
    }

    // MARK: Videos

    func videosToEnrich(recheckBefore: Int64, maxAttempts: Int, limit: Int) async throws -> [String] {
        let (now, due) = Self.claimTimes()
        return try await database.query("""
            WITH candidates AS (
                SELECT v.video_id, v.seq FROM hub_videos v
                LEFT JOIN youtube_video_checks c ON c.video_id = v.video_id
                LEFT JOIN youtube_claims k ON k.kind = 'video' AND k.item = v.video_id
                WHERE v.duration_seconds IS NULL AND (c.video_id IS NULL OR (c.checked_at <= \(recheckBefore) AND c.attempts < \(maxAttempts)))
                    AND (k.item IS NULL OR k.due_at <= \(now) OR k.holder = \(holder))
                ORDER BY v.seq DESC LIMIT \(limit)
                FOR UPDATE OF v SKIP LOCKED
            ), claimed AS (
                INSERT INTO youtube_claims (kind, item, holder, due_at) SELECT 'video', video_id, \(holder), \(due) FROM candidates
                ON CONFLICT (kind, item) DO UPDATE SET holder = excluded.holder, due_at = excluded.due_at
                WHERE youtube_claims.due_at <= \(now) OR youtube_claims.holder = excluded.holder
                RETURNING item
            )
            SELECT c.video_id FROM candidates c JOIN claimed k ON k.item = c.video_id ORDER BY c.seq DESC
            """).map { try $0.decode(String.self) }
    }

    func recordVideoLookup(checked: [String], durations: [String: Int], now: Int64) async throws -> Int {
        let logger = database.logger
        return try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                try await connection.query("""
                    INSERT INTO youtube_video_checks (video_id, checked_at, attempts) SELECT DISTINCT id, \(now), 1 FROM unnest(\(checked)::text[]) AS id
                    ON CONFLICT (video_id) DO UPDATE SET checked_at = excluded.checked_at, attempts = youtube_video_checks.attempts + 1
                    """, logger: logger)
                guard !durations.isEmpty else { return 0 }
                try await FreshSeqs.lock(connection, logger)
                var known: [String: Int?] = [:]
                let ids = Array(durations.keys)
                for try await (id, seconds) in try await connection.query(
                    "SELECT video_id, duration_seconds FROM hub_videos WHERE video_id = ANY(\(ids)::text[])", logger: logger
                ).decode((String, Int?).self) {
                    known.updateValue(seconds, forKey: id)
                }
                let changes = try await FreshSeqs.take(for: VideoDurationPlan(durations, stored: known).resequenced, connection, logger)
                guard !changes.isEmpty else { return 0 }
                try await connection.query("""
                    UPDATE hub_videos SET duration_seconds = u.seconds, seq = u.seq
                    FROM unnest(\(changes.map(\.change.videoID))::text[], \(changes.map { Int64($0.change.seconds) })::bigint[],
                        \(changes.map(\.seq))::bigint[]) AS u(video_id, seconds, seq)
                    WHERE hub_videos.video_id = u.video_id
                    """, logger: logger)
                return changes.count
            }
        }
    }

    /// Also drops the claims that ran out.
    func forgetRemovedVideos() async throws {
        let (now, _) = Self.claimTimes()
        try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                try await connection.query("""
                    DELETE FROM youtube_video_checks c WHERE NOT EXISTS (SELECT 1 FROM hub_videos v WHERE v.video_id = c.video_id)
                    """, logger: database.logger)
                try await connection.query("""
                    DELETE FROM youtube_availability_rechecks r WHERE NOT EXISTS (SELECT 1 FROM hub_videos v WHERE v.video_id = r.video_id)
                    """, logger: database.logger)
                try await connection.query("DELETE FROM youtube_claims WHERE due_at <= \(now)", logger: database.logger)
            }
        }
    }

    // MARK: Channels

    func channelsToEnrich(retryBefore: Int64, refreshBefore: Int64, limit: Int) async throws -> [String] {
        let (now, due) = Self.claimTimes()
        return try await database.query("""
            WITH candidates AS (
                SELECT c.channel_id, c.registered_at FROM hub_channels c
                LEFT JOIN youtube_channel_checks h ON h.channel_id = c.channel_id
                LEFT JOIN youtube_claims k ON k.kind = 'channel' AND k.item = c.channel_id
                WHERE (h.channel_id IS NULL OR h.checked_at <= \(refreshBefore) OR (c.thumbnail_url IS NULL AND h.checked_at <= \(retryBefore)))
                    AND (k.item IS NULL OR k.due_at <= \(now) OR k.holder = \(holder))
                ORDER BY c.registered_at DESC, c.channel_id LIMIT \(limit)
                FOR UPDATE OF c SKIP LOCKED
            ), claimed AS (
                INSERT INTO youtube_claims (kind, item, holder, due_at) SELECT 'channel', channel_id, \(holder), \(due) FROM candidates
                ON CONFLICT (kind, item) DO UPDATE SET holder = excluded.holder, due_at = excluded.due_at
                WHERE youtube_claims.due_at <= \(now) OR youtube_claims.holder = excluded.holder
                RETURNING item
            )
            SELECT c.channel_id FROM candidates c JOIN claimed k ON k.item = c.channel_id ORDER BY c.registered_at DESC, c.channel_id
            """).map { try $0.decode(String.self) }
    }

    func recordChannelLookup(checked: [String], details: [String: YouTubeChannelDetails], now: Int64) async throws {
        let logger = database.logger
        try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                try await connection.query("""
                    INSERT INTO youtube_channel_checks (channel_id, checked_at) SELECT channel_id, \(now) FROM hub_channels WHERE channel_id = ANY(\(checked)::text[])
                    ON CONFLICT (channel_id) DO UPDATE SET checked_at = excluded.checked_at
                    """, logger: logger)
                for (id, found) in details.sorted(by: { $0.key < $1.key }) {
                    try await connection.query("""
                        UPDATE hub_channels SET title = coalesce(\(found.title), title), thumbnail_url = coalesce(\(found.thumbnailURL), thumbnail_url)
                        WHERE channel_id = \(id)
                        """, logger: logger)
                }
            }
        }
    }

    // MARK: Quota

    func spend(units: Int, day: String, dailyUnits: Int, forgetBefore: String) async throws -> Bool {
        let logger = database.logger
        return try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                let spent = try await PostgresServerDatabase.single(Int64.self, connection.query("""
                    INSERT INTO youtube_quota (day, used, exhausted) SELECT \(day), \(units), false WHERE \(units) <= \(dailyUnits)
                    ON CONFLICT (day) DO UPDATE SET used = youtube_quota.used + excluded.used
                    WHERE NOT youtube_quota.exhausted AND youtube_quota.used + excluded.used <= \(dailyUnits)
                    RETURNING used
                    """, logger: logger)) != nil
                try await connection.query("DELETE FROM youtube_quota WHERE day < \(forgetBefore)", logger: logger)
                return spent
            }
        }
    }

    func markQuotaExceeded(day: String) async throws {
        _ = try await database.query("""
            INSERT INTO youtube_quota (day, used, exhausted) VALUES (\(day), 0, true) ON CONFLICT (day) DO UPDATE SET exhausted = true
            """)
    }

    func quotaUsage(day: String) async throws -> (used: Int, exceeded: Bool) {
        let row = try await database.query("SELECT used, exhausted FROM youtube_quota WHERE day = \(day)").first
        return try row.map { try $0.decode((Int, Bool).self) } ?? (0, false)
    }

    /// Now, and when a claim taken now runs out (ms since 1970).
    private static func claimTimes() -> (now: Int64, due: Int64) {
        let now = WebSubService.millisecondsNow()
        return (now, now + claimDuration.wholeMilliseconds)
    }
}
