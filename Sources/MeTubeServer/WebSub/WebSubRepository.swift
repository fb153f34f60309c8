import Foundation
import GRDB

/// One channel's WebSub subscription as stored.
struct WebSubSubscription: Sendable, Equatable {
    /// Where the subscription stands.
    enum State: String, Sendable {
        /// A subscribe request was accepted by the hub and waits for its verification of intent.
        case requested
        /// The hub verified a subscription; it is live until `leaseExpiresAt`.
        case active
        /// The hub refused the subscription (`hub.mode=denied`).
        case denied
        /// The last subscribe request failed (network, hub status).
        case failing
    }

    /// The channel.
    var channelID: String
    /// The HMAC key the hub signs this channel's notifications with.
    var secret: Data
    /// Where it stands.
    var state: State
    /// When the subscribe request waiting for verification was accepted (ms since 1970).
    var requestedAt: Int64?
    /// When the verified lease ends (ms since 1970).
    var leaseExpiresAt: Int64?
    /// Subscribe requests that failed in a row.
    var failures: Int
}

/// A channel whose subscription is due: never subscribed, to renew, or to try again.
struct DueSubscription: Sendable, Equatable {
    var channelID: String
    /// The stored secret, nil when the channel was never subscribed.
    var secret: Data?
    var failures: Int
    /// Whether a verified lease is still live (its state stays `active` while it is renewed).
    var leaseIsLive: Bool
    /// Whether the last request was never verified: the hub never called back in time.
    var wasNeverVerified: Bool
}

/// Where the WebSub subscriptions are kept, and the deletions WebSub announces are made: the
/// server's SQLite database (``SQLiteWebSubRepository``) or its PostgreSQL database
/// (``PostgresWebSubRepository``), which every instance shares. Times are milliseconds since 1970.
protocol WebSubRepository: Sendable {
    /// Up to `limit` registered channels whose subscription is due at `now`, those never
    /// subscribed and the longest overdue first. Where several instances share the storage, each
    /// due channel goes to one of them.
    func dueSubscriptions(now: Int64, limit: Int) async throws -> [DueSubscription]
    /// When the next subscription falls due: 0 when a channel was never subscribed, nil when
    /// there are no channels.
    func nextDueTime() async throws -> Int64?
    /// Records a subscribe request for `channelID` sent at `now` after `failures` failed or
    /// unverified ones: it waits for verification until `retryAt`, when it is sent again. A new
    /// subscription stores `secret`; a known one keeps its stored secret. A live lease stays
    /// `active`. Returns the secret the request must carry (the stored one), nil when the
    /// channel is no longer registered.
    func recordRequested(channelID: String, secret: Data, now: Int64, retryAt: Int64, failures: Int) async throws -> Data?
    /// Records a failed subscribe request for `channelID`: no verification is awaited, and it is
    /// tried again at `retryAt`. A live lease stays `active`.
    func recordFailure(channelID: String, secret: Data, now: Int64, retryAt: Int64) async throws
    /// The stored subscription of `channelID`, if any.
    func subscription(channelID: String) async throws -> WebSubSubscription?
    /// Confirms the subscribe request of `channelID` if one was accepted at or after
    /// `requestedSince`: the lease of `leaseSeconds` runs from `now`, and the subscription is
    /// renewed at `renewAt`. Returns whether a request was waiting.
    func confirm(channelID: String, requestedSince: Int64, leaseSeconds: Int, now: Int64, renewAt: Int64) async throws -> Bool
    /// Records the hub's refusal of `channelID`'s subscription; it is asked again at `retryAt`.
    /// Returns whether the channel had a subscription.
    func deny(channelID: String, retryAt: Int64) async throws -> Bool
    /// The channels whose verified lease is live at `now`.
    func liveChannelIDs(now: Int64) async throws -> Set<String>
    /// Marks the stored videos `videoIDs` of `channelID` gone, each with a new `seq`, so clients
    /// that synced them learn it (those of other channels, unknown ones and ones already gone are
    /// left alone); returns how many were marked.
    func markVideosGone(_ videoIDs: [String], of channelID: String) async throws -> Int
    /// Records, for each video, the time a push says it last changed (its `updated`, or a
    /// deletion's `when`), where that is no older than the time recorded before; returns the
    /// videos it was recorded for, whose push may be applied. One statement, so of two racing
    /// pushes of one video, the older loses.
    func claimPushedUpdates(_ updates: [String: Int64]) async throws -> Set<String>
}

extension WebSubRepository {
    /// Records a first subscribe request for `channelID`, after no failures.
    @discardableResult
    func recordRequested(channelID: String, secret: Data, now: Int64, retryAt: Int64) async throws -> Data? {
        try await recordRequested(channelID: channelID, secret: secret, now: now, retryAt: retryAt, failures: 0)
    }
}

/// The WebSub subscriptions in the server's SQLite database, and the deletions WebSub announces.
struct SQLiteWebSubRepository: WebSubRepository {
    let database: ServerDatabase

    func dueSubscriptions(now: Int64, limit: Int) async throws -> [DueSubscription] {
        try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.channel_id, s.secret, coalesce(s.failures, 0), coalesce(s.lease_expires_at, 0) > ?1, s.requested_at IS NOT NULL
                FROM hub_channels c LEFT JOIN websub_subscriptions s ON s.channel_id = c.channel_id
                WHERE s.channel_id IS NULL OR s.next_attempt_at <= ?1
                ORDER BY coalesce(s.next_attempt_at, 0), c.channel_id LIMIT ?2
                """, arguments: [now, limit]
            ).map { row in DueSubscription(channelID: row[0], secret: row[1], failures: row[2], leaseIsLive: row[3], wasNeverVerified: row[4]) }
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
                    channelID: channelID, secret: row[0], state: WebSubSubscription.State(rawValue: row[1]) ?? .failing,
                    requestedAt: row[2], leaseExpiresAt: row[3], failures: row[4])
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
            var marked = 0
            let stored = try db.cachedStatement(sql: "SELECT 1 FROM hub_videos WHERE video_id = ? AND channel_id = ? AND availability IS NOT 'gone'")
            for id in Set(videoIDs) where try Bool.fetchOne(stored, arguments: [id, channelID]) != nil {
                let seq = try Int64.fetchOne(db, sql: "UPDATE hub_counters SET value = value + 1 WHERE name = 'last_seq' RETURNING value") ?? 0
                try db.execute(sql: "UPDATE hub_videos SET seq = ?, availability = 'gone', scheduled_start = NULL WHERE video_id = ?", arguments: [seq, id])
                marked += 1
            }
            return marked
        }
    }
}
