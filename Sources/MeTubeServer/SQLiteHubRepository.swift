import Foundation
import MeTubeAPI
import MeTubeCore
import NIOCore

/// A `HubRepository` in an SQLite file.
///
/// `seq` values come from a counter row that only grows, so a deleted or re-sequenced row's `seq`
/// is never handed out again, even across restarts.
public final class SQLiteHubRepository: HubRepository {
    private let database: SQLiteDatabase

    /// The schema steps, in order; append only.
    static let migrations = [
        SQLiteMigration(
            "hub-001-channels-videos",
            sql: """
                CREATE TABLE hub_channels (
                    channel_id TEXT PRIMARY KEY,
                    title TEXT,
                    thumbnail_url TEXT,
                    registered_at INTEGER NOT NULL
                );
                CREATE TABLE hub_videos (
                    seq INTEGER PRIMARY KEY,
                    video_id TEXT NOT NULL UNIQUE,
                    channel_id TEXT NOT NULL,
                    published_at REAL NOT NULL,
                    title TEXT NOT NULL,
                    url TEXT NOT NULL,
                    duration_seconds INTEGER
                );
                CREATE INDEX hub_videos_channel_published ON hub_videos (channel_id, published_at DESC, seq DESC);
                CREATE INDEX hub_videos_channel_seq ON hub_videos (channel_id, seq);
                CREATE TABLE hub_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                INSERT INTO hub_counters (name, value) VALUES ('last_seq', 0);
                """
        )
    ]

    /// Opens (creating if needed) the hub tables in the SQLite file at `path`.
    public init(path: String) throws {
        database = try SQLiteDatabase(path: path, migrations: Self.migrations)
    }

    public func register(channelIDs: [String]) async throws -> HubRegisterResponse {
        let now = Int64(Date().timeIntervalSince1970)
        return try database.write { connection in
            var inserted = 0
            for id in channelIDs {
                try connection.run("INSERT OR IGNORE INTO hub_channels (channel_id, registered_at) VALUES (?, ?)", [.text(id), .integer(now)])
                inserted += connection.changes
            }
            let total = try connection.scalar("SELECT count(*) FROM hub_channels") ?? 0
            return HubRegisterResponse(
                requested: channelIDs.count, inserted: inserted, alreadyPresent: channelIDs.count - inserted,
                totalChannels: Int(total)
            )
        }
    }

    public func channels() async throws -> [HubChannel] {
        try database.read { connection in
            try connection.query("SELECT channel_id, title, thumbnail_url FROM hub_channels ORDER BY registered_at, channel_id") { row in
                HubChannel(channelID: row.text(0), title: row.optionalText(1), thumbnailURL: row.optionalText(2))
            }
        }
    }

    public func registeredChannelIDs() async throws -> [String] {
        try database.read { connection in
            try connection.query("SELECT channel_id FROM hub_channels ORDER BY registered_at, channel_id") { $0.text(0) }
        }
    }

    public func videos(matching query: HubVideoSelection) async throws -> HubVideoPage {
        let (sql, bindings) = try Self.select("seq, video_id, channel_id, published_at, title, url, duration_seconds", matching: query)
        let videos = try database.read { connection in try connection.query(sql, bindings, row: Self.video) }
        return HubVideoPage(videos: videos, maxSeqReturned: videos.last?.seq ?? query.afterSeq)
    }

    /// The same page as ``videos(matching:)``, with each row's JSON object built by SQLite and
    /// copied straight into the answer: the hub's hottest route makes no `String` per column.
    public func videoPageJSON(matching query: HubVideoSelection) async throws -> ByteBuffer {
        let (sql, bindings) = try Self.select("seq, \(Self.videoJSONColumn)", matching: query)
        return try database.read { connection in
            var buffer = ByteBuffer()
            buffer.reserveCapacity(64 + query.limit * 256)
            buffer.writeStaticString("{\"videos\":[")
            var maxSeq = query.afterSeq
            try connection.statement(sql, bindings).forEachRow { row in
                if maxSeq != query.afterSeq { buffer.writeInteger(UInt8(ascii: ",")) }
                maxSeq = row.int64(0)
                row.withTextBytes(1) { buffer.writeBytes($0) }
            }
            buffer.writeStaticString("],\"maxSeqReturned\":")
            buffer.writeString(String(maxSeq))
            buffer.writeInteger(UInt8(ascii: "}"))
            return buffer
        }
    }

