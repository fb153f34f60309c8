import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

/// A hub sync stores the videos the hub backfilled like any other, through the skip rules, but
/// counts them apart from the new ones: a real hub application on 127.0.0.1 with a real SQLite
/// file, and a hostile page whose `backfilled` is not `true`.
@Suite struct HubBackfillCountTests {
    static let channel = "UChubbackfillAAAAAAAAAAA"

    static func video(_ number: Int, daysAgo: Double, title: String? = nil) -> Video {
        Video(id: "hub" + String(format: "%08d", number), channelID: channel, title: title ?? "video \(number)",
              published: Date().addingTimeInterval(-daysAgo * 86_400))
    }

    @Test func backfilledVideosFromTheHubAreStoredButNotNew() async throws {
        // Given a hub holding a channel's 3 feed videos and 7 older ones its catalog backfilled,
        // one of them a trailer
        let directory = TemporaryDirectory("metube-hub-backfill")
        defer { directory.remove() }
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        _ = try await hub.repository.register(channelIDs: [Self.channel])
        let feed = (0..<3).map { Self.video($0, daysAgo: Double($0)) }
        let older = (3..<10).map { Self.video($0, daysAgo: Double($0) + 30, title: $0 == 5 ? "The trailer" : nil) }
        _ = try await hub.repository.ingest(FeedIngestion(channelID: Self.channel, channelTitle: nil, videos: feed))
        _ = try await hub.repository.ingest(FeedIngestion(channelID: Self.channel, channelTitle: nil, videos: older, backfilled: true))
        let store = try HubSyncTestSupport.store(in: directory, following: [Channel(id: Self.channel)])
        var configuration = HubSyncTestSupport.configuration(hub.url)
        configuration.rules = FeedRules([FeedRule(name: "no trailers", query: try VideoQuery(parsing: "title~\"trailer\""), action: .skip)])

        // When the client syncs
        let report = await SyncEngine(store: store, configuration: configuration).sync()

        // Then all 10 are stored, 3 new and 7 backfilled, and the rule skipped the backfilled trailer
        #expect(report.error == nil, "\(report)")
        #expect(report.newVideos == 3)
        #expect(report.backfilledVideos == 7)
        #expect(store.library().videos.count == 10)
        #expect(store.library().marks[older[2].id]?.status == .skipped)
    }

    @Test(arguments: ["\"yes\"", "1", "null", "false", "{}", "[true]"])
    func aBackfilledFieldThatIsNotTrueCountsTheVideoNew(value: String) throws {
        let json = """
            {"videos":[{"seq":1,"videoId":"AAAAAAAAAAA","channelId":"\(Self.channel)","publishedAt":"2025-12-10T18:11:22Z","title":"t",\
            "url":"https://www.youtube.com/watch?v=AAAAAAAAAAA","durationSeconds":null,"backfilled":\(value)},\
            {"seq":2,"videoId":"BBBBBBBBBBB","channelId":"\(Self.channel)","publishedAt":"2025-12-10T18:11:22Z","title":"t",\
            "url":"https://www.youtube.com/watch?v=BBBBBBBBBBB","durationSeconds":null,"backfilled":true}],"maxSeqReturned":2}
            """
        let page = try Data(json.utf8).withUnsafeBytes { bytes in try ScreenedHubPage(json: bytes) }
        #expect(page.videos.map(\.backfilled) == [nil, true])
        #expect(page.note == nil)
    }
}
