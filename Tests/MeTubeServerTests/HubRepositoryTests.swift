import Foundation
import MeTubeAPI
import Testing
@testable import MeTubeServer

@Suite struct HubRepositoryTests {
    typealias Support = HubTestSupport

    @Test(arguments: HubStorage.allCases)
    func registerIsIdempotentInEveryStore(storage: HubStorage) async throws {
        do {
            let repository = try await storage.makeRepository()
            let ids = [Support.channelID(1), Support.channelID(2)]
            let first = try await repository.register(channelIDs: ids)
            let again = try await repository.register(channelIDs: ids + [Support.channelID(3)])
            #expect(first == HubRegisterResponse(requested: 2, inserted: 2, alreadyPresent: 0, totalChannels: 2))
            #expect(again == HubRegisterResponse(requested: 3, inserted: 1, alreadyPresent: 2, totalChannels: 3))
            #expect(try await repository.registeredChannelIDs() == ids + [Support.channelID(3)])
        }
    }

    @Test(arguments: HubStorage.allCases)
    func ingestionKeepsTheNewest100PerChannelAndNeverReusesASeq(storage: HubStorage) async throws {
        do {
            let repository = try await storage.makeRepository()
            // Given a channel that published 130 videos in three feeds
            let channel = Support.channelID(7)
            _ = try await repository.register(channelIDs: [channel])
            let first = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: "Seven", videos: (0..<60).map { Support.video($0, channel: channel) }))
            let second = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: "Seven", videos: (50..<130).map { Support.video($0, channel: channel) }))

            // When one known video is re-titled
            let retitled = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: "Seven!", videos: [Support.video(129, channel: channel, title: "new title")]))

            // Then only new videos counted, 100 newest remain, and the re-titled one has a fresh, larger seq
            #expect(first == FeedIngestionOutcome(inserted: 60, updated: 0))
            #expect(second == FeedIngestionOutcome(inserted: 70, updated: 0))
            #expect(retitled == FeedIngestionOutcome(inserted: 0, updated: 1))
            let page = try await repository.videos(matching: HubVideoSelection(limit: 500))
            #expect(page.videos.count == 100)
            #expect(Set(page.videos.map(\.videoID)) == Set((30..<130).map { Support.video($0, channel: channel).id }))
            #expect(page.videos.last?.title == "new title")
            #expect(page.videos.last?.seq == 131)
            #expect(page.videos.map(\.seq) == page.videos.map(\.seq).sorted())
            #expect(try await repository.channels(after: nil, limit: 10).first?.title == "Seven!")
        }
    }

    @Test(arguments: HubStorage.allCases)
    func eachNewOrChangedVideoGetsASeqOfItsOwnInTheFeedsOrder(storage: HubStorage) async throws {
        let repository = try await storage.makeRepository()
        let channel = Support.channelID(4)
        _ = try await repository.register(channelIDs: [channel])
        // Given a channel holding videos 1 and 2 (seqs 1 and 2)
        _ = try await repository.ingest(FeedIngestion(
            channelID: channel, channelTitle: nil, videos: [Support.video(1, channel: channel), Support.video(2, channel: channel)]))

        // When a feed lists new video 5, video 1 re-titled, new video 3, video 2 unchanged, video 3
        // again (now with a view count), and new video 4
        var counted = Support.video(3, channel: channel)
        counted.views = 5_000
        let outcome = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [
            Support.video(5, channel: channel), Support.video(1, channel: channel, title: "renamed"), Support.video(3, channel: channel),
            Support.video(2, channel: channel), counted, Support.video(4, channel: channel),
        ]))

        // Then each new or changed video is counted once and gets a seq of its own, in the feed's
        // order, right after the last one, and the second copy's count is kept
        #expect(outcome == FeedIngestionOutcome(inserted: 3, updated: 1))
        let page = try await repository.videos(matching: HubVideoSelection(afterSeq: 2))
        #expect(page.videos.map(\.seq) == [3, 4, 5, 6])
        #expect(page.videos.map(\.videoID) == [5, 1, 3, 4].map { Support.video($0, channel: channel).id })
        #expect(page.videos.first { $0.videoID == counted.id }?.viewCount == 5_000)
    }

    @Test func aReopenedSQLiteHubContinuesItsSeqs() async throws {
        // Given a hub file with three videos, one of them re-titled (seq 4), closed
        let path = Support.temporaryDatabasePath()
        let channel = Support.channelID(1)
        do {
            let repository = try SQLiteHubRepository(path: path)
            _ = try await repository.register(channelIDs: [channel])
            _ = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: (0..<3).map { Support.video($0, channel: channel) }))
            _ = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Support.video(2, channel: channel, title: "renamed")]))
        }

        // When it is reopened and a new video arrives
        let reopened = try SQLiteHubRepository(path: path)
        _ = try await reopened.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: [Support.video(3, channel: channel)]))

        // Then the new video gets seq 5: seq 3 (the old row of the renamed video) is never handed out again
        let page = try await reopened.videos(matching: HubVideoSelection())
        #expect(page.videos.map(\.seq) == [1, 2, 4, 5])
    }

    @Test(arguments: HubStorage.allCases)
    func storedVideoIDsNamesTheVideosTheHubHolds(storage: HubStorage) async throws {
        let repository = try await storage.makeRepository()
        let channel = Support.channelID(8)
        _ = try await repository.register(channelIDs: [channel])
        _ = try await repository.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: (0..<3).map { Support.video($0, channel: channel) }))
        let held = (0..<3).map { Support.video($0, channel: channel).id }
        let new = Support.video(3, channel: channel).id
        #expect(try await repository.storedVideoIDs(among: held + [new]) == Set(held))
        #expect(try await repository.storedVideoIDs(among: []).isEmpty)
    }
}