    /// One row as the JSON object `HubVideo` encodes to; `publishedAt` is whole UTC seconds,
    /// rounded down, like ``ISO8601Timestamp/format(_:)``.
    private static let videoJSONColumn = """
        json_object('seq', seq, 'videoId', video_id, 'channelId', channel_id,
            'publishedAt', strftime('%Y-%m-%dT%H:%M:%SZ', CAST(published_at AS INTEGER) - (published_at < CAST(published_at AS INTEGER)), 'unixepoch'),
            'title', title, 'url', url, 'durationSeconds', duration_seconds)
        """

    /// The `SELECT` of `columns` from the rows `query` selects, in `seq` order, and its bindings.
    private static func select(_ columns: String, matching query: HubVideoSelection) throws -> (String, [SQLiteValue]) {
        if query.channelIDs.isEmpty {
            return ("SELECT \(columns) FROM hub_videos WHERE seq > ? ORDER BY seq LIMIT ?", [.integer(query.afterSeq), .integer(Int64(query.limit))])
        }
        let list = String(decoding: try JSONEncoder().encode(query.channelIDs), as: UTF8.self)
        return (
            "SELECT \(columns) FROM hub_videos WHERE seq > ? AND channel_id IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?",
            [.integer(query.afterSeq), .text(list), .integer(Int64(query.limit))]
        )
    }

    public func ingest(_ ingestion: FeedIngestion) async throws -> FeedIngestionOutcome {
        try database.write { connection in
            if let title = ingestion.channelTitle {
                try connection.run("UPDATE hub_channels SET title = ? WHERE channel_id = ? AND title IS NOT ?", [.text(title), .text(ingestion.channelID), .text(title)])
            }
            var outcome = FeedIngestionOutcome(inserted: 0, updated: 0)
            var touchedChannels: Set<String> = []
            for video in ingestion.videos {
                let known = try connection.query("SELECT title FROM hub_videos WHERE video_id = ?", [.text(video.id)]) { $0.text(0) }.first
                if let known {
                    guard known != video.title else { continue }
                    outcome.updated += 1
                } else {
                    outcome.inserted += 1
                }
                try connection.run("UPDATE hub_counters SET value = value + 1 WHERE name = 'last_seq'")
                let seq = try connection.scalar("SELECT value FROM hub_counters WHERE name = 'last_seq'") ?? 0
                try connection.run(
                    """
                    INSERT INTO hub_videos (seq, video_id, channel_id, published_at, title, url, duration_seconds)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (video_id) DO UPDATE SET seq = excluded.seq, title = excluded.title, url = excluded.url,
                        published_at = excluded.published_at, duration_seconds = coalesce(excluded.duration_seconds, duration_seconds)
                    """,
                    [.integer(seq), .text(video.id), .text(video.channelID), .real(video.published.timeIntervalSince1970),
                     .text(video.title), .text(video.hubURL), .nullable(video.duration)]
                )
                touchedChannels.insert(video.channelID)
            }
            for channelID in touchedChannels {
                try connection.run(
                    """
                    DELETE FROM hub_videos WHERE channel_id = ?1 AND seq NOT IN (
                        SELECT seq FROM hub_videos WHERE channel_id = ?1 ORDER BY published_at DESC, seq DESC LIMIT ?2)
                    """,
                    [.text(channelID), .integer(Int64(HubAPI.videosKeptPerChannel))]
                )
            }
            return outcome
        }
    }

    private static func video(_ row: SQLiteStatement) -> HubVideo {
        HubVideo(
            seq: row.int64(0), videoID: row.text(1), channelID: row.text(2),
            publishedAt: ISO8601Timestamp.format(Date(timeIntervalSince1970: row.double(3))), title: row.text(4),
            url: row.text(5), durationSeconds: row.optionalInt(6)
        )
    }
}
