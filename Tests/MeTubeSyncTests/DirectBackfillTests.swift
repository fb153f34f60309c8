import Foundation
import Clocks
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
@testable import MeTubeSync
import MeTubeYouTube
import Synchronization
import TestSupport
import Testing

/// Direct mode's backfill and lengths without a key, against a loopback feed server, the
/// stand-in yt-dlp and the Data API stub: a newly followed channel brings its last uploads, a
/// feed full of videos never seen brings what fell off it, new videos get their lengths asked
/// once, and a failing yt-dlp or Data API is one line that loses nothing.
@Suite(.serialized) struct DirectBackfillTests {
    static let channel = "UCbackfillAAAAAAAAAAAAAA"

    /// `count` video ids starting with `prefix` (3 characters), numbered from `from`.
    static func ids(_ prefix: String, _ count: Int, from: Int = 0) -> [String] {
        (from..<(from + count)).map { prefix + String(format: "%08d", $0) }
    }

    /// Uploads the stand-in lists for `ids`, each `100 + index` seconds long.
    static func uploads(_ ids: [String]) -> [YTDLPStandIn.Upload] {
        ids.enumerated().map { .init(id: $1, title: "Upload \($1)", duration: Double(100 + $0)) }
    }

    /// What a test runs against.
    struct Setup {
        let directory: TemporaryDirectory
        let server: ScriptedFeedServer
        let standIn: YTDLPStandIn
        let store: Store

        static func start(following channels: [String] = [DirectBackfillTests.channel]) async throws -> Setup {
            let directory = TemporaryDirectory("metube-backfill")
            let server = await ScriptedFeedServer.start()
            return Setup(directory: directory, server: server, standIn: try YTDLPStandIn(),
                         store: try HubSyncTestSupport.store(in: directory, following: channels.map { Channel(id: $0) }))
        }

        func source(
            backfill: Int = 50, dataAPI: YouTubeDataAPI? = nil, ytDLP: String? = nil, deadline: Duration = .seconds(10), rules: FeedRules = FeedRules()
        ) -> DirectVideoSource {
            let client = DirectFeedClient(urlTemplate: server.feedURLTemplate, timeout: .seconds(10))
            let catalog = DirectCatalog(backfill: backfill, dataAPI: dataAPI, ytDLP: YTDLPCatalog(command: ytDLP ?? standIn.executable.path, deadline: deadline))
            return DirectVideoSource(
                store: store, client: client, concurrency: 2, rate: 0, rules: rules, clock: FeedClock(TestClock()),
                healthFile: FeedHealthFile(url: directory.url.appendingPathComponent("state/feed-health.json")), catalog: catalog)
        }

        func videos(of channelID: String = DirectBackfillTests.channel) -> [Video] {
            store.library().videos.filter { $0.channelID == channelID }
        }

        func stop() {
            server.stop()
            standIn.remove()
            directory.remove()
        }
    }

    @Test func aNewChannelBringsItsLastUploadsWithTheirLengthsAndTheyAreNotNew() async throws {
        // Given a newly followed channel whose feed lists its last 3 uploads and whose catalog
        // lists 60, the second a 30-second Short
        let setup = try await Setup.start()
        defer { setup.stop() }
        let ids = Self.ids("vid", 60)
        setup.server.setFeed(Array(ids.prefix(3)), for: Self.channel)
        var uploads = Self.uploads(ids)
        uploads[1].duration = 30
        try setup.standIn.setUploads(uploads, for: Self.channel)
        let source = setup.source(backfill: 20)

        // When direct mode syncs with [hub] backfill = 20
        let report = try await source.sync { _ in }

        // Then the channel holds its last 20 uploads: 3 new from the feed, 17 backfilled, not new,
        // every one with its length, the Short known by it; yt-dlp was asked once
        #expect(report.isComplete, "\(report)")
        #expect(report.newVideos == 3)
        #expect(report.backfilledVideos == 17)
        #expect(Set(setup.videos().map(\.id)) == Set(ids.prefix(20)))
        #expect(setup.videos().allSatisfy { $0.duration != nil })
        #expect(setup.store.library().video(ids[0])?.duration == 100)
        #expect(setup.store.library().video(ids[1])?.isShort == true)
        #expect(setup.store.library().video(ids[2])?.isShort == false)
        #expect(setup.standIn.calls().count == 1)
        #expect(report.notes.isEmpty)

        // And a sync with nothing new asks yt-dlp nothing
        let again = try await source.sync { _ in }
        #expect(again.newVideos == 0 && again.backfilledVideos == 0)
        #expect(setup.standIn.calls().count == 1)

        // And a new upload gets its length from one call, once
        let fresh = "new00000001"
        setup.server.setFeed([fresh] + ids.prefix(2), for: Self.channel)
        try setup.standIn.setUploads([.init(id: fresh, title: "fresh", duration: 754)] + uploads, for: Self.channel)
        let third = try await source.sync { _ in }
        #expect(third.newVideos == 1 && third.backfilledVideos == 0)
        #expect(setup.store.library().video(fresh)?.duration == 754)
        #expect(setup.standIn.calls().count == 2)
        #expect(setup.standIn.calls().last?.contains("1:\(DirectCatalog.lengthWindow)") == true)
        _ = try await source.sync { _ in }
        #expect(setup.standIn.calls().count == 2)
    }

