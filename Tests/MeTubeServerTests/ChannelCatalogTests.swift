import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
@testable import MeTubeServer
import MeTubeYouTube
import TestSupport
import Testing

/// The hub's backfill of newly followed channels and its lengths without a key, through the
/// stand-in yt-dlp, on SQLite and PostgreSQL.
@Suite("channel catalog: backfill and durations without a key", .serialized)
struct ChannelCatalogTests {
    typealias Support = HubTestSupport
    static let channel = Support.channelID(1)

    /// A store holding channel 1 with its feed's 15 videos (numbers 46…60), fetched once, and a
    /// stand-in listing its 60 uploads newest first, each with a length.
    static func setUp(_ storage: PushStorage) async throws -> (PushStore, YTDLPStandIn) {
        let store = try await storage.makeStore()
        _ = try await store.hub.register(channelIDs: [channel])
        let feed = (46...60).reversed().map { Support.video($0, channel: channel) }
        _ = try await store.hub.ingest(FeedIngestion(channelID: channel, channelTitle: "One", videos: feed))
        try await store.hub.recordFetches([ChannelFetchRecord(channelID: channel, fetchedAt: Date(), failure: nil)])
        let standIn = try YTDLPStandIn()
        try standIn.setUploads((1...60).reversed().map { .init(id: DemoCatalog.videoID($0), title: "video \($0)", duration: Double(100 + $0)) }, for: channel)
        return (store, standIn)
    }

    static func service(_ store: PushStore, _ standIn: YTDLPStandIn, backfill: Int = 50) -> ChannelCatalogService {
        ChannelCatalogService(
            configuration: CatalogConfiguration(ytDLP: standIn.executable.path, backfill: backfill, callDeadline: .seconds(2)), api: nil,
            hub: store.hub, repository: store.catalog, enrichment: store.enrichment, rate: 0, logger: LogCapture().logger)
    }

    static func rows(_ store: PushStore) async throws -> [String: HubVideo] {
        let page = try await store.hub.videos(matching: HubVideoSelection(limit: 500))
        return Dictionary(uniqueKeysWithValues: page.videos.map { ($0.videoID, $0) })
    }

    @Test(arguments: PushStorage.allCases)
    func aNewChannelBringsItsLast50UploadsWithLengthsOnce(storage: PushStorage) async throws {
        let (store, standIn) = try await Self.setUp(storage)
        defer { standIn.remove() }
        let service = Self.service(store, standIn)

        let first = await service.pass()

        #expect(first == .init(backfilled: 1, videos: 35, durations: 50, failed: 0))
        let rows = try await Self.rows(store)
        #expect(rows.count == 50)
        #expect(rows.values.allSatisfy { $0.durationSeconds != nil })
        let oldestFeed = try #require(rows[DemoCatalog.videoID(46)]).publishedAt
        #expect(rows[DemoCatalog.videoID(45)].map { $0.publishedAt < oldestFeed } == true)
        #expect(rows[DemoCatalog.videoID(10)] == nil)
        // The backfilled rows say so, so that clients do not count them new; the feed's do not.
        #expect((11...45).allSatisfy { rows[DemoCatalog.videoID($0)]?.backfilled == true })
        #expect((46...60).allSatisfy { rows[DemoCatalog.videoID($0)]?.backfilled == nil })
        // A second pass finds nothing to do: the backfill is once for every client.
        #expect(await service.pass() == .init())
        #expect(standIn.calls().count == 1)
    }

    @Test(arguments: PushStorage.allCases)
    func aNewFeedVideoGetsItsLengthFromTheFlatPlaylistOnce(storage: PushStorage) async throws {
        let (store, standIn) = try await Self.setUp(storage)
        defer { standIn.remove() }
        let service = Self.service(store, standIn, backfill: 0)
        #expect(await service.pass().durations == 15)

        _ = try await store.hub.ingest(FeedIngestion(channelID: Self.channel, channelTitle: nil, videos: [Support.video(61, channel: Self.channel)]))
        try standIn.setUploads((1...61).reversed().map { .init(id: DemoCatalog.videoID($0), title: "video \($0)", duration: 59) }, for: Self.channel)
        let before = try #require(try await Self.rows(store)[DemoCatalog.videoID(61)])

        #expect(await service.pass().durations == 16)
        let after = try #require(try await Self.rows(store)[DemoCatalog.videoID(61)])
        #expect(after.durationSeconds == 59)
        #expect(after.seq > before.seq)
        #expect(await service.pass() == .init())
        #expect(standIn.calls().count == 2)
        #expect(standIn.calls().allSatisfy { $0.contains("--flat-playlist") && $0.contains("1:30") })
    }

    @Test(arguments: [YTDLPStandIn.Mode.garbage, .slow, .fail, .old, .huge])
    func aFailingYTDLPGivesOneLineLosesNothingAndIsRetriedLater(mode: YTDLPStandIn.Mode) async throws {
        let (store, standIn) = try await Self.setUp(.sqlite)
        defer { standIn.remove() }
        try standIn.setMode(mode)
        let service = Self.service(store, standIn)

        #expect(await service.pass() == .init(failed: 1))
        let line = try #require(await service.lastFailure)
        #expect(!line.contains("\n") && line.contains(Self.channel))
        #expect(try await Self.rows(store).count == 15)
        #expect(try await store.catalog.catalogChannelsDue(now: Date().millisecondsSince1970, backfill: true, durations: true, limit: 5).isEmpty)

        try standIn.setMode(.ok)
        let later = Date().addingTimeInterval(120).millisecondsSince1970
        #expect(try await store.catalog.catalogChannelsDue(now: later, backfill: true, durations: true, limit: 5).map(\.needsBackfill) == [true])
    }

    @Test func aMissingYTDLPIsNamedAndTheChannelWaits() async throws {
        let (store, standIn) = try await Self.setUp(.sqlite)
        defer { standIn.remove() }
        let service = ChannelCatalogService(
            configuration: CatalogConfiguration(ytDLP: "/nonexistent/yt-dlp"), api: nil,
            hub: store.hub, repository: store.catalog, enrichment: store.enrichment, rate: 0, logger: LogCapture().logger)
        #expect(await service.pass().failed == 1)
        #expect(await service.lastFailure?.contains("yt-dlp not found: /nonexistent/yt-dlp") == true)
    }
}
