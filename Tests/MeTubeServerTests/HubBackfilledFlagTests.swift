import Foundation
import Logging
import MeTubeAPI
import MeTubeCore
import Testing
import TestSupport
@testable import MeTubeServer

/// The hub marks the videos its catalog backfilled (`backfilled: true` on `videos/query` rows,
/// absent otherwise) in every backend, keeps the mark when a feed brings the video again, and a
/// copy into PostgreSQL keeps it.
@Suite struct HubBackfilledFlagTests {
    typealias Support = HubTestSupport

    @Test(arguments: HubStorage.allCases)
    func backfilledVideosAreServedWithTheFlagAndFeedVideosWithout(storage: HubStorage) async throws {
        let repository = try await storage.makeRepository()
        let channel = Support.channelID(5)
        _ = try await repository.register(channelIDs: [channel])
        _ = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Support.video(10, channel: channel)]))
        _ = try await repository.ingest(FeedIngestion(
            channelID: channel, channelTitle: nil, videos: [Support.video(1, channel: channel), Support.video(2, channel: channel)], backfilled: true))

        var rows = try await repository.videos(matching: HubVideoSelection()).videos
        #expect(rows.map(\.backfilled) == [nil, true, true])

        // A feed that brings a backfilled video again, retitled, re-sequences it and keeps the mark
        _ = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Support.video(2, channel: channel, title: "renamed")]))
        rows = try await repository.videos(matching: HubVideoSelection()).videos
        #expect(rows.last?.title == "renamed" && rows.last?.backfilled == true)
    }

    @Test func theAnswerCarriesTheFlagOnlyWhenSetAndDecodesToTheSameRows() throws {
        let backfilled = HubVideo(
            seq: 1, videoID: "AAAAAAAAAAA", channelID: Support.channelID(1), publishedAt: "2025-12-10T18:11:22Z", title: "t",
            url: "https://www.youtube.com/watch?v=AAAAAAAAAAA", backfilled: true)
        let fromFeed = HubVideo(
            seq: 2, videoID: "BBBBBBBBBBB", channelID: Support.channelID(1), publishedAt: "2025-12-10T18:11:22Z", title: nil,
            url: "https://www.youtube.com/watch?v=BBBBBBBBBBB")
        let page = HubVideoPage(videos: [backfilled, fromFeed], maxSeqReturned: 2)
        let written = String(buffer: HubJSONWriter.page(page))
        #expect(try JSONDecoder().decode(HubVideoPage.self, from: Data(written.utf8)) == page)
        #expect(written.components(separatedBy: "\"backfilled\"").count == 2)
        #expect(written.contains("\"url\":\"https://www.youtube.com/watch?v=AAAAAAAAAAA\",\"durationSeconds\":null,\"backfilled\":true}"))
        #expect(String(decoding: try JSONEncoder().encode(fromFeed), as: UTF8.self).contains("backfilled") == false)
    }

    @Test func migratingAnSQLiteHubToPostgreSQLKeepsTheFlag() async throws {
        let path = Support.temporaryDatabasePath()
        let sqlite = try SQLiteHubRepository(path: path)
        let channel = Support.channelID(6)
        _ = try await sqlite.register(channelIDs: [channel])
        _ = try await sqlite.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Support.video(3, channel: channel)], backfilled: true))

        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        _ = try await PostgresImport.run(from: path, to: url, logger: Logger(label: "test"))

        let postgres = PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1))
        #expect(try await postgres.videos(matching: HubVideoSelection()).videos.first?.backfilled == true)
    }
}
