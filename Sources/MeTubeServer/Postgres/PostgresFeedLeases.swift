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
public struct PostgresFeedLeases: FeedPollSchedule {
    /// The share of the poll interval a lease lasts: a little less than one interval, so the
    /// instance that holds it finds the channel due again at its own next round.
    public static let leaseFraction = 0.9

    private let database: PostgresServerDatabase
    private let holder: String
    private let leaseMillis: Int64
    private let now: @Sendable () -> Date

    /// Leases for the channels of `database`, each for ``leaseFraction`` of `pollInterval`;
    /// `holder` names this instance in the lease rows; `now` is the clock (tests move it).
    public init(
        database: PostgresServerDatabase, pollInterval: Duration, holder: String = UUID().uuidString,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.database = database
        self.holder = holder
        let millis = pollInterval.components.seconds * 1000 + pollInterval.components.attoseconds / 1_000_000_000_000_000
        leaseMillis = max(1, Int64(Double(millis) * Self.leaseFraction))
        self.now = now
    }

    /// Leases those of `channelIDs` that no instance holds a current lease on, and returns them
    /// in the given order. When the database cannot be reached it returns none: a round without
    /// leases would fetch what other instances fetch.
    public func channelsToPoll(_ channelIDs: [String]) async -> [String] {
        guard !channelIDs.isEmpty else { return [] }
        let nowMillis = Int64(now().timeIntervalSince1970 * 1000)
        let dueMillis = nowMillis + leaseMillis
        do {
            let rows = try await database.query("""
                WITH candidates AS (
                    SELECT c.channel_id FROM hub_channels c
                    LEFT JOIN hub_feed_leases l ON l.channel_id = c.channel_id
                    WHERE c.channel_id = ANY(\(channelIDs)::text[]) AND (l.due_at IS NULL OR l.due_at <= \(nowMillis))
                    FOR UPDATE OF c SKIP LOCKED
                )
                INSERT INTO hub_feed_leases (channel_id, holder, due_at) SELECT channel_id, \(holder), \(dueMillis) FROM candidates
                ON CONFLICT (channel_id) DO UPDATE SET holder = excluded.holder, due_at = excluded.due_at
                WHERE hub_feed_leases.due_at <= \(nowMillis)
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
