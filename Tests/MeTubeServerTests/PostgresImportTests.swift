import Foundation
import GRDB
import Logging
import MeTubeCore
import MeTubeDemo
@testable import MeTubeServer
import ServerTestSupport
import TestSupport
import Testing

/// `metube-server migrate`'s copy (``PostgresImport``) against the schemas both backends have
/// now: a new SQLite file and a throw-away PostgreSQL database.
@Suite struct PostgresImportTests {
    @Test func everyTableOfEitherSchemaIsCopiedOrSkippedWithAReason() async throws {
        // Given a new SQLite database and a new PostgreSQL database, each at the latest schema
        let path = HubTestSupport.temporaryDatabasePath()
        let sqliteTables = Set(try await ServerDatabase(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        })
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())

        // When the SQLite one is copied into the PostgreSQL one
        let copied = Set(try await PostgresImport.run(from: path, to: url, logger: Logger(label: "test")).keys)
        let postgres = try await PostgresServerDatabase.forTests(url: url, poolSize: 1)
        let postgresTables = Set(try await postgres.query("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()")
            .map { try $0.decode(String.self) })

        // Then each table of either is copied, or skipped for a stated reason, and not both
        let skipped = Set(PostgresImport.skippedTables.keys)
        #expect(sqliteTables.union(postgresTables).subtracting(copied).subtracting(skipped).sorted() == [])
        #expect(copied.intersection(skipped).isEmpty)
        // And a copied table exists in both, a skipped one in at least one (the list names no table of the past)
        #expect(copied.subtracting(sqliteTables.intersection(postgresTables)).sorted() == [])
        #expect(skipped.subtracting(sqliteTables.union(postgresTables)).sorted() == [])
    }

    /// A new SQLite hub file where the demo channel `number` holds `count` videos: its path, its
    /// database and the videos.
    static func sqliteHub(channel number: Int, videos count: Int) async throws -> (String, ServerDatabase, [Video]) {
        let path = HubTestSupport.temporaryDatabasePath()
        let database = try ServerDatabase(path: path)
        let hub = try SQLiteHubRepository(database: database)
        let channel = DemoCatalog.channelID(number)
        _ = try await hub.register(channelIDs: [channel])
        let videos = (0..<count).map { HubTestSupport.video($0, channel: channel) }
        _ = try await hub.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: videos))
        return (path, database, videos)
    }

    @Test func anSQLiteHubWithoutItsSeqCounterIsNotCopied() async throws {
        // Given an SQLite hub holding a video, whose last_seq counter row is lost
        let (path, database, _) = try await Self.sqliteHub(channel: 6, videos: 1)
        try await database.write { db in try db.execute(sql: "DELETE FROM hub_counters WHERE name = 'last_seq'") }

        // When it is migrated into PostgreSQL, then the copy fails rather than count seqs from 0 again
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        await #expect(throws: FreshSeqs.missingCounter) { try await PostgresImport.run(from: path, to: url, logger: Logger(label: "test")) }
    }

    @Test func thePremieresReChecksAndTheLastPushTimesMove() async throws {
        // Given an SQLite hub where the Data API scheduled a premiere an hour from now, and WebSub pushed another video
        let (path, database, videos) = try await Self.sqliteHub(channel: 5, videos: 2)
        let (premiere, pushed) = (videos[0], videos[1])
        let now = WebSubService.millisecondsNow()
        let start = Date(timeIntervalSince1970: TimeInterval(now / 1000 + 3600))
        let enrichment = SQLiteEnrichmentRepository(database: database)
        #expect(try await enrichment.recordAvailability([premiere.id: LiveStreamingState(availability: .upcoming, scheduledStart: start)], now: now) == 1)
        let due = try #require(try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT due_at FROM youtube_availability_rechecks WHERE video_id = ?", arguments: [premiere.id])
        })
        #expect(try await SQLiteWebSubRepository(database: database).claimPushedUpdates([pushed.id: now]) == [pushed.id])

        // When it is migrated into PostgreSQL
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let copied = try await PostgresImport.run(from: path, to: url, logger: Logger(label: "test"))

        // Then the re-check and the push time were copied and counted
        #expect(copied["youtube_availability_rechecks"] == 1 && copied["websub_video_updates"] == 1, "\(copied)")
        // And PostgreSQL asks about the premiere shortly after its start, not before
        let store = try await PushStore.postgres(url: url)
        #expect(try await store.enrichment.availabilityRechecksDue(now: due - 1, limit: 10) == [])
        #expect(try await store.enrichment.availabilityRechecksDue(now: due, limit: 10) == [premiere.id])
        // And a replay of the push already taken changes nothing, a newer push does
        #expect(try await store.subscriptions.claimPushedUpdates([pushed.id: now - 1]) == [])
        #expect(try await store.subscriptions.claimPushedUpdates([pushed.id: now + 1]) == [pushed.id])
    }
}