    @Test func backfillZeroBringsOnlyTheFeedAndStillItsLengths() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        let ids = Self.ids("vid", 40)
        setup.server.setFeed(Array(ids.prefix(5)), for: Self.channel)
        try setup.standIn.setUploads(Self.uploads(ids), for: Self.channel)

        let report = try await setup.source(backfill: 0).sync { _ in }

        #expect(report.newVideos == 5 && report.backfilledVideos == 0)
        #expect(setup.videos().count == 5 && setup.videos().allSatisfy { $0.duration != nil })
        #expect(setup.standIn.calls().map { $0.contains("1:\(DirectCatalog.lengthWindow)") } == [true])
    }

    @Test func backfilledVideosGoThroughTheSkipRules() async throws {
        // Given a rule skipping videos titled "trailer" and a new channel whose fifth upload is one
        let setup = try await Setup.start()
        defer { setup.stop() }
        let ids = Self.ids("vid", 10)
        setup.server.setFeed(Array(ids.prefix(2)), for: Self.channel)
        var uploads = Self.uploads(ids)
        uploads[4].title = "The trailer"
        try setup.standIn.setUploads(uploads, for: Self.channel)
        let rules = FeedRules([FeedRule(name: "no trailers", query: try VideoQuery(parsing: "title~\"trailer\""), action: .skip)])

        let report = try await setup.source(backfill: 10, rules: rules).sync { _ in }

        // Then the backfilled trailer is skipped by the rule, the others are unmarked
        #expect(report.backfilledVideos == 8)
        let marks = setup.store.library().marks
        #expect(marks[ids[4]]?.status == .skipped && marks[ids[4]]?.rule == "no trailers")
        #expect(ids.filter { $0 != ids[4] }.allSatisfy { marks[$0] == nil })
    }

    /// How the overflow test's catalog is asked.
    enum Way: String, CaseIterable { case ytDLP, dataAPI }

    @Test(arguments: Way.allCases) func aFeedFullOfUnseenVideosBackfillsWhatFellOffIt(way: Way) async throws {
        // Given a channel synced once, holding one video
        let setup = try await Setup.start()
        defer { setup.stop() }
        let old = "old00000001"
        let fresh = Self.ids("new", 25)
        let playlists = SharedValue([Self.channel: [old]])
        let stub = await YouTubeStub.start(override: YouTubeStub.uploading { playlists.value.mapValues { $0.map { YouTubeStub.Upload(id: $0) } } })
        defer { stub.stop() }
        let dataAPI = way == .dataAPI ? YouTubeDataAPI(key: "test-key", baseURL: stub.url) : nil
        let source = setup.source(dataAPI: dataAPI)
        setup.server.setFeed([old], for: Self.channel)
        try setup.standIn.setUploads(Self.uploads([old]), for: Self.channel)
        _ = try await source.sync { _ in }
        #expect(setup.videos().map(\.id) == [old])

        // When 25 uploads came since, so that its feed's 15 entries are all unseen
        setup.server.setFeed(Array(fresh.prefix(DirectCatalog.feedSize)), for: Self.channel)
        try setup.standIn.setUploads(Self.uploads(fresh + [old]), for: Self.channel)
        playlists.value = [Self.channel: fresh + [old]]
        let report = try await source.sync { _ in }

        // Then the 10 that fell off the feed are backfilled, not counted new
        #expect(report.isComplete, "\(report)")
        #expect(report.newVideos == 15)
        #expect(report.backfilledVideos == 10)
        #expect(Set(setup.videos().map(\.id)) == Set(fresh + [old]))
        let backfilled = fresh.suffix(10).compactMap { setup.store.library().video($0) }
        let feedOldest = fresh.prefix(15).compactMap { setup.store.library().video($0)?.published }.min()!
        #expect(backfilled.allSatisfy { $0.published < feedOldest })
        switch way {
        case .ytDLP:
            #expect(setup.standIn.calls().count == 2)
        case .dataAPI:
            #expect(setup.standIn.calls().isEmpty)
            #expect(stub.requests.filter { $0.path == "/playlistItems" }.count == 2)
        }
    }

    @Test func aFeedWithOneVideoSeenBeforeDoesNotBackfill() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        let old = "old00000001"
        let fresh = Self.ids("new", 14)
        let source = setup.source()
        setup.server.setFeed([old], for: Self.channel)
        try setup.standIn.setUploads(Self.uploads([old]), for: Self.channel)
        _ = try await source.sync { _ in }

        setup.server.setFeed(fresh + [old], for: Self.channel)
        try setup.standIn.setUploads(Self.uploads(Self.ids("new", 30) + [old]), for: Self.channel)
        let report = try await source.sync { _ in }

        #expect(report.newVideos == 14 && report.backfilledVideos == 0)
        #expect(setup.videos().count == 15)
        #expect(setup.standIn.calls().last?.contains("1:\(DirectCatalog.lengthWindow)") == true)
    }

    /// A yt-dlp that fails one way.
    enum Fault: String, CaseIterable { case garbage, slow, fail, old, huge, missing }

    @Test(arguments: Fault.allCases) func aFailingYTDLPIsOneLineAndLosesNothing(fault: Fault) async throws {
        // Given eight newly followed channels and a yt-dlp that fails
        let channels = (0..<8).map { "UCbackfill\(String(repeating: "B", count: 13))\($0)" }
        let setup = try await Setup.start(following: channels)
        defer { setup.stop() }
        for (number, channel) in channels.enumerated() {
            let ids = Self.ids("c\(number)v", 30)
            setup.server.setFeed(Array(ids.prefix(3)), for: channel)
            try setup.standIn.setUploads(Self.uploads(ids), for: channel)
        }
        if fault != .missing { try setup.standIn.setMode(YTDLPStandIn.Mode(rawValue: fault.rawValue)!) }
        let missing = setup.directory.path("no-such-yt-dlp")
        let source = setup.source(backfill: 10, ytDLP: fault == .missing ? missing : nil, deadline: .seconds(2))

        // When direct mode syncs
        let report = try await source.sync { _ in }

        // Then every feed's videos are in, the failure is one line, and yt-dlp was not asked
        // once per channel
        #expect(report.isComplete, "\(report)")
        #expect(report.newVideos == 24 && report.backfilledVideos == 0)
        #expect(report.notes.filter { $0.hasPrefix("backfill and lengths: ") }.count == 1, "\(report.notes)")
        #expect(report.notes.count == 1)
        #expect(setup.standIn.calls().count <= CatalogRunBreaker.maxFailures + 1)

        // And once yt-dlp works again the next `metube sync` (a new source, reading the state
        // file) brings what was owed, with the lengths
        try setup.standIn.setMode(.ok)
        let next = try await setup.source(backfill: 10).sync { _ in }
        #expect(next.notes.isEmpty, "\(next.notes)")
        #expect(next.newVideos == 0 && next.backfilledVideos == 56)
        #expect(channels.allSatisfy { setup.videos(of: $0).count == 10 && setup.videos(of: $0).allSatisfy { $0.duration != nil } })
    }

    @Test func aSpentQuotaIsOneLineAndTheBackfillComesLater() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        let ids = Self.ids("vid", 30)
        let spent = SharedValue<Bool>(true)
        let stub = await YouTubeStub.start(override: YouTubeStub.uploading({ [Self.channel: ids.map { YouTubeStub.Upload(id: $0) }] }, quotaSpent: { spent.value }))
        defer { stub.stop() }
        setup.server.setFeed(Array(ids.prefix(3)), for: Self.channel)
        let source = setup.source(backfill: 10, dataAPI: YouTubeDataAPI(key: "test-key", baseURL: stub.url))

        let report = try await source.sync { _ in }
        #expect(report.isComplete)
        #expect(report.newVideos == 3 && report.backfilledVideos == 0)
        #expect(report.notes.count == 1 && report.notes[0].contains("quota"), "\(report.notes)")
        #expect(!report.notes[0].contains("test-key"))

        spent.value = false
        let next = try await source.sync { _ in }
        #expect(next.notes.isEmpty)
        #expect(next.backfilledVideos == 7)
        #expect(setup.videos().count == 10)
        #expect(setup.standIn.calls().isEmpty)
    }
}

/// A value a stub's handler reads and a test changes.
final class SharedValue<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
