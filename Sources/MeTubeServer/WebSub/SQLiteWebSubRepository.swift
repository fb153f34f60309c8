import Foundation
import GRDB

/// The WebSub subscriptions in the server's SQLite database, and the deletions WebSub announces.
struct SQLiteWebSubRepository: WebSubRepository {
    let database: ServerDatabase

    func dueSubscriptions(now: Int64, limit: Int) async throws -> [DueSubscription] {
        try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.channel_id, s.secret, coalesce(s.failures, 0) AS failures, coalesce(s.lease_expires_at, 0) > ?1 AS lease_is_live,
                    s.requested_at IS NOT NULL AS was_never_verified
                FROM hub_channels c LEFT JOIN websub_subscriptions s ON s.channel_id = c.channel_id
                WHERE s.channel_id IS NULL OR s.next_attempt_at <= ?1
                ORDER BY coalesce(s.next_attempt_at, 0), c.channel_id LIMIT ?2
                """, arguments: [now, limit]
            ).map { row in
                DueSubscription(
                    channelID: row["channel_id"], secret: row["secret"], failures: row["failures"], leaseIsLive: row["lease_is_live"],
                    wasNeverVerified: row["was_never_verified"])
            }
        }
    }

    func nextDueTime() async throws -> Int64? {
        try await database.read { db in
            try Int64.fetchOne(db, sql: """
                SELECT min(coalesce(s.next_attempt_at, 0))
                FROM hub_channels c LEFT JOIN websub_subscriptions s ON s.channel_id = c.channel_id
                """)
        }
    }

    func recordRequested(channelID: String, secret: Data, now: Int64, retryAt: Int64, failures: Int) async throws -> Data? {
        try await database.write { db in
            try Data.fetchOne(db, sql: """
                INSERT INTO websub_subscriptions (channel_id, secret, state, requested_at, failures, next_attempt_at)
                SELECT ?1, ?2, 'requested', ?3, ?5, ?4 WHERE EXISTS (SELECT 1 FROM hub_channels WHERE channel_id = ?1)
                ON CONFLICT (channel_id) DO UPDATE SET
                    state = CASE WHEN coalesce(lease_expires_at, 0) > ?3 THEN 'active' ELSE 'requested' END,
                    requested_at = ?3, failures = ?5, next_attempt_at = ?4
                RETURNING secret
                """, arguments: [channelID, secret, now, retryAt, failures])
        }
    }

    func recordFailure(channelID: String, secret: Data, now: Int64, retryAt: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: """
                INSERT INTO websub_subscriptions (channel_id, secret, state, failures, next_attempt_at)
                SELECT ?1, ?2, 'failing', 1, ?4 WHERE EXISTS (SELECT 1 FROM hub_channels WHERE channel_id = ?1)
                ON CONFLICT (channel_id) DO UPDATE SET
                    state = CASE WHEN coalesce(lease_expires_at, 0) > ?3 THEN 'active' ELSE 'failing' END,
                    requested_at = NULL, failures = failures + 1, next_attempt_at = ?4
                """, arguments: [channelID, secret, now, retryAt])
        }
    }

    func subscription(channelID: String) async throws -> WebSubSubscription? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT secret, state, requested_at, lease_expires_at, failures FROM websub_subscriptions WHERE channel_id = ?",
                arguments: [channelID]
            ).map { row in
                WebSubSubscription(
                    channelID: channelID, secret: row["secret"], state: WebSubSubscription.State(rawValue: row["state"]) ?? .failing,
                    requestedAt: row["requested_at"], leaseExpiresAt: row["lease_expires_at"], failures: row["failures"])
            }
        }
    }

    func confirm(channelID: String, requestedSince: Int64, leaseSeconds: Int, now: Int64, renewAt: Int64) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: """
                UPDATE websub_subscriptions SET state = 'active', requested_at = NULL, lease_seconds = ?, lease_expires_at = ?,
                    failures = 0, next_attempt_at = ?
                WHERE channel_id = ? AND requested_at IS NOT NULL AND requested_at >= ?
                """, arguments: [leaseSeconds, now + Int64(leaseSeconds) * 1000, renewAt, channelID, requestedSince])
            return db.changesCount > 0
        }
    }

    func deny(channelID: String, retryAt: Int64) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: """
                UPDATE websub_subscriptions SET state = 'denied', requested_at = NULL, lease_expires_at = NULL, next_attempt_at = ?
                WHERE channel_id = ?
                """, arguments: [retryAt, channelID])
            return db.changesCount > 0
        }
    }

    func liveChannelIDs(now: Int64) async throws -> Set<String> {
        try await database.read { db in
            Set(try String.fetchAll(db, sql: "SELECT channel_id FROM websub_subscriptions WHERE lease_expires_at > ?", arguments: [now]))
        }
    }

    func claimPushedUpdates(_ updates: [String: Int64]) async throws -> Set<String> {
        guard !updates.isEmpty else { return [] }
        return try await database.write { db in
            var claimed: Set<String> = []
            let statement = try db.cachedStatement(sql: """
                INSERT INTO websub_video_updates (video_id, updated_at) VALUES (?1, ?2)
                ON CONFLICT (video_id) DO UPDATE SET updated_at = excluded.updated_at WHERE updated_at <= excluded.updated_at
                RETURNING video_id
                """)
            for (videoID, updatedAt) in updates {
                if let id = try String.fetchOne(statement, arguments: [videoID, updatedAt]) { claimed.insert(id) }
            }
            return claimed
        }
    }

    func markVideosGone(_ videoIDs: [String], of channelID: String) async throws -> Int {
        guard !videoIDs.isEmpty else { return 0 }
        return try await database.write { db in
            let read = try db.cachedStatement(sql: "SELECT channel_id, availability FROM hub_videos WHERE video_id = ?")
            var stored: [String: DeletedEntriesPlan.Stored] = [:]
            for id in Set(videoIDs) {
                guard let row = try Row.fetchOne(read, arguments: [id]) else { continue }
                stored[id] = DeletedEntriesPlan.Stored(channelID: row["channel_id"], availability: row["availability"])
            }
            let plan = DeletedEntriesPlan(videoIDs, of: channelID, stored: stored)
            let update = try db.cachedStatement(sql: "UPDATE hub_videos SET seq = ?, availability = 'gone', scheduled_start = NULL WHERE video_id = ?")
            for (seq, id) in try FreshSeqs.take(for: plan.resequenced, db) {
                try update.execute(arguments: [seq, id])
            }
            return plan.resequenced.count
        }
    }
}
