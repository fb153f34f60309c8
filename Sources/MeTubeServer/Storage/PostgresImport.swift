import Foundation
import GRDB
import Logging
import PostgresNIO

/// Copies an SQLite hub and status database into an empty PostgreSQL database
/// (`metube-server migrate --from FILE --to URL`), keeping every `seq`, the `seq` counter, every
/// user with their id and token hash, every zone with its incarnation and history position, every
/// record with its sequence number and tombstones: clients synced against the SQLite server carry
/// on against PostgreSQL from the `afterSeq`, sync tokens and change tags they hold. The WebSub
/// subscriptions move with their secrets, pending requests and leases, so the hub's
/// notifications keep verifying and nothing is subscribed again before its time, with the time
/// each video was last pushed, so a replayed push stays stale; the YouTube Data API lookups, the
/// re-checks of upcoming and live videos and the units spent per day move too. The tables it
/// does not copy row by row are ``skippedTables``, each with the reason.
///
/// It runs in one PostgreSQL transaction, refuses a target that already holds channels or users,
/// and compares the row count of every table before it commits; any difference rolls it all back.
public enum PostgresImport {
    /// How many rows of each table were copied, by table name.
    public typealias Counts = [String: Int]

    /// The tables of either backend's schema that are not copied row by row, and why: every other
    /// table of either schema is copied (a test holds both schemas to this).
    static let skippedTables: [String: String] = [
        "hub_counters": "its last_seq is set from the SQLite file; videos_version counts PostgreSQL's own changes",
        "grdb_migrations": "SQLite's record of its schema steps",
        "metube_migrations": "PostgreSQL's record of its schema steps, written as the target is migrated",
        "hub_feed_leases": "PostgreSQL only: which instance polls a channel now; a new database has none",
        "websub_claims": "PostgreSQL only: which instance renews a subscription now; a new database has none",
        "youtube_claims": "PostgreSQL only: which instance runs a Data API lookup now; a new database has none",
        "hub_channel_catalog": "backfill and length progress: the new database asks once more for each channel, and the videos it already holds are kept",
        "hub_channel_links": "a cache of resolved links: the new database resolves each link once more when it is asked",
    ]

    /// Copies the SQLite database at `path` into the PostgreSQL database at `url`.
    public static func run(from path: String, to url: PostgresDatabaseURL, logger: Logger) async throws -> Counts {
        guard FileManager.default.fileExists(atPath: path) else { throw ServerError.storage(.missing(path: path)) }
        let source = try ServerDatabase(path: path)
        let data = try await source.read { db in try Snapshot(db) }
        let target = try await PostgresServerDatabase(url: url, poolSize: 1, logger: logger)
        do {
            return try await target.transaction(within: nil) { connection in try await data.copy(into: connection, logger: logger) }
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.storage(.failed("copying into \(url): \(PostgresServerDatabase.describe(error))"))
        }
    }

    /// Every row of the tables that move, read in one SQLite transaction.
    private struct Snapshot: Sendable {
        var lastSeq: Int64
        var channels: [(String, String?, String?, Int64, Int64?, Int64, String?)] = []
        var videos: [(Int64, String, String, Double, String, String, Int64?, String?, Double?, String?, String?, Int64?, Int64?, Bool)] = []
        var users: [(Int64, String, String, Int64?, Int64?)] = []
        var zones: [(Int64, Int64, String, String, String, Int64, Int64, Int64)] = []
        var records: [(Int64, String, String, Data, Int64, Int64, Int64, Bool)] = []
        var counters: [(Int64, String, String, Int64)] = []
        var deletions: [(Int64, String, String, String, Int64)] = []
        var subscriptions: [(String, Data, String, Int64?, Int64?, Int64?, Int64, Int64)] = []
        var pushedUpdates: [(String, Int64)] = []
        var videoChecks: [(String, Int64, Int64)] = []
        var availabilityRechecks: [(String, Int64?, Int64)] = []
        var channelChecks: [(String, Int64)] = []
        var quota: [(String, Int64, Bool)] = []
        var usage: [(Int64, Int64, Int64, Int64, Int64?, Int64?, Int64?)] = []

