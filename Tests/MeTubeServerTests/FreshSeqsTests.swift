import Foundation
import GRDB
import MeTubeAPI
import MeTubeCore
@testable import MeTubeServer
import PostgresNIO
import ServerTestSupport
import TestSupport
import Testing

/// "A changed video gets a fresh seq", as every writer of the hub's videos follows it on every
/// backend: the Data API's durations and availability, WebSub deletions, and ingests that race.
@Suite struct FreshSeqsTests {
    typealias Support = HubTestSupport

    /// The stored seq of each video.
    private static func seqs(_ store: PushStore) async throws -> [String: Int64] {
        let page = try await store.hub.videos(matching: HubVideoSelection(limit: 100))
        return Dictionary(uniqueKeysWithValues: page.videos.map { ($0.videoID, $0.seq) })
    }

    @Test(arguments: PushStorage.allCases)
    func eachWriterGivesTheVideosItChangesFreshSeqsInVideoIDOrderAndLeavesTheOthersAlone(storage: PushStorage) async throws {
        let store = try await storage.makeStore()
        let channel = Support.channelID(1)
        let other = Support.channelID(2)
        _ = try await store.hub.register(channelIDs: [channel, other])
        let videos = (1...6).map { Support.video($0, channel: channel) }
        _ = try await store.hub.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: videos))
        _ = try await store.hub.ingest(FeedIngestion(channelID: other, channelTitle: nil, videos: [Support.video(7, channel: other)]))
        let ids = videos.map(\.id)
        let unknown = Support.video(99, channel: channel).id
        var last: Int64 = 7

        // The ids of `changed` in id order take the next seqs; every other video keeps its seq.
        func expectFreshSeqs(for changed: [String], after before: [String: Int64]) async throws {
            let now = try await Self.seqs(store)
            let fresh = changed.sorted()
            #expect(fresh.map { now[$0] } == fresh.indices.map { last + 1 + Int64($0) })
            #expect(now.filter { !changed.contains($0.key) } == before.filter { !changed.contains($0.key) })
            last += Int64(changed.count)
        }

        // When the Data API gives durations for two videos in reverse id order, an unknown one,
        // and the same again
        var before = try await Self.seqs(store)
        let durations = [ids[4]: 61, ids[1]: 62, unknown: 63]
        #expect(try await store.enrichment.recordVideoLookup(checked: Array(durations.keys), durations: durations, now: 1) == 2)
        try await expectFreshSeqs(for: [ids[4], ids[1]], after: before)
        before = try await Self.seqs(store)
        #expect(try await store.enrichment.recordVideoLookup(checked: Array(durations.keys), durations: durations, now: 2) == 0)
        #expect(try await Self.seqs(store) == before)

        // When it says two are live or upcoming, a third is available (as stored), and the same again
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let states: [String: LiveStreamingState] = [
            ids[5]: LiveStreamingState(availability: .live), ids[0]: LiveStreamingState(availability: .upcoming, scheduledStart: start),
            ids[2]: LiveStreamingState(availability: .available), unknown: LiveStreamingState(availability: .live),
        ]
        #expect(try await store.enrichment.recordAvailability(states, now: 1_000) == 2)
        try await expectFreshSeqs(for: [ids[5], ids[0]], after: before)
        before = try await Self.seqs(store)
        #expect(try await store.enrichment.recordAvailability(states, now: 2_000) == 0)
        #expect(try await Self.seqs(store) == before)

        // When WebSub says three videos were deleted (one twice), one of another channel and an unknown one
        let deleted = [ids[3], ids[0], ids[2], ids[0], Support.video(7, channel: other).id, unknown]
        #expect(try await store.subscriptions.markVideosGone(deleted, of: channel) == 3)
        try await expectFreshSeqs(for: [ids[3], ids[0], ids[2]], after: before)
        before = try await Self.seqs(store)
        #expect(try await store.subscriptions.markVideosGone(deleted, of: channel) == 0)
        #expect(try await Self.seqs(store) == before)
        let rows = try await store.hub.videos(matching: HubVideoSelection(limit: 100)).videos
        #expect(rows.filter { $0.availability == "gone" }.map(\.videoID).sorted() == [ids[3], ids[0], ids[2]].sorted())
    }

    @Test(arguments: PushStorage.allCases)
    func aMissingCounterFailsTheWriteInsteadOfHandingOutSeqsAgain(storage: PushStorage) async throws {
        // Given a hub whose three videos took seqs 1 to 3, and whose last_seq counter row is then lost
        let store = try await storage.makeStore()
        let channel = Support.channelID(4)
        _ = try await store.hub.register(channelIDs: [channel])
        _ = try await store.hub.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: (1...3).map { Support.video($0, channel: channel) }))
        let before = try await Self.seqs(store)
        #expect(before.values.sorted() == [1, 2, 3])
        try await store.execute("DELETE FROM hub_counters WHERE name = 'last_seq'")

        // When a feed brings two new videos, or a new title for a stored one
        let newVideos = FeedIngestion(channelID: channel, channelTitle: nil, videos: (4...5).map { Support.video($0, channel: channel) })
        let retitled = FeedIngestion(channelID: channel, channelTitle: nil, videos: [Support.video(2, channel: channel, title: "Renamed")])

        // Then each write fails as storage, and no video was written: none took a seq again
        await #expect(throws: FreshSeqs.missingCounter) { try await store.hub.ingest(newVideos) }
        await #expect(throws: FreshSeqs.missingCounter) { try await store.hub.ingest(retitled) }
        #expect(try await Self.seqs(store) == before)

        // And once the counter is back, the same feeds store the new videos and the new title under fresh seqs
        try await store.execute("INSERT INTO hub_counters (name, value) VALUES ('last_seq', 3)")
        #expect(try await store.hub.ingest(newVideos) == FeedIngestionOutcome(inserted: 2, updated: 0))
        #expect(try await store.hub.ingest(retitled) == FeedIngestionOutcome(inserted: 0, updated: 1))
        let after = try await store.hub.videos(matching: HubVideoSelection(limit: 100)).videos
        #expect(after.map(\.seq) == [1, 3, 4, 5, 6])
        #expect(after.last?.title == "Renamed")
    }

    @Test("two instances ingesting the same new videos at once store each once, under one seq")
    func racingIngestsOnPostgreSQLStoreEachVideoOnce() async throws {
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        let first = try await PushStore.postgres(url: url).hub
        let second = try await PushStore.postgres(url: url).hub
        let channel = Support.channelID(3)
        _ = try await first.register(channelIDs: [channel])
        let rounds = 12
        var inserted = 0
        for round in 1...rounds {
            let feed = FeedIngestion(channelID: channel, channelTitle: nil, videos: [Support.video(round, channel: channel)])
            async let one = first.ingest(feed)
            async let other = second.ingest(feed)
            let outcomes = try await [one, other]
            #expect(outcomes.map(\.updated) == [0, 0])
            inserted += outcomes.map(\.inserted).reduce(0, +)
        }
        #expect(inserted == rounds)
        let page = try await first.videos(matching: HubVideoSelection())
        #expect(page.videos.map(\.seq) == (1...Int64(rounds)).map { $0 })
    }
}

extension PushStore {
    /// Runs `sql` on this store's database, past its repositories: how a test damages it.
    func execute(_ sql: String) async throws {
        switch target {
        case .sqlite(let database):
            try await database.write { db in try db.execute(sql: sql) }
        case .postgres(let url):
            _ = try await PostgresServerDatabase.forTests(url: url, poolSize: 1).query(PostgresQuery(unsafeSQL: sql))
        }
    }
}
