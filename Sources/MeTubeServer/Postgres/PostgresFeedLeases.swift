import Foundation
import PostgresNIO

/// Shares feed polling among the server instances on one PostgreSQL database: before a round,
/// an instance leases the channels it will fetch, and another instance's round skips them.
///
/// A lease is a row of `hub_feed_leases` whose `due_at` lies in the future. Claiming runs
/// `SELECT … FOR UPDATE SKIP LOCKED` over the channels (so instances claiming at once do not wait
/// for each other) and an upsert that only takes a channel whose lease has run out (PostgreSQL
/// checks that condition against the newest committed lease, so two instances never both win
/// one). A lease lasts ``leaseFraction`` of the poll interval: each due channel is fetched by one
/// instance per interval, and the channels of an instance that dies (even by SIGKILL) come due
/// again within that time and are taken by the next round of any other instance.
///
/// With WebSub on (`pushedPollInterval`), a channel whose WebSub lease is live is leased for the
/// longer pushed interval instead (marked `pushed`): its uploads are pushed, and one instance
/// polls it as the fallback once per pushed interval, as ``WebSubPollSchedule`` does for one
/// process. Should its WebSub lease lapse, such a channel is due again at once.
public struct PostgresFeedLeases: FeedPollSchedule {
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

    /// Leases those of `channelIDs` that no instance holds a current lease on, and returns them
    /// in the given order. When the database cannot be reached it returns none: a round without
    /// leases would fetch what other instances fetch.
    public func channelsToPoll(_ channelIDs: [String]) async -> [String] {
        guard !channelIDs.isEmpty else { return [] }
        let nowMillis = Int64(now().timeIntervalSince1970 * 1000)
        let dueMillis = nowMillis + leaseMillis
        let pushes = pushedLeaseMillis != nil
        let pushedDueMillis = nowMillis + (pushedLeaseMillis ?? leaseMillis)
        do {
            let rows = try await database.query("""
                WITH candidates AS (
                    SELECT c.channel_id, \(pushes) AND coalesce(s.lease_expires_at, 0) > \(nowMillis) AS pushed FROM hub_channels c
                    LEFT JOIN hub_feed_leases l ON l.channel_id = c.channel_id
                    LEFT JOIN websub_subscriptions s ON s.channel_id = c.channel_id
                    WHERE c.channel_id = ANY(\(channelIDs)::text[])
                        AND (l.due_at IS NULL OR l.due_at <= \(nowMillis) OR (l.pushed AND coalesce(s.lease_expires_at, 0) <= \(nowMillis)))
                    FOR UPDATE OF c SKIP LOCKED
                )
                INSERT INTO hub_feed_leases (channel_id, holder, due_at, pushed)
                SELECT channel_id, \(holder), CASE WHEN pushed THEN \(pushedDueMillis) ELSE \(dueMillis) END, pushed FROM candidates
                ON CONFLICT (channel_id) DO UPDATE SET holder = excluded.holder, due_at = excluded.due_at, pushed = excluded.pushed
                WHERE hub_feed_leases.due_at <= \(nowMillis) OR (hub_feed_leases.pushed AND NOT excluded.pushed)
                RETURNING channel_id
                """)
            let leased = Set(try rows.map { try $0.decode(String.self) })
            return channelIDs.filter(leased.contains)
        } catch {
            database.logger.error("cannot lease feeds to poll", metadata: ["error": "\(error)"])
            return []
        }
    }
}