        init(_ db: Database) throws {
            lastSeq = try FreshSeqs.counter(Int64.fetchOne(db, sql: "SELECT value FROM hub_counters WHERE name = 'last_seq'"))
            channels = try Row.fetchAll(db, sql: """
                SELECT channel_id, title, thumbnail_url, registered_at, last_fetch_millis, consecutive_failures, last_failure FROM hub_channels
                """).map { ($0["channel_id"], $0["title"], $0["thumbnail_url"], $0["registered_at"], $0["last_fetch_millis"],
                    $0["consecutive_failures"], $0["last_failure"]) }
            videos = try Row.fetchAll(db, sql: """
                SELECT seq, video_id, channel_id, published_at, title, url, duration_seconds, availability, scheduled_start,
                    description, thumbnail_url, view_count, star_rating_count, backfilled
                FROM hub_videos
                """).map { ($0["seq"], $0["video_id"], $0["channel_id"], $0["published_at"], $0["title"], $0["url"], $0["duration_seconds"],
                    $0["availability"], $0["scheduled_start"], $0["description"], $0["thumbnail_url"], $0["view_count"],
                    $0["star_rating_count"], $0["backfilled"]) }
            users = try Row.fetchAll(db, sql: "SELECT id, name, token_hash, created_millis, last_seen_millis FROM status_users")
                .map { ($0["id"], $0["name"], $0["token_hash"], $0["created_millis"], $0["last_seen_millis"]) }
            zones = try Row.fetchAll(db, sql: """
                SELECT id, user_id, container, environment, name, incarnation, last_sequence, changed_at FROM status_zones
                """).map { ($0["id"], $0["user_id"], $0["container"], $0["environment"], $0["name"], $0["incarnation"], $0["last_sequence"],
                    $0["changed_at"]) }
            records = try Row.fetchAll(db, sql: """
                SELECT zone_id, name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
                """).map { ($0["zone_id"], $0["name"], $0["type"], $0["fields"], $0["sequence"], $0["created_millis"],
                    $0["modified_millis"], $0["deleted"]) }
            counters = try Row.fetchAll(db, sql: "SELECT user_id, container, environment, value FROM status_database_counters")
                .map { ($0["user_id"], $0["container"], $0["environment"], $0["value"]) }
            deletions = try Row.fetchAll(db, sql: "SELECT user_id, container, environment, name, changed_at FROM status_zone_deletions")
                .map { ($0["user_id"], $0["container"], $0["environment"], $0["name"], $0["changed_at"]) }
            subscriptions = try Row.fetchAll(db, sql: """
                SELECT channel_id, secret, state, requested_at, lease_seconds, lease_expires_at, failures, next_attempt_at FROM websub_subscriptions
                """).map { ($0["channel_id"], $0["secret"], $0["state"], $0["requested_at"], $0["lease_seconds"], $0["lease_expires_at"],
                    $0["failures"], $0["next_attempt_at"]) }
            pushedUpdates = try Row.fetchAll(db, sql: "SELECT video_id, updated_at FROM websub_video_updates")
                .map { ($0["video_id"], $0["updated_at"]) }
            videoChecks = try Row.fetchAll(db, sql: "SELECT video_id, checked_at, attempts FROM youtube_video_checks")
                .map { ($0["video_id"], $0["checked_at"], $0["attempts"]) }
            availabilityRechecks = try Row.fetchAll(db, sql: "SELECT video_id, due_at, checks FROM youtube_availability_rechecks")
                .map { ($0["video_id"], $0["due_at"], $0["checks"]) }
            channelChecks = try Row.fetchAll(db, sql: "SELECT channel_id, checked_at FROM youtube_channel_checks")
                .map { ($0["channel_id"], $0["checked_at"]) }
            quota = try Row.fetchAll(db, sql: "SELECT day, used, exhausted FROM youtube_quota").map { ($0["day"], $0["used"], $0["exhausted"]) }
            usage = try Row.fetchAll(db, sql: "SELECT user_id, zones, records, bytes, max_zones, max_records, max_bytes FROM status_usage")
                .map { ($0["user_id"], $0["zones"], $0["records"], $0["bytes"], $0["max_zones"], $0["max_records"], $0["max_bytes"]) }
        }

        /// The rows per table this snapshot holds.
        var counts: Counts {
            [
                "hub_channels": channels.count, "hub_videos": videos.count, "status_users": users.count, "status_zones": zones.count,
                "status_records": records.count, "status_database_counters": counters.count, "status_zone_deletions": deletions.count,
                "websub_subscriptions": subscriptions.count, "websub_video_updates": pushedUpdates.count,
                "youtube_video_checks": videoChecks.count, "youtube_availability_rechecks": availabilityRechecks.count,
                "youtube_channel_checks": channelChecks.count, "youtube_quota": quota.count, "status_usage": usage.count,
            ]
        }

