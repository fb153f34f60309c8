import Foundation
import PostgresNIO

/// A ``WebSubRepository`` in PostgreSQL, shared by every server instance on the database.
///
/// Each subscription's secret and pending request are rows here, so the hub's verification of
/// intent and its signed notifications may reach any instance (a reverse proxy spreads them):
/// that instance finds the request to confirm and the secret to check `X-Hub-Signature` with.
///
/// **Each due subscription is requested by one instance.** ``dueSubscriptions(now:limit:)``
/// claims the channels it returns in `websub_claims`, as ``PostgresFeedLeases`` leases feeds:
/// `SELECT … FOR UPDATE SKIP LOCKED` over the channels, then an upsert that only takes a channel
/// whose claim has run out or is this instance's own (PostgreSQL checks that condition against
/// the newest committed claim, so two instances never both win one). A claim lasts until the
/// request is recorded, at most longer than the subscriber takes to record its batch's requests
/// (``WebSubSubscriber/longestBatch(concurrency:)``); a recorded request is not due again before
/// its verification timeout. So a subscription, its renewal or its retry is sent by one instance.
/// The claims of an instance that dies run out and its channels go to the next instance that
/// looks. Should two instances still both ask (one stalled past its claim), they send the same
/// secret: the first one stored is kept and used.
struct PostgresWebSubRepository: WebSubRepository {
    private let database: PostgresServerDatabase
    private let holder: String
    private let claimMillis: Int64

    /// The subscriptions of `database`; `holder` names this instance in the claims, which last
    /// `claimDuration`.
    init(database: PostgresServerDatabase, holder: String = UUID().uuidString, claimDuration: Duration) {
        self.database = database
        self.holder = holder
        claimMillis = max(1, claimDuration.wholeMilliseconds)
    }

    func dueSubscriptions(now: Int64, limit: Int) async throws -> [DueSubscription] {
        try await database.query("""
            WITH candidates AS (
                SELECT c.channel_id FROM hub_channels c
                LEFT JOIN websub_subscriptions s ON s.channel_id = c.channel_id
                LEFT JOIN websub_claims k ON k.channel_id = c.channel_id
                WHERE (s.channel_id IS NULL OR s.next_attempt_at <= \(now))
                    AND (k.channel_id IS NULL OR k.due_at <= \(now) OR k.holder = \(holder))
                ORDER BY coalesce(s.next_attempt_at, 0), c.channel_id LIMIT \(limit)
                FOR UPDATE OF c SKIP LOCKED
            ), claimed AS (
                INSERT INTO websub_claims (channel_id, holder, due_at) SELECT channel_id, \(holder), \(now + claimMillis) FROM candidates
                ON CONFLICT (channel_id) DO UPDATE SET holder = excluded.holder, due_at = excluded.due_at
                WHERE websub_claims.due_at <= \(now) OR websub_claims.holder = excluded.holder
                RETURNING channel_id
            )
            SELECT k.channel_id, s.secret, coalesce(s.failures, 0), coalesce(s.lease_expires_at, 0) > \(now), s.requested_at IS NOT NULL
            FROM claimed k LEFT JOIN websub_subscriptions s ON s.channel_id = k.channel_id
            ORDER BY coalesce(s.next_attempt_at, 0), k.channel_id
            """).map { row in
            let (channelID, secret, failures, leaseIsLive, wasNeverVerified) = try row.decode((String, Data?, Int, Bool, Bool).self)
            return DueSubscription(channelID: channelID, secret: secret, failures: failures, leaseIsLive: leaseIsLive, wasNeverVerified: wasNeverVerified)
        }
    }

    /// Includes the claims of other instances: a channel another instance is subscribing is due
    /// here no earlier than its claim runs out.
    func nextDueTime() async throws -> Int64? {
        try await database.query("""
            SELECT min(greatest(coalesce(s.next_attempt_at, 0), CASE WHEN k.holder <> \(holder) THEN k.due_at ELSE 0 END))
            FROM hub_channels c LEFT JOIN websub_subscriptions s ON s.channel_id = c.channel_id
            LEFT JOIN websub_claims k ON k.channel_id = c.channel_id
            """).first?.decode(Int64?.self) ?? nil
    }

    /// Also keeps this instance's claim until `retryAt`, when the channel is next due anyway: not
    /// let go at once, because another instance's claiming statement may have read the channel as
    /// due before this was recorded, and only a live claim then stops it from sending the request
    /// again (`subscribersShareTheWork`).
    func recordRequested(channelID: String, secret: Data, now: Int64, retryAt: Int64, failures: Int) async throws -> Data? {
        try await database.query("""
            WITH held AS (UPDATE websub_claims SET due_at = \(retryAt) WHERE channel_id = \(channelID) AND holder = \(holder))
            INSERT INTO websub_subscriptions (channel_id, secret, state, requested_at, failures, next_attempt_at)
            SELECT channel_id, \(secret), 'requested', \(now), \(failures), \(retryAt) FROM hub_channels WHERE channel_id = \(channelID)
            ON CONFLICT (channel_id) DO UPDATE SET
                state = CASE WHEN coalesce(websub_subscriptions.lease_expires_at, 0) > \(now) THEN 'active' ELSE 'requested' END,
                requested_at = excluded.requested_at, failures = excluded.failures, next_attempt_at = excluded.next_attempt_at
            RETURNING secret
            """).first?.decode(Data.self)
    }

