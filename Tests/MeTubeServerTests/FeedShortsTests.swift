import Foundation
import Clocks
import MeTubeAPI
import MeTubeCore
import MeTubeFeeds
@testable import MeTubeServer
import TestSupport
import Testing

/// The server's poller asks a channel's Shorts feed (`playlist_id=UUSH…`) about new uploads its
/// channel feed links as watch pages, against a loopback feed server: the Shorts it lists reach
/// the hub as `/shorts/` links; when it fails or lies the links decide, the channel is not failing,
/// and a round that brings nothing new asks nothing.
@Suite struct FeedShortsTests {
    static let channels = FailingFeedServer.channelIDs(3)

    static func ingester(_ server: FailingFeedServer, log: LogCapture) async throws -> (FeedIngester, SQLiteHubRepository) {
        let repository = try SQLiteHubRepository(path: HubTestSupport.temporaryDatabasePath())
        _ = try await repository.register(channelIDs: channels)
        let ingester = FeedIngester(
            repository: repository, feedURLTemplate: server.feedURLTemplate, pollInterval: .seconds(900), concurrency: 2,
            clock: FeedClock(TestClock()), logger: log.logger)
        return (ingester, repository)
    }

    /// The hub's URL of the upload of `channelID`.
    static func hubURL(_ repository: SQLiteHubRepository, _ channelID: String) async throws -> String? {
        try await repository.videos(matching: HubVideoSelection()).videos.first { $0.videoID == FailingFeedServer.videoID(of: channelID) }?.url
    }

    @Test func aShortWithoutTheLinkReachesTheHubAsAShortAndNothingIsAskedTwice() async throws {
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let (ingester, repository) = try await Self.ingester(server, log: LogCapture())
        let short = Self.channels[0]
        server.setShortsFeed((200, MinimalAtomFeed.shortsPlaylist(channelID: short, entries: [(FailingFeedServer.videoID(of: short), short)])), for: short)

        let round = await ingester.poll()

        #expect(round.fetched == 3)
        #expect(round.failed == 0)
        #expect(try await Self.hubURL(repository, short) == "https://www.youtube.com/shorts/\(FailingFeedServer.videoID(of: short))")
        #expect(try await Self.hubURL(repository, Self.channels[1])?.contains("watch?v=") == true)
        #expect(server.shortsRequests == Dictionary(uniqueKeysWithValues: Self.channels.map { ($0, 1) }))

        // The next round brings nothing new: no Shorts feed is asked
        let next = await ingester.poll()
        #expect(next.fetched == 3)
        #expect(server.shortsRequests.values.reduce(0, +) == 3)
    }

    @Test(arguments: [(404, ""), (500, ""), (200, "garbage")])
    func aFailingShortsFeedLeavesTheLinkToDecideAndIsNotTheChannelsFailure(status: Int, body: String) async throws {
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let log = LogCapture()
        let (ingester, repository) = try await Self.ingester(server, log: log)
        for id in Self.channels { server.setShortsFeed((status, body), for: id) }

        let round = await ingester.poll()

        #expect(round.fetched == 3)
        #expect(round.failed == 0)
        #expect(round.inserted == 3)
        #expect(try await Self.hubURL(repository, Self.channels[0])?.contains("watch?v=") == true)
        #expect(!log.entries.contains { $0.message == "feed failed; skipping" })
        // Not backing off: the next round fetches every channel
        let next = await ingester.poll()
        #expect(next.backingOff == 0)
        #expect(next.fetched == 3)
    }

    @Test func anotherChannelsEntriesAreIgnoredAndTenThousandEntriesAreBounded() async throws {
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let (ingester, repository) = try await Self.ingester(server, log: LogCapture())
        let (first, second) = (Self.channels[0], Self.channels[1])
        // The first channel's Shorts feed names its upload as the second channel's
        server.setShortsFeed((200, MinimalAtomFeed.shortsPlaylist(channelID: first, entries: [(FailingFeedServer.videoID(of: first), second)])), for: first)
        // The second channel's lists its upload after 10,000 other entries
        let flood = (0..<10_000).map { number -> (videoID: String, channelID: String) in
            let digits = String(number)
            return (String(repeating: "s", count: 11 - digits.count) + digits, second)
        }
        server.setShortsFeed((200, MinimalAtomFeed.shortsPlaylist(channelID: second, entries: flood + [(FailingFeedServer.videoID(of: second), second)])), for: second)

        let round = await ingester.poll()

        #expect(round.failed == 0)
        #expect(round.inserted == 3)
        #expect(try await Self.hubURL(repository, first)?.contains("watch?v=") == true)
        #expect(try await Self.hubURL(repository, second)?.contains("watch?v=") == true)
        #expect(server.shortsRequests[second] == 1)
    }
}
