import Foundation
import Clocks
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
@testable import MeTubeSync
import TestSupport
import Testing

/// Direct mode asks a channel's Shorts feed (`playlist_id=UUSH…`) about new uploads its channel
/// feed links as ordinary videos, against a loopback feed server: the Shorts it lists are marked,
/// and when it fails or lies the links decide, the channel is not failing, and nothing is asked
/// twice.
@Suite struct DirectShortsFeedTests {
    static let channelIDs = FailingFeedServer.channelIDs(3)

    /// A store following ``channelIDs`` and a direct source reading `server`.
    static func source(_ directory: TemporaryDirectory, _ server: FailingFeedServer) throws -> (Store, DirectVideoSource) {
        let store = try HubSyncTestSupport.store(in: directory, following: channelIDs.map { Channel(id: $0) })
        let client = DirectFeedClient(urlTemplate: server.feedURLTemplate, timeout: .seconds(10))
        return (store, DirectVideoSource(store: store, client: client, concurrency: 2, rate: 0, clock: FeedClock(TestClock())))
    }

    static func isShort(_ store: Store, _ channelID: String) -> Bool? {
        store.library().video(FailingFeedServer.videoID(of: channelID))?.isShortLink
    }

    @Test func aShortWithoutTheLinkIsFoundThroughTheShortsFeedOnce() async throws {
        // Given three channels whose new uploads are linked as watch pages, the first a Short
        let directory = TemporaryDirectory("metube-shorts")
        defer { directory.remove() }
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let (store, source) = try Self.source(directory, server)
        let short = Self.channelIDs[0]
        let listing = MinimalAtomFeed.shortsPlaylist(channelID: short, entries: [(FailingFeedServer.videoID(of: short), short)])
        server.setShortsFeed((200, listing), for: short)

        // When direct mode syncs
        let report = try await source.sync { _ in }

        // Then the upload its Shorts feed lists is a Short, the others are not, and each channel's
        // Shorts feed was asked once
        #expect(report.isComplete)
        #expect(report.newVideos == 3)
        #expect(Self.isShort(store, short) == true)
        #expect(Self.isShort(store, Self.channelIDs[1]) == false)
        #expect(server.shortsRequests == Dictionary(uniqueKeysWithValues: Self.channelIDs.map { ($0, 1) }))

        // And a sync that brings nothing new asks no Shorts feed, and the mark stays
        let again = try await source.sync { _ in }
        #expect(again.isComplete)
        #expect(server.shortsRequests.values.reduce(0, +) == 3)
        #expect(server.requests.values.allSatisfy { $0 == 2 })
        #expect(Self.isShort(store, short) == true)
    }

    @Test(arguments: [(404, ""), (503, ""), (200, "<html>not a feed</html>"), (200, "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>")])
    func aFailingShortsFeedLeavesTheLinkToDecideAndIsNotTheChannelsFailure(status: Int, body: String) async throws {
        let directory = TemporaryDirectory("metube-shorts-failing")
        defer { directory.remove() }
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let (store, source) = try Self.source(directory, server)
        for id in Self.channelIDs { server.setShortsFeed((status, body), for: id) }

        let report = try await source.sync { _ in }

        #expect(report.isComplete)
        #expect(report.failedChannels.isEmpty)
        #expect(report.newVideos == 3)
        #expect(Self.channelIDs.allSatisfy { Self.isShort(store, $0) == false })
        #expect(store.syncSnapshot().channelFetches.values.allSatisfy { $0.failingSince == nil && $0.lastError == nil })
        #expect(server.shortsRequests.values.allSatisfy { $0 == 1 })
        // Nothing new on the next sync: the failed Shorts feed is not asked again
        _ = try await source.sync { _ in }
        #expect(server.shortsRequests.values.reduce(0, +) == 3)
    }

    @Test func aShortsFeedThatTimesOutLeavesTheLinkToDecide() async throws {
        // Given a Shorts feed that stays silent far longer than a request may take
        let directory = TemporaryDirectory("metube-shorts-silent")
        defer { directory.remove() }
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let store = try HubSyncTestSupport.store(in: directory, following: Self.channelIDs.map { Channel(id: $0) })
        let client = DirectFeedClient(urlTemplate: server.feedURLTemplate, timeout: .seconds(5))
        let source = DirectVideoSource(store: store, client: client, concurrency: 3, rate: 0, clock: FeedClock(TestClock()))
        let silent = Self.channelIDs[0]
        server.silenceShortsFeed(for: silent, during: .seconds(20))

        // When direct mode syncs, the request times out, the link decides, and the channel is fine
        let report = try await source.sync { _ in }
        #expect(report.isComplete)
        #expect(report.newVideos == 3)
        #expect(Self.isShort(store, silent) == false)
        #expect(store.syncSnapshot().channelFetches[silent]?.failingSince == nil)
    }

    @Test func entriesOfAnotherChannelInAShortsFeedAreIgnored() async throws {
        // Given a Shorts feed of the first channel that lists the first channel's upload as
        // another channel's, and the second channel's upload
        let directory = TemporaryDirectory("metube-shorts-foreign")
        defer { directory.remove() }
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let (store, source) = try Self.source(directory, server)
        let (first, second) = (Self.channelIDs[0], Self.channelIDs[1])
        let listing = MinimalAtomFeed.shortsPlaylist(
            channelID: first, entries: [(FailingFeedServer.videoID(of: first), second), (FailingFeedServer.videoID(of: second), second)])
        server.setShortsFeed((200, listing), for: first)

        let report = try await source.sync { _ in }

        #expect(report.isComplete)
        #expect(Self.isShort(store, first) == false)
        #expect(Self.isShort(store, second) == false)
    }

    @Test func aShortsFeedOfTenThousandEntriesIsBounded() async throws {
        // Given a Shorts feed of 10,000 entries whose first lists the channel's upload
        let directory = TemporaryDirectory("metube-shorts-huge")
        defer { directory.remove() }
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let (store, source) = try Self.source(directory, server)
        let channel = Self.channelIDs[0]
        let entries = [(FailingFeedServer.videoID(of: channel), channel)] + (1..<10_000).map { number -> (String, String) in
            let digits = String(number)
            return (String(repeating: "s", count: 11 - digits.count) + digits, channel)
        }
        let listing = MinimalAtomFeed.shortsPlaylist(channelID: channel, entries: entries)
        #expect(listing.utf8.count > ShortsFeed.maxBodyBytes)
        server.setShortsFeed((200, listing), for: channel)

        // When direct mode syncs, the oversized feed is refused after its first MiB: the link
        // decides, the sync completes, and the feed was asked once
        let report = try await source.sync { _ in }
        #expect(report.isComplete)
        #expect(report.newVideos == 3)
        #expect(Self.isShort(store, channel) == false)
        #expect(server.shortsRequests[channel] == 1)
        _ = try await source.sync { _ in }
        #expect(server.shortsRequests[channel] == 1)
    }
}
