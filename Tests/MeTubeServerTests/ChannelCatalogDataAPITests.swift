import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
import MeTubeFeeds
@testable import MeTubeServer
import MeTubeYouTube
import Synchronization
import TestSupport
import Testing

/// The hub's backfill with a Data API key, against the loopback stub: `playlistItems.list` page
/// by page on the channel's uploads playlist (`UU…`), and a spent quota that waits for the next
/// UTC day and loses nothing, on SQLite and PostgreSQL.
@Suite("channel catalog: backfill through the Data API", .serialized)
struct ChannelCatalogDataAPITests {
    typealias Support = HubTestSupport
    static let channel = Support.channelID(1)
    static let playlist = "UU" + channel.dropFirst(2)

    /// A store holding channel 1 with its feed's 15 videos (numbers 86…100), fetched once.
    static func store(_ storage: PushStorage) async throws -> PushStore {
        let store = try await storage.makeStore()
        _ = try await store.hub.register(channelIDs: [channel])
        let feed = (86...100).reversed().map { Support.video($0, channel: channel) }
        _ = try await store.hub.ingest(FeedIngestion(channelID: channel, channelTitle: "One", videos: feed))
        try await store.hub.recordFetches([ChannelFetchRecord(channelID: channel, fetchedAt: Date(), failure: nil)])
        return store
    }

    /// A stub whose channel 1 has 100 uploads, newest first, each an hour apart.
    static func stub(quotaSpent: @escaping @Sendable () -> Bool = { false }) async -> YouTubeStub {
        let uploads = (1...100).reversed().map { number in
            YouTubeStub.Upload(id: DemoCatalog.videoID(number), title: "video \(number)",
                               published: ISO8601Timestamp.format(Date(timeIntervalSince1970: 1_735_689_600 + Double(number) * 3_600)))
        }
        return await YouTubeStub.start(override: YouTubeStub.uploads([channel: uploads], quotaSpent: quotaSpent))
    }

    static func service(_ store: PushStore, _ stub: YouTubeStub, backfill: Int = 80, dailyUnits: Int = YouTubeAPIConfiguration.defaultDailyUnits) -> ChannelCatalogService {
        ChannelCatalogService(
            configuration: CatalogConfiguration(ytDLP: "/nonexistent/yt-dlp", backfill: backfill), api: YouTubeDataAPI(key: "test-key", baseURL: stub.url),
            dailyUnits: dailyUnits, hub: store.hub, repository: store.catalog, enrichment: store.enrichment, rate: 0, logger: LogCapture().logger)
    }

    static func pageRequests(_ stub: YouTubeStub) -> [YouTubeStub.Request] {
        stub.requests.filter { $0.path == "/playlistItems" }
    }

    @Test(arguments: PushStorage.allCases)
    func withAKeyANewChannelBringsItsUploadsFromTheUploadsPlaylistPageByPageOnce(storage: PushStorage) async throws {
        // Given a channel whose feed brought 15 videos, and a backfill of 80 (two pages of 50)
        let stub = await Self.stub()
        defer { stub.stop() }
        let store = try await Self.store(storage)
        let service = Self.service(store, stub)

        // When the catalog runs
        let pass = await service.pass()

        // Then the 65 older uploads are ingested with the playlist's dates, from two pages of the UU… playlist
        #expect(pass == .init(backfilled: 1, videos: 65, durations: 0, failed: 0))
        let rows = try await store.hub.videos(matching: HubVideoSelection(limit: 500)).videos
        #expect(rows.count == 80)
        let oldest = try #require(rows.first { $0.videoID == DemoCatalog.videoID(21) })
        #expect(ISO8601Timestamp.parse(oldest.publishedAt) == Date(timeIntervalSince1970: 1_735_689_600 + 21 * 3_600))
        #expect(!rows.contains { $0.videoID == DemoCatalog.videoID(20) })
        let pages = Self.pageRequests(stub)
        #expect(pages.map { $0.query["playlistId"] } == [Self.playlist, Self.playlist])
        #expect(pages.map { $0.query["pageToken"] } == [nil, "p1"])
        // And a second pass asks for nothing: the backfill is once for every client
        #expect(await service.pass() == .init())
        #expect(Self.pageRequests(stub).count == 2)
    }

    @Test(arguments: PushStorage.allCases)
    func aSpentQuotaWaitsForTheNextUTCDayAndLosesNothing(storage: PushStorage) async throws {
        // Given a Data API whose quota is spent
        let stub = await Self.stub(quotaSpent: { true })
        defer { stub.stop() }
        let store = try await Self.store(storage)
        let service = Self.service(store, stub)

        // When the catalog runs
        let pass = await service.pass()

        // Then the call fails on one line, nothing is ingested, and the channel is due again from the next UTC day, still to backfill
        #expect(pass.failed == 1 && pass.videos == 0)
        #expect(await service.lastFailure?.contains("quota") == true)
        #expect(try await store.hub.videos(matching: HubVideoSelection(limit: 500)).videos.count == 15)
        let nextDay = UTCDay.nextStart(after: Date()).millisecondsSince1970
        #expect(try await store.catalog.catalogChannelsDue(now: nextDay - 60_000, backfill: true, durations: false, limit: 10).isEmpty)
        let due = try await store.catalog.catalogChannelsDue(now: nextDay, backfill: true, durations: false, limit: 10)
        #expect(due.map(\.channelID) == [Self.channel] && due.first?.needsBackfill == true)
    }

    @Test func aSpentDailyBudgetAsksYouTubeNothing() async throws {
        // Given a budget of 1 unit a day and a backfill needing 2
        let stub = await Self.stub()
        defer { stub.stop() }
        let store = try await Self.store(.sqlite)
        let service = Self.service(store, stub, dailyUnits: 1)

        // When the catalog runs, then it fails on the budget without a request, and the channel waits for the next day
        #expect(await service.pass().failed == 1)
        #expect(await service.lastFailure?.contains("the daily budget is spent") == true)
        #expect(Self.pageRequests(stub).isEmpty)
        #expect(try await store.catalog.catalogChannelsDue(now: Date().millisecondsSince1970 + 60_000, backfill: true, durations: false, limit: 10).isEmpty)
    }
}
