import Foundation
import PostgresNIO

/// Shares feed polling among the server instances on one PostgreSQL database: an instance
/// leases the channels it fetches a few at a time, as its fetches finish, and the others' claims
/// pass over them, so instances polling at once split a round between them.
///
/// A lease is a row of `hub_feed_leases` whose `due_at` lies in the future. A claim picks the
/// first offered channels without a current lease with `SELECT … FOR UPDATE SKIP LOCKED` (so
/// instances claiming at once neither wait for each other nor pick the same channels) and leases
/// them with an upsert that only takes a channel whose lease has run out (PostgreSQL checks that
/// condition against the newest committed lease, so two instances never both win one). A lease
/// lasts ``leaseFraction`` of the poll interval: each due channel is fetched by one instance per
/// interval, and the channels of an instance that dies (even by SIGKILL) come due again within
/// that time and are claimed by the next round of any other instance.
///
/// With WebSub on (`pushedPollInterval`), a channel whose WebSub lease is live is leased for the
/// longer pushed interval instead (marked `pushed`): its uploads are pushed, and one instance
/// polls it as the fallback once per pushed interval, as ``WebSubPollSchedule`` does for one
/// process. Should its WebSub lease lapse, such a channel is due again at once.
public struct PostgresFeedLeases: FeedPollLeases {
    /// The share of the poll interval a lease lasts: a little less than one interval, so the
    /// instance that holds it finds the channel due again at its own next round.
    public static let leaseFraction = 0.9

    private let database: PostgresServerDatabase
    private let holder: String
    private let leaseMillis: Int64
    /// How long a pushed channel's lease lasts; nil without WebSub.
    private let pushedLeaseMillis: Int64?
    private let now: @Sendable () -> Date

    /// Leases for the channels of `database`, each for ``leaseFraction`` of `pollInterval`, or
    /// for `pushedPollInterval` when given and the channel's WebSub lease is live; `holder` names
    /// this instance in the lease rows; `now` is the clock (tests move it).
    public init(
        database: PostgresServerDatabase, pollInterval: Duration, pushedPollInterval: Duration? = nil, holder: String = UUID().uuidString,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.database = database
        self.holder = holder
        leaseMillis = max(1, Int64(Double(pollInterval.wholeMilliseconds) * Self.leaseFraction))
        pushedLeaseMillis = pushedPollInterval.map { max(1, $0.wholeMilliseconds) }
        self.now = now
    }

    /// Leases up to `limit` of the leading channels of `channelIDs` that no instance holds a
    /// current lease on. The channels offered up to the last one the statement locked are
    /// settled (all of them when it locked fewer than `limit`): each was leased here, is leased to
    /// or being claimed by another instance (whose lock it skipped), or is no longer registered.
    /// When the database cannot be reached it returns nil: fetching without a lease would fetch
    /// what other instances fetch.
    public func claim(from channelIDs: [String], limit: Int) async -> FeedClaim? {
        guard !channelIDs.isEmpty, limit > 0 else { return FeedClaim(channelIDs: [], settled: 0) }
        let nowMillis = Int64(now().timeIntervalSince1970 * 1000)
        let dueMillis = nowMillis + leaseMillis
        let pushes = pushedLeaseMillis != nil
        let pushedDueMillis = nowMillis + (pushedLeaseMillis ?? leaseMillis)
        do {
            let rows = try await database.query("""
                WITH candidates AS (
                    SELECT c.channel_id, offered.ord, \(pushes) AND coalesce(s.lease_expires_at, 0) > \(nowMillis) AS pushed
                    FROM unnest(\(channelIDs)::text[]) WITH ORDINALITY AS offered(channel_id, ord)
                    JOIN hub_channels c ON c.channel_id = offered.channel_id
                    LEFT JOIN hub_feed_leases l ON l.channel_id = c.channel_id
                    LEFT JOIN websub_subscriptions s ON s.channel_id = c.channel_id
                    WHERE l.due_at IS NULL OR l.due_at <= \(nowMillis) OR (l.pushed AND coalesce(s.lease_expires_at, 0) <= \(nowMillis))
                    ORDER BY offered.ord LIMIT \(limit)
                    FOR UPDATE OF c SKIP LOCKED
                ), leased AS (
                    INSERT INTO hub_feed_leases (channel_id, holder, due_at, pushed)
                    SELECT channel_id, \(holder), CASE WHEN pushed THEN \(pushedDueMillis) ELSE \(dueMillis) END, pushed FROM candidates
                    ON CONFLICT (channel_id) DO UPDATE SET holder = excluded.holder, due_at = excluded.due_at, pushed = excluded.pushed
                    WHERE hub_feed_leases.due_at <= \(nowMillis) OR (hub_feed_leases.pushed AND NOT excluded.pushed)
                    RETURNING channel_id
                )
                SELECT coalesce((SELECT array_agg(channel_id) FROM leased), '{}'), (SELECT count(*) FROM candidates),
                    (SELECT coalesce(max(ord), 0) FROM candidates)
                """)
            guard let row = rows.first else { return nil }
            let (ids, locked, lastLocked) = try row.decode(([String], Int64, Int64).self)
            let leased = Set(ids)
            let settled = locked < Int64(limit) ? channelIDs.count : min(channelIDs.count, Int(lastLocked))
            return FeedClaim(channelIDs: channelIDs.filter(leased.contains), settled: settled)
        } catch {
            database.logger.error("cannot lease feeds to poll", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
