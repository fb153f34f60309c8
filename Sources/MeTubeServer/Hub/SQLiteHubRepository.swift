import Foundation
import GRDB
import MeTubeAPI
import MeTubeCore
import Synchronization

/// A `HubRepository` in the server's SQLite database.
///
/// `seq` values come from a counter row that only grows, so a deleted or re-sequenced row's `seq`
/// is never handed out again, even across restarts.
public final class SQLiteHubRepository: HubRepository {
    private let database: ServerDatabase
    /// The number of registered channels, kept here so choosing a query plan costs no query.
    private let channelCount: Mutex<Int>

    /// The hub tables of `database`.
    public init(database: ServerDatabase) throws {
        self.database = database
        channelCount = Mutex(try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM hub_channels") ?? 0 })
    }

    /// The hub tables of the database file at `path` (created if needed).
    public convenience init(path: String) throws {
        try self.init(database: ServerDatabase(path: path))
    }

    /// The hub tables of a fresh in-memory database.
    public convenience init() throws {
        try self.init(database: ServerDatabase())
    }

    public func register(channelIDs: [String]) async throws -> HubRegisterResponse {
        let now = Int64(Date().timeIntervalSince1970)
        let response = try await database.write { db in
            var inserted = 0
            let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO hub_channels (channel_id, registered_at) VALUES (?, ?)")
            for id in channelIDs {
                try statement.execute(arguments: [id, now])
                inserted += db.changesCount
            }
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM hub_channels") ?? 0
            return HubRegisterResponse(
                requested: channelIDs.count, inserted: inserted, alreadyPresent: channelIDs.count - inserted, totalChannels: total)
        }
        channelCount.withLock { $0 = response.totalChannels }
        return response
    }

    public func channels(after channelID: String?, limit: Int) async throws -> [HubChannel] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT channel_id, title, thumbnail_url FROM hub_channels WHERE channel_id > ? ORDER BY channel_id LIMIT ?",
                arguments: [channelID ?? "", limit]
            ).map { row in HubChannel(channelID: row["channel_id"], title: row["title"], thumbnailURL: row["thumbnail_url"]) }
        }
    }

    public func registeredChannelIDs() async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT channel_id FROM hub_channels ORDER BY registered_at, channel_id")
        }
    }

    public func videos(matching query: HubVideoSelection) async throws -> HubVideoPage {
        try await versionedVideos(matching: query).page
    }

    public func videosVersion() async throws -> Int64? {
        try await database.read { db in try Self.videosVersion(db) }
    }

    public func versionedVideos(matching query: HubVideoSelection) async throws -> (page: HubVideoPage, version: Int64?) {
        typealias Column = HubVideoColumn
        let (sql, arguments) = try select(matching: query)
        let (videos, version) = try await database.read { db in
            var videos: [HubVideo] = []
            videos.reserveCapacity(query.limit)
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try rows.next() {
                videos.append(HubVideo(
                    seq: row[Column.seq.rawValue], videoID: row[Column.videoID.rawValue], channelID: row[Column.channelID.rawValue],
                    published: row[Column.publishedAt.rawValue], title: row[Column.title.rawValue], url: row[Column.url.rawValue],
                    duration: row[Column.durationSeconds.rawValue], availability: row[Column.availability.rawValue],
                    scheduledStart: row[Column.scheduledStart.rawValue], description: row[Column.description.rawValue],
                    thumbnailURL: row[Column.thumbnailURL.rawValue], viewCount: row[Column.viewCount.rawValue],
                    starRatingCount: row[Column.starRatingCount.rawValue], backfilled: row[Column.backfilled.rawValue]))
            }
            return (videos, try Self.videosVersion(db))
        }
        return (HubVideoPage(videos: videos, maxSeqReturned: videos.last?.seq ?? query.afterSeq), version)
    }

    /// What the hub holds of `videoID`, nil when it holds no such video.
    private static func storedDetails(of videoID: String, _ db: Database) throws -> StoredVideoDetails? {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT title, availability, description, thumbnail_url, view_count, star_rating_count, scheduled_start,
                    EXISTS (SELECT 1 FROM youtube_availability_rechecks r WHERE r.video_id = hub_videos.video_id) AS checked
                FROM hub_videos WHERE video_id = ?
                """),
            arguments: [videoID])
        return row.map {
            StoredVideoDetails(
                title: $0["title"], availability: $0["availability"], description: $0["description"], thumbnailURL: $0["thumbnail_url"],
                views: $0["view_count"], starRatings: $0["star_rating_count"], scheduledStart: $0["scheduled_start"], checkedByDataAPI: $0["checked"])
        }
    }

    /// The `videos_version` counter, which triggers count up on every change to `hub_videos`.
    private static func videosVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM hub_counters WHERE name = 'videos_version'")) ?? 0
    }

    /// The `SELECT` of the rows `query` selects, in `seq` order, and its arguments.
    ///
    /// Two plans give the same rows. When the channels asked for hold a good share of all videos
    /// (a household hub: a client asks for most channels), walking `seq` upwards from `afterSeq`
    /// and keeping rows of those channels finds a page after reading about `limit` rows. When they
    /// are a small share (a hub of many users), reading each channel's rows through the
    /// `(channel_id, seq)` index and sorting them reads fewer. The walk reads about
    /// `limit × channels / requested` rows, the index plan up to `requested × videosKeptPerChannel`.
    private func select(matching query: HubVideoSelection) throws -> (String, StatementArguments) {
        let columns = HubVideoColumn.selectList
        if query.channelIDs.isEmpty {
            return ("SELECT \(columns) FROM hub_videos WHERE seq > ? ORDER BY seq LIMIT ?", [query.afterSeq, query.limit])
        }
        let list = String(decoding: try JSONEncoder().encode(query.channelIDs), as: UTF8.self)
        let requested = query.channelIDs.count
        let walkCost = query.limit * channelCount.withLock { $0 }
        let indexCost = requested * requested * HubAPI.videosKeptPerChannel
        let channel = walkCost <= indexCost ? "+channel_id" : "channel_id"
        return (
            "SELECT \(columns) FROM hub_videos WHERE seq > ? AND \(channel) IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?",
            [query.afterSeq, list, query.limit]
        )
    }

    public func neverFetchedChannelIDs(among channelIDs: [String]) async throws -> Set<String> {
        guard !channelIDs.isEmpty else { return [] }
        let list = String(decoding: try JSONEncoder().encode(channelIDs), as: UTF8.self)
        return try await database.read { db in
            let fetched = Set(try String.fetchAll(db, sql: """
                SELECT channel_id FROM hub_channels WHERE channel_id IN (SELECT value FROM json_each(?)) AND last_fetch_millis IS NOT NULL
                """, arguments: [list]))
            return Set(channelIDs).subtracting(fetched)
        }
    }

    public func storedVideoIDs(among videoIDs: [String]) async throws -> Set<String> {
        guard !videoIDs.isEmpty else { return [] }
        let list = String(decoding: try JSONEncoder().encode(videoIDs), as: UTF8.self)
        return try await database.read { db in
            Set(try String.fetchAll(db, sql: "SELECT video_id FROM hub_videos WHERE video_id IN (SELECT value FROM json_each(?))", arguments: [list]))
        }
    }

    public func recordFetches(_ records: [ChannelFetchRecord]) async throws {
        guard !records.isEmpty else { return }
        try await database.write { db in
            let update = try db.cachedStatement(sql: """
                UPDATE hub_channels SET last_fetch_millis = ?1,
                    consecutive_failures = CASE WHEN ?2 IS NULL THEN 0 ELSE consecutive_failures + 1 END,
                    last_failure = coalesce(?2, last_failure)
                WHERE channel_id = ?3
                """)
            for record in records {
                try update.execute(arguments: [Int64(record.fetchedAt.timeIntervalSince1970 * 1000), record.failure, record.channelID])
            }
        }
    }

    public func ingest(
        _ ingestion: FeedIngestion, planning plan: @escaping @Sendable ([String: StoredVideoDetails]) -> FeedIngestionPlan
    ) async throws -> FeedIngestionOutcome {
        try await database.write { db in
            if let title = ingestion.channelTitle {
                try db.execute(
                    sql: "UPDATE hub_channels SET title = ? WHERE channel_id = ? AND title IS NOT ?",
                    arguments: [title, ingestion.channelID, title])
            }
            var known: [String: StoredVideoDetails] = [:]
            for id in Set(ingestion.videos.map(\.id)) {
                known[id] = try Self.storedDetails(of: id, db)
            }
            let changes = plan(known)
            let refresh = try db.cachedStatement(sql: """
                UPDATE hub_videos SET thumbnail_url = coalesce(?, thumbnail_url), view_count = coalesce(?, view_count),
                    star_rating_count = coalesce(?, star_rating_count) WHERE video_id = ?
                """)
            for video in changes.refreshed {
                try refresh.execute(arguments: [video.thumbnailURL, video.views, video.starRatings, video.id])
            }
            let store = try db.cachedStatement(sql: """
                INSERT INTO hub_videos (seq, video_id, channel_id, published_at, title, url, duration_seconds, availability, scheduled_start,
                    description, thumbnail_url, view_count, star_rating_count, backfilled)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (video_id) DO UPDATE SET seq = excluded.seq, title = excluded.title, url = excluded.url,
                    published_at = excluded.published_at, duration_seconds = coalesce(excluded.duration_seconds, duration_seconds),
                    availability = excluded.availability, scheduled_start = excluded.scheduled_start,
                    description = coalesce(excluded.description, description), thumbnail_url = coalesce(excluded.thumbnail_url, thumbnail_url),
                    view_count = coalesce(excluded.view_count, view_count),
                    star_rating_count = coalesce(excluded.star_rating_count, star_rating_count)
                """)
            for (seq, video) in try FreshSeqs.take(for: changes.resequenced, db) {
                try store.execute(arguments: [
                    seq, video.id, video.channelID, video.published.timeIntervalSince1970, video.title, video.hubURL, video.duration,
                    video.storedAvailability, video.scheduledStart?.timeIntervalSince1970,
                    video.description, video.thumbnailURL, video.views, video.starRatings, ingestion.backfilled,
                ])
            }
            let trim = try db.cachedStatement(sql: """
                DELETE FROM hub_videos WHERE channel_id = ?1 AND seq NOT IN (
                    SELECT seq FROM hub_videos WHERE channel_id = ?1 ORDER BY published_at DESC, seq DESC LIMIT ?2)
                """)
            for channelID in changes.trimmedChannelIDs {
                try trim.execute(arguments: [channelID, changes.keptPerChannel])
            }
            return changes.outcome
        }
    }
}
