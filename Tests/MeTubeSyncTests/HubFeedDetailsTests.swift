import Foundation
import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

/// A feed entry's description, thumbnail, view and rating counts travel from the Atom feed
/// through metube-server's poller and `videos/query` into the client's store, and read back
/// after the store is reopened; a hub's hostile values are bounded on the way in.
@Suite struct HubFeedDetailsTests {
    typealias Support = HubSyncTestSupport
    static let channelID = "UC9PBzalIcEQCsiIkq36PyUA"

    @Test func aPolledFeedsDetailsReachTheStoreAndReadBack() async throws {
        // Given a feed server with Digital Foundry's real feed, a hub polling it, and a store
        // following the channel
        let directory = TemporaryDirectory("metube-feed-details")
        defer { directory.remove() }
        let feeds = try await LiveHub.start(router: HubDirectModeTests.feedRouter(), repository: SQLiteHubRepository(path: directory.path("unused.sqlite")))
        defer { feeds.stop() }
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        _ = try await hub.repository.register(channelIDs: [Self.channelID])
        let ingester = FeedIngester(
            repository: hub.repository, feedURLTemplate: feeds.url + "/feeds/{channelId}", pollInterval: .seconds(3600), concurrency: 1,
            logger: Logger(label: "test"))
        #expect(await ingester.poll().inserted == 15)
        let store = try Support.store(in: directory, following: [Channel(id: Self.channelID, title: nil)])

        // When the client syncs, and the store is opened again
        let report = await SyncEngine(store: store, configuration: Support.configuration(hub.url)).sync()
        #expect(report.error == nil)
        let reopened = try Store.open(at: store.directory)

        // Then the first entry's description, thumbnail and counts are the feed's
        let video = try #require(reopened.library().video("W_S7iKZZdHw"))
        #expect(video.views == 23_088)
        #expect(video.starRatings == 1_580)
        #expect(video.thumbnailURL == "https://i4.ytimg.com/vi/W_S7iKZZdHw/hqdefault.jpg")
        let description = try #require(try reopened.description(of: "W_S7iKZZdHw"))
        #expect(description.hasPrefix("As the holiday period begins to unwind"), "\(description.prefix(80))")
        #expect(reopened.library().videos.count == 15)
        #expect(reopened.library().videos.allSatisfy { $0.views != nil && $0.starRatings != nil })
    }

    @Test func aHubsHostileDetailsAreBoundedClearedAndReadBack() async throws {
        // Given a hub whose rows carry a 1 MB description, negative, huge and fractional counts,
        // an oversized thumbnail address and fields of the wrong type
        let directory = TemporaryDirectory("metube-hostile-details")
        defer { directory.remove() }
        let channel = HostileHub.channelID(1)
        func row(_ seq: Int64, _ extra: String) -> String {
            String(HostileHub.row(seq: seq, videoID: HostileHub.videoID(Int(seq)), channelID: channel).dropLast()) + "," + extra + "}"
        }
        let rows = [
            row(1, "\"description\":\(HostileHub.quoted(String(repeating: "ü\u{1B}[2J", count: 200_000))),\"viewCount\":-5,\"starRatingCount\":1e300"),
            row(2, "\"viewCount\":9300000000000000000,\"starRatingCount\":12.5,\"thumbnailUrl\":\(HostileHub.quoted("https://x/" + String(repeating: "a", count: 5000)))"),
            row(3, "\"description\":42,\"viewCount\":\"many\",\"thumbnailUrl\":[1]"),
            row(4, "\"description\":\"fine\",\"viewCount\":\(FeedLimits.maxCount + 1),\"starRatingCount\":7"),
        ]
        let peer = try await HostilePeer.start { request in
            switch request.path {
            case HubAPI.registerPath: .json(HostileHub.registered(1))
            case HubAPI.channelsPath: .json("{\"channels\":[]}")
            default: .json(HostileHub.page(rows, maxSeqReturned: "4"))
            }
        }
        defer { peer.stop() }
        let store = try Support.store(in: directory, following: [Channel(id: channel, title: "hostile")])

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(peer.url)).sync()

        // Then every row is kept, the description cut, bad counts and addresses cleared, with a note
        #expect(report.error == nil)
        let reopened = try Store.open(at: store.directory)
        let videos = Dictionary(uniqueKeysWithValues: reopened.library().videos.map { ($0.id, $0) })
        #expect(videos.count == 4)
        let long = try #require(try reopened.description(of: HostileHub.videoID(1)))
        #expect(long.utf8.count <= FeedLimits.maxDescriptionBytes && long.utf8.count > FeedLimits.maxDescriptionBytes - 8)
        #expect(videos.values.allSatisfy { $0.views == nil })
        #expect(videos[HostileHub.videoID(1)]?.starRatings == nil)
        #expect(videos[HostileHub.videoID(2)]?.starRatings == nil)
        #expect(videos[HostileHub.videoID(4)]?.starRatings == 7)
        #expect(try reopened.description(of: HostileHub.videoID(4)) == "fine")
        #expect(videos.values.allSatisfy { $0.thumbnailURL == nil })
        let notes = report.notes.joined(separator: "; ")
        #expect(notes.contains("description longer than"), "\(notes)")
        #expect(notes.contains("view count out of range"), "\(notes)")
        #expect(notes.contains("thumbnail address too long"), "\(notes)")
    }
}
