import Foundation
import Logging
import MeTubeAPI
import MeTubeCore
@testable import MeTubeServer
import ServerTestSupport
import TestSupport
import Testing

/// What the hub keeps of a feed entry beyond its title (description, thumbnail, view and rating
/// counts), in every backend: served as `videos/query`'s additional fields, re-sequenced when the
/// description changes, refreshed in place when the counts move, and never lost to a copy that
/// lacks them (a WebSub push).
@Suite struct HubVideoDetailsTests {
    typealias Support = HubTestSupport

    private static func detailed(_ number: Int, channel: String, description: String = "About it", views: Int? = 1_000) -> Video {
        var video = Support.video(number, channel: channel)
        video.description = description
        video.thumbnailURL = "https://i1.ytimg.com/vi/\(video.id)/hqdefault.jpg"
        video.views = views
        video.starRatings = 40
        return video
    }

    @Test(arguments: HubStorage.allCases)
    func detailsAreServedKeptAndRefreshed(storage: HubStorage) async throws {
        let repository = try await storage.makeRepository()
        let channel = Support.channelID(3)
        _ = try await repository.register(channelIDs: [channel])

        // Given a feed entry with a description, a thumbnail and counts, ingested
        _ = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Self.detailed(1, channel: channel)]))
        var row = try #require(try await repository.videos(matching: HubVideoSelection()).videos.first)

        // Then videos/query serves all of it
        #expect(row.seq == 1)
        #expect(row.description == "About it")
        #expect(row.thumbnailURL == "https://i1.ytimg.com/vi/\(row.videoID)/hqdefault.jpg")
        #expect(row.viewCount == 1_000)
        #expect(row.starRatingCount == 40)

        // When a poll reads a few more views, then many more
        _ = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Self.detailed(1, channel: channel, views: 1_050)]))
        row = try #require(try await repository.videos(matching: HubVideoSelection()).videos.first)
        #expect(row.viewCount == 1_000)
        let moved = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Self.detailed(1, channel: channel, views: 5_000)]))
        row = try #require(try await repository.videos(matching: HubVideoSelection()).videos.first)

        // Then a count that moved by a tenth is refreshed in place, without a fresh seq
        #expect(moved == FeedIngestionOutcome(inserted: 0, updated: 0))
        #expect(row.viewCount == 5_000)
        #expect(row.seq == 1)

        // When a push without description or counts arrives, then an edited description
        _ = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Support.video(1, channel: channel)]))
        row = try #require(try await repository.videos(matching: HubVideoSelection()).videos.first)
        #expect(row.seq == 1)
        #expect(row.description == "About it")
        #expect(row.viewCount == 5_000)
        let edited = try await repository.ingest(FeedIngestion(
            channelID: channel, channelTitle: nil, videos: [Self.detailed(1, channel: channel, description: "Chapters added", views: nil)]))
        row = try #require(try await repository.videos(matching: HubVideoSelection()).videos.first)

        // Then the push changed nothing, and the edit gives the row a fresh seq, keeping the counts
        #expect(edited == FeedIngestionOutcome(inserted: 0, updated: 1))
        #expect(row.seq == 2)
        #expect(row.description == "Chapters added")
        #expect(row.viewCount == 5_000)
        #expect(row.starRatingCount == 40)
    }

    @Test func theAnswerCarriesTheFieldsOnlyWhenKnownAndDecodesToTheSameRows() throws {
        let known = HubVideo(
            seq: 1, videoID: "AAAAAAAAAAA", channelID: Support.channelID(1), publishedAt: "2025-12-10T18:11:22Z", title: "t",
            url: "https://www.youtube.com/watch?v=AAAAAAAAAAA", description: "line\n\u{1B}[2J \"quoted\"", thumbnailURL: "http://127.0.0.1:1/t.jpg",
            viewCount: 23_088, starRatingCount: 1_580)
        let unknown = HubVideo(
            seq: 2, videoID: "BBBBBBBBBBB", channelID: Support.channelID(1), publishedAt: "2025-12-10T18:11:22Z", title: nil,
            url: "https://www.youtube.com/watch?v=BBBBBBBBBBB")
        let page = HubVideoPage(videos: [known, unknown], maxSeqReturned: 2)
        let written = String(buffer: HubJSONWriter.page(page))
        #expect(try JSONDecoder().decode(HubVideoPage.self, from: Data(written.utf8)) == page)
        #expect(!written.contains("\"description\":null") && !written.contains("\"viewCount\":null"))
        #expect(written.contains("\"viewCount\":23088,\"starRatingCount\":1580}"))
    }

    @Test func migratingAnSQLiteHubToPostgreSQLKeepsTheDetails() async throws {
        // Given an SQLite hub holding a video with its details
        let path = Support.temporaryDatabasePath()
        let sqlite = try SQLiteHubRepository(path: path)
        let channel = Support.channelID(4)
        _ = try await sqlite.register(channelIDs: [channel])
        _ = try await sqlite.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Self.detailed(9, channel: channel)]))

        // When it is copied into an empty PostgreSQL database
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        _ = try await PostgresImport.run(from: path, to: url, logger: Logger(label: "test"))

        // Then PostgreSQL serves the same row
        let postgres = PostgresHubRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1))
        #expect(try await postgres.videos(matching: HubVideoSelection()) == (try await sqlite.videos(matching: HubVideoSelection())))
        #expect(try await postgres.videos(matching: HubVideoSelection()).videos.first?.starRatingCount == 40)
    }
}