    /// Keeps this instance's claim until `retryAt`, as ``recordRequested(channelID:secret:now:retryAt:failures:)`` does.
    func recordFailure(channelID: String, secret: Data, now: Int64, retryAt: Int64) async throws {
        _ = try await database.query("""
            WITH held AS (UPDATE websub_claims SET due_at = \(retryAt) WHERE channel_id = \(channelID) AND holder = \(holder))
            INSERT INTO websub_subscriptions (channel_id, secret, state, failures, next_attempt_at)
            SELECT channel_id, \(secret), 'failing', 1, \(retryAt) FROM hub_channels WHERE channel_id = \(channelID)
            ON CONFLICT (channel_id) DO UPDATE SET
                state = CASE WHEN coalesce(websub_subscriptions.lease_expires_at, 0) > \(now) THEN 'active' ELSE 'failing' END,
                requested_at = NULL, failures = websub_subscriptions.failures + 1, next_attempt_at = excluded.next_attempt_at
            """)
    }

    func subscription(channelID: String) async throws -> WebSubSubscription? {
        try await database.query("""
            SELECT secret, state, requested_at, lease_expires_at, failures FROM websub_subscriptions WHERE channel_id = \(channelID)
            """).first.map { row in
            let (secret, state, requestedAt, leaseExpiresAt, failures) = try row.decode((Data, String, Int64?, Int64?, Int).self)
            return WebSubSubscription(
                channelID: channelID, secret: secret, state: WebSubSubscription.State(rawValue: state) ?? .failing,
                requestedAt: requestedAt, leaseExpiresAt: leaseExpiresAt, failures: failures)
        }
    }

    func confirm(channelID: String, requestedSince: Int64, leaseSeconds: Int, now: Int64, renewAt: Int64) async throws -> Bool {
        let confirmed = try await database.query("""
            UPDATE websub_subscriptions SET state = 'active', requested_at = NULL, lease_seconds = \(leaseSeconds),
                lease_expires_at = \(now + Int64(leaseSeconds) * 1000), failures = 0, next_attempt_at = \(renewAt)
            WHERE channel_id = \(channelID) AND requested_at IS NOT NULL AND requested_at >= \(requestedSince)
            RETURNING channel_id
            """)
        return !confirmed.isEmpty
    }

    func deny(channelID: String, retryAt: Int64) async throws -> Bool {
        let denied = try await database.query("""
            UPDATE websub_subscriptions SET state = 'denied', requested_at = NULL, lease_expires_at = NULL, next_attempt_at = \(retryAt)
            WHERE channel_id = \(channelID) RETURNING channel_id
            """)
        return !denied.isEmpty
    }

    func liveChannelIDs(now: Int64) async throws -> Set<String> {
        Set(try await database.query("SELECT channel_id FROM websub_subscriptions WHERE lease_expires_at > \(now)").map { try $0.decode(String.self) })
    }

    func claimPushedUpdates(_ updates: [String: Int64]) async throws -> Set<String> {
        guard !updates.isEmpty else { return [] }
        let videoIDs = Array(updates.keys)
        let times = videoIDs.map { updates[$0] ?? 0 }
        return Set(try await database.query("""
            INSERT INTO websub_video_updates (video_id, updated_at)
            SELECT * FROM unnest(\(videoIDs)::text[], \(times)::bigint[])
            ON CONFLICT (video_id) DO UPDATE SET updated_at = excluded.updated_at
            WHERE websub_video_updates.updated_at <= excluded.updated_at
            RETURNING video_id
            """).map { try $0.decode(String.self) })
    }

    func markVideosGone(_ videoIDs: [String], of channelID: String) async throws -> Int {
        guard !videoIDs.isEmpty else { return 0 }
        let logger = database.logger
        return try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                try await FreshSeqs.lock(connection, logger)
                var stored: [String: DeletedEntriesPlan.Stored] = [:]
                for try await (id, channel, availability) in try await connection.query(
                    "SELECT video_id, channel_id, availability FROM hub_videos WHERE video_id = ANY(\(videoIDs)::text[])", logger: logger
                ).decode((String, String, String?).self) {
                    stored[id] = DeletedEntriesPlan.Stored(channelID: channel, availability: availability)
                }
                let changes = try await FreshSeqs.take(for: DeletedEntriesPlan(videoIDs, of: channelID, stored: stored).resequenced, connection, logger)
                guard !changes.isEmpty else { return 0 }
                try await connection.query("""
                    UPDATE hub_videos SET seq = u.seq, availability = 'gone', scheduled_start = NULL
                    FROM unnest(\(changes.map(\.change))::text[], \(changes.map(\.seq))::bigint[]) AS u(video_id, seq)
                    WHERE hub_videos.video_id = u.video_id
                    """, logger: logger)
                return changes.count
            }
        }
    }
}
