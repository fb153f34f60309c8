import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MeTubeAPI
import Testing
@testable import MeTubeServer

@Suite struct HubFirstFetchQueueTests {
    typealias Support = HubTestSupport

    @Test func registeringQueuesOnlyChannelsNeverFetchedOnceAndAnswersHowManyArePending() async throws {
        // Given a hub service whose ingester is not running yet, so queued fetches stay queued
        let repository = try SQLiteHubRepository(path: Support.temporaryDatabasePath())
        let ingester = FeedIngester(
            repository: repository, feedURLTemplate: "http://127.0.0.1:1/feeds/{channelId}",
            pollInterval: .seconds(3600), concurrency: 2, logger: Logger(label: "test"))
        let service = HubService(repository: repository, ingester: ingester)
        let first = [Support.channelID(1), Support.channelID(2)]

        // When two channels are registered, then one of them again with a third
        let answer = try await service.register(body: try Support.json(HubRegisterRequest(channelIDs: first)).readableBytesView, client: "a")
        let again = try await service.register(
            body: try Support.json(HubRegisterRequest(channelIDs: [Support.channelID(2), Support.channelID(3)])).readableBytesView, client: "a")

        // Then every registered channel is pending, none counted twice, and a hub without an ingester says nothing
        #expect(answer.pendingChannels == 2)
        #expect(again.pendingChannels == 2)
        #expect(await ingester.fetchSoon(first + [Support.channelID(3)]) == 3)
        let plain = try await HubService(repository: repository).register(body: try Support.json(HubRegisterRequest(channelIDs: first)).readableBytesView, client: "b")
        #expect(plain.pendingChannels == nil)
    }

    @Test func aChannelWhoseFirstFetchHappenedIsNoLongerPending() async throws {
        try await HubIngestionTests.feedServer().test(.live) { feedClient in
            // Given an ingester that has polled a channel once (its feed is missing, which still counts as fetched)
            let port = try #require(feedClient.port)
            let repository = try SQLiteHubRepository(path: Support.temporaryDatabasePath())
            _ = try await repository.register(channelIDs: [Support.channelID(1)])
            let ingester = FeedIngester(
                repository: repository, feedURLTemplate: "http://127.0.0.1:\(port)/feeds/{channelId}",
                pollInterval: .seconds(3600), concurrency: 2, logger: Logger(label: "test"))
            let round = await ingester.poll()
            #expect(round.failed == 1)

            // When it is registered again with a channel never tried
            let pending = await ingester.fetchSoon([Support.channelID(1), Support.channelID(2)])

            // Then only the channel never tried is queued
            #expect(pending == 1)
        }
    }
}
