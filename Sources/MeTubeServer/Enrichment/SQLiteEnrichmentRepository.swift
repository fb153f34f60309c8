import Foundation
import GRDB
import MeTubeYouTube

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
            let stored = try db.cachedStatement(sql: "SELECT duration_seconds FROM hub_videos WHERE video_id = ?")
            var known: [String: Int?] = [:]
            for id in durations.keys {
                if let row = try Row.fetchOne(stored, arguments: [id]) { known.updateValue(row["duration_seconds"], forKey: id) }
            }
            let plan = VideoDurationPlan(durations, stored: known)
            let update = try db.cachedStatement(sql: "UPDATE hub_videos SET duration_seconds = ?, seq = ? WHERE video_id = ?")
            for (seq, change) in try FreshSeqs.take(for: plan.resequenced, db) {
                try update.execute(arguments: [change.seconds, seq, change.videoID])
            }
            return plan.resequenced.count
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
            let used: Int = row?["used"] ?? 0
            let exceeded: Bool = row?["exhausted"] ?? false
            return (used, exceeded)
        }
    }
}