        func copy(into connection: PostgresConnection, logger: Logger) async throws -> Counts {
            func run(_ query: PostgresQuery) async throws { try await connection.query(query, logger: logger) }
            let existing = try await PostgresServerDatabase.single(
                Int64.self, connection.query("SELECT (SELECT count(*) FROM hub_channels) + (SELECT count(*) FROM status_users)", logger: logger)) ?? 0
            guard existing == 0 else {
                throw ServerError.invalidConfiguration("the PostgreSQL database already holds channels or users; migrate into an empty one")
            }
            for c in channels {
                try await run("""
                    INSERT INTO hub_channels (channel_id, title, thumbnail_url, registered_at, last_fetch_millis, consecutive_failures, last_failure)
                    VALUES (\(c.0), \(c.1), \(c.2), \(c.3), \(c.4), \(c.5), \(c.6))
                    """)
            }
            // The last_seq row before the videos_version row (which hub_videos' trigger updates),
            // in the order ingestion locks them, so that the two can never wait on each other.
            try await run("UPDATE hub_counters SET value = \(lastSeq) WHERE name = 'last_seq'")
            for v in videos {
                try await run("""
                    INSERT INTO hub_videos (seq, video_id, channel_id, published_at, title, url, duration_seconds, availability, scheduled_start,
                        description, thumbnail_url, view_count, star_rating_count, backfilled)
                    VALUES (\(v.0), \(v.1), \(v.2), \(v.3), \(v.4), \(v.5), \(v.6), \(v.7), \(v.8), \(v.9), \(v.10), \(v.11), \(v.12), \(v.13))
                    """)
            }
            for u in users {
                try await run("""
                    INSERT INTO status_users (id, name, token_hash, created_millis, last_seen_millis) VALUES (\(u.0), \(u.1), \(u.2), \(u.3), \(u.4))
                    """)
            }
            for u in usage {
                try await run("""
                    INSERT INTO status_usage (user_id, zones, records, bytes, max_zones, max_records, max_bytes)
                    VALUES (\(u.0), \(u.1), \(u.2), \(u.3), \(u.4), \(u.5), \(u.6))
                    """)
            }
            for z in zones {
                try await run("""
                    INSERT INTO status_zones (id, user_id, container, environment, name, incarnation, last_sequence, changed_at)
                    VALUES (\(z.0), \(z.1), \(z.2), \(z.3), \(z.4), \(z.5), \(z.6), \(z.7))
                    """)
            }
            for r in records {
                try await run("""
                    INSERT INTO status_records (zone_id, name, type, fields, sequence, created_millis, modified_millis, deleted)
                    VALUES (\(r.0), \(r.1), \(r.2), \(r.3), \(r.4), \(r.5), \(r.6), \(r.7))
                    """)
            }
            for c in counters {
                try await run("INSERT INTO status_database_counters (user_id, container, environment, value) VALUES (\(c.0), \(c.1), \(c.2), \(c.3))")
            }
            for d in deletions {
                try await run("""
                    INSERT INTO status_zone_deletions (user_id, container, environment, name, changed_at) VALUES (\(d.0), \(d.1), \(d.2), \(d.3), \(d.4))
                    """)
            }
            for s in subscriptions {
                try await run("""
                    INSERT INTO websub_subscriptions (channel_id, secret, state, requested_at, lease_seconds, lease_expires_at, failures, next_attempt_at)
                    VALUES (\(s.0), \(s.1), \(s.2), \(s.3), \(s.4), \(s.5), \(s.6), \(s.7))
                    """)
            }
            for u in pushedUpdates {
                try await run("INSERT INTO websub_video_updates (video_id, updated_at) VALUES (\(u.0), \(u.1))")
            }
            for c in videoChecks {
                try await run("INSERT INTO youtube_video_checks (video_id, checked_at, attempts) VALUES (\(c.0), \(c.1), \(c.2))")
            }
            for r in availabilityRechecks {
                try await run("INSERT INTO youtube_availability_rechecks (video_id, due_at, checks) VALUES (\(r.0), \(r.1), \(r.2))")
            }
            for c in channelChecks {
                try await run("INSERT INTO youtube_channel_checks (channel_id, checked_at) VALUES (\(c.0), \(c.1))")
            }
            for q in quota {
                try await run("INSERT INTO youtube_quota (day, used, exhausted) VALUES (\(q.0), \(q.1), \(q.2))")
            }
            // New users and zones continue after the copied ids.
            try await run("SELECT setval(pg_get_serial_sequence('status_users', 'id'), coalesce(max(id), 0) + 1, false) FROM status_users")
            try await run("SELECT setval(pg_get_serial_sequence('status_zones', 'id'), coalesce(max(id), 0) + 1, false) FROM status_zones")
            var copied: Counts = [:]
            for table in counts.keys.sorted() {
                copied[table] = try await PostgresServerDatabase.single(
                    Int.self, connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger)) ?? 0
            }
            guard copied == counts else {
                throw ServerError.storage(.failed("the copy holds \(copied), the SQLite database \(counts); nothing was committed"))
            }
            return copied
        }
    }
}
