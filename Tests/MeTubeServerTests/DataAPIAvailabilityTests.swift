import Foundation
import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
import MeTubeFeeds
@testable import MeTubeServer
import MeTubeYouTube
import Synchronization
import TestSupport
import Testing

/// The `snippet`, `status` and `liveStreamingDetails` members of a `videos.list` item, in the
/// shapes the Data API documents for premieres and streams.
enum LiveStreamingFixture {
    static func upcoming(start: String?) -> String {
        let details = start.map { #","liveStreamingDetails":{"scheduledStartTime":"\#($0)","activeLiveChatId":"Cg0KC2xpdmVjaGF0aWQ"}"# } ?? ""
        return snippet("upcoming") + "," + status("public") + details
    }

    static func live(start: String) -> String {
        snippet("live") + "," + status("public")
            + #","liveStreamingDetails":{"actualStartTime":"\#(start)","scheduledStartTime":"\#(start)","concurrentViewers":"1234","activeLiveChatId":"Cg0KC2xpdmVjaGF0aWQ"}"#
    }

    /// A live video whose answer leaves out `liveStreamingDetails`.
    static let liveWithoutDetails = snippet("live") + "," + status("public")

    static func ended(start: String, end: String) -> String {
        snippet("none") + "," + status("public") + #","liveStreamingDetails":{"actualStartTime":"\#(start)","actualEndTime":"\#(end)","scheduledStartTime":"\#(start)"}"#
    }

    static let upload = snippet("none") + "," + status("public")
    static let privateVideo = snippet("none") + "," + status("private")

    private static func snippet(_ content: String) -> String {
        #""snippet":{"publishedAt":"2026-08-01T12:00:00Z","channelId":"UCLA_DiR1FfKNvjuUpBHmylQ","title":"A stream","description":"","channelTitle":"NASA","categoryId":"28","liveBroadcastContent":"\#(content)"}"#
    }

    private static func status(_ privacy: String) -> String {
        #""status":{"uploadStatus":"uploaded","privacyStatus":"\#(privacy)","license":"youtube","embeddable":true,"publicStatsViewable":true,"madeForKids":false}"#
    }
}

/// A clock a test moves on.
final class EnrichmentClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

@Suite(.timeLimit(.minutes(2))) struct DataAPIAvailabilityTests {
    typealias Support = HubTestSupport

    static func id(_ number: Int) -> String { DemoCatalog.videoID(number) }

    /// A hub of `storage` holding videos 1…`count` of channel 1, and an enricher calling `stub`
    /// on `clock`'s time.
    static func setUp(_ storage: PushStorage, stubURL: String, videos count: Int, clock: EnrichmentClock) async throws -> (PushStore, YouTubeEnricher) {
        let store = try await storage.makeStore()
        _ = try await store.hub.register(channelIDs: [Support.channelID(1)])
        let videos = (1...count).map { Support.video($0, channel: Support.channelID(1)) }
        _ = try await store.hub.ingest(FeedIngestion(channelID: Support.channelID(1), channelTitle: nil, videos: videos))
        let api = YouTubeDataAPI(configuration: YouTubeAPIConfiguration(key: YouTubeAPIStub.key, baseURL: stubURL + "/youtube/v3"))
        let enricher = YouTubeEnricher(api: api, repository: store.enrichment, signal: WakeSignal(), logger: LogCapture().logger, now: { clock.now })
        return (store, enricher)
    }

    static func rows(_ store: PushStore) async throws -> [String: HubVideo] {
        let page = try await store.hub.videos(matching: HubVideoSelection(limit: 500))
        return Dictionary(uniqueKeysWithValues: page.videos.map { ($0.videoID, $0) })
    }

    static func iso(_ date: Date) -> String { ISO8601Timestamp.format(date) }

    @Test(arguments: PushStorage.allCases)
    func everyStateTheDataAPIGivesReachesTheHubAndUnsettledVideosAreAskedAgainNearTheirStart(storage: PushStorage) async throws {
        // Given videos the API describes as upcoming, live, ended, private, left out, and with broken details
        let clock = EnrichmentClock(Date(timeIntervalSince1970: 1_790_000_000))
        let start = clock.now.addingTimeInterval(3600)
        let durations = Dictionary(uniqueKeysWithValues: (1...8).filter { $0 != 5 }.map { (Self.id($0), "PT10M") })
        let answering = YouTubeAPIStub(durations: durations)
        answering.liveStreaming.withLock {
            $0[Self.id(1)] = LiveStreamingFixture.upcoming(start: Self.iso(start))
            $0[Self.id(2)] = LiveStreamingFixture.live(start: Self.iso(clock.now.addingTimeInterval(-600)))
            $0[Self.id(3)] = LiveStreamingFixture.ended(start: "2026-09-01T10:00:00Z", end: "2026-09-01T12:00:00Z")
            $0[Self.id(4)] = LiveStreamingFixture.privateVideo
            $0[Self.id(6)] = LiveStreamingFixture.upcoming(start: "1970-01-01T00:00:00Z")
            $0[Self.id(7)] = LiveStreamingFixture.upcoming(start: "9999-12-31T23:59:59Z")
            $0[Self.id(8)] = LiveStreamingFixture.liveWithoutDetails
        }
        let (stubService, stubURL) = await BackgroundService.serve(answering.router, label: "youtube-stub")
        defer { stubService.stop() }
        let (store, enricher) = try await Self.setUp(storage, stubURL: stubURL, videos: 8, clock: clock)
        let before = try await Self.rows(store)

        // When the enrichment runs (the durations it finds give fresh seqs too; the pass counts the availability changes)
        let first = await enricher.pass()

        // Then each video holds the state the API gave, under a fresh seq when it changed
        #expect(answering.calls.filter { $0.resource == "videos" }.count == 1 && !first.failed)
        #expect(first.availabilityChanges == 7)
        #expect(answering.calls.first?.part == "contentDetails,snippet,liveStreamingDetails,status")
        var rows = try await Self.rows(store)
        #expect(rows[Self.id(1)]?.availability == "upcoming")
        #expect(rows[Self.id(1)]?.scheduledStart == Self.iso(start))
        #expect(rows[Self.id(2)]?.availability == "live")
        #expect(rows[Self.id(3)]?.availability == nil)
        #expect(rows[Self.id(4)]?.availability == "private")
        #expect(rows[Self.id(5)]?.availability == "gone")
        // And a start in 1970 or 9999 is no start: upcoming, with no date to hide it by for decades
        #expect(rows[Self.id(6)]?.availability == "upcoming" && rows[Self.id(6)]?.scheduledStart == nil)
        #expect(rows[Self.id(7)]?.availability == "upcoming" && rows[Self.id(7)]?.scheduledStart == nil)
        // And a live video without liveStreamingDetails is live
        #expect(rows[Self.id(8)]?.availability == "live")
        for changed in [1, 2, 4, 5, 6, 7, 8] { #expect(rows[Self.id(changed)]!.seq > before[Self.id(changed)]!.seq) }

        // When it runs again at once, Then nothing is due and nothing is asked
        #expect(await enricher.pass().calls == 0)

        // When the premiere's start has passed and it is live, Then the re-check finds it live, with a fresh seq
        answering.liveStreaming.withLock { $0[Self.id(1)] = LiveStreamingFixture.live(start: Self.iso(start)) }
        clock.advance(by: 3600 + AvailabilityRecheck.afterStart)
        let recheck = await enricher.pass()
        #expect(recheck.calls == 1)
        #expect(answering.calls.last?.ids.contains(Self.id(1)) == true)
        #expect(answering.calls.last?.ids.contains(Self.id(3)) == false, "settled videos are not asked again")
        rows = try await Self.rows(store)
        #expect(rows[Self.id(1)]?.availability == "live" && rows[Self.id(1)]?.scheduledStart == nil)

        // When it has ended, Then the next re-check makes it available and it is asked about no more
        answering.liveStreaming.withLock { $0[Self.id(1)] = LiveStreamingFixture.ended(start: Self.iso(start), end: Self.iso(clock.now)) }
        clock.advance(by: AvailabilityRecheck.latestInterval)
        _ = await enricher.pass()
        rows = try await Self.rows(store)
        #expect(rows[Self.id(1)]?.availability == nil)
        let asked = answering.calls.count
        for _ in 0..<5 {
            clock.advance(by: AvailabilityRecheck.longestWait)
            _ = await enricher.pass()
        }
        #expect(answering.calls.dropFirst(asked).allSatisfy { !$0.ids.contains(Self.id(1)) })
    }

    @Test(arguments: PushStorage.allCases)
    func aVideoThatFlipsBetweenLiveAndUpcomingOnEveryAnswerIsAskedAboutABoundedNumberOfTimes(storage: PushStorage) async throws {
        // Given a video the API calls live, then upcoming, then live… on every call
        let clock = EnrichmentClock(Date(timeIntervalSince1970: 1_790_000_000))
        let stub = YouTubeAPIStub()
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let (store, enricher) = try await Self.setUp(storage, stubURL: stubURL, videos: 1, clock: clock)

        // When the enrichment runs every hour for ten days, several times each hour
        var changes = 0
        for _ in 0..<(10 * 24) {
            let answered = stub.calls.filter { $0.ids.contains(Self.id(1)) }.count
            stub.liveStreaming.withLock {
                $0[Self.id(1)] = answered.isMultiple(of: 2)
                    ? LiveStreamingFixture.live(start: Self.iso(clock.now)) : LiveStreamingFixture.upcoming(start: Self.iso(clock.now.addingTimeInterval(60)))
            }
            for _ in 0..<3 { changes += await enricher.pass().availabilityChanges }
            clock.advance(by: 3600)
        }

        // Then it was asked again and again, but 48 times at most (and 3 for its missing duration), each answer a change
        let asked = stub.calls.filter { $0.ids.contains(Self.id(1)) }.count
        #expect(asked > 10 && asked <= 48 + 3)
        #expect(changes == asked)
        // And it was left in a state a list shows or counts as watchable in time (live or upcoming), never gone
        let row = try #require(try await Self.rows(store)[Self.id(1)])
        #expect(row.availability == "live" || row.availability == "upcoming")
    }

    @Test(arguments: PushStorage.allCases)
    func aFeedReadingNeverUndoesTheDataAPIButAVideoWithViewsComesBack(storage: PushStorage) async throws {
        // Given the API's word on four videos the feed saw: a new upload with no views yet, a live stream,
        // a premiere next week, and one it left out
        let clock = EnrichmentClock(Date())
        let start = Date(timeIntervalSince1970: (clock.now.timeIntervalSince1970 + 7 * 86_400).rounded(.down))
        let stub = YouTubeAPIStub()
        stub.liveStreaming.withLock {
            $0[Self.id(1)] = LiveStreamingFixture.upload
            $0[Self.id(2)] = LiveStreamingFixture.live(start: Self.iso(clock.now.addingTimeInterval(-60)))
            $0[Self.id(3)] = LiveStreamingFixture.upcoming(start: Self.iso(start))
        }
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let (store, enricher) = try await Self.setUp(storage, stubURL: stubURL, videos: 4, clock: clock)
        _ = await enricher.pass()
        let checked = try await Self.rows(store)
        #expect([1, 2, 3, 4].map { checked[Self.id($0)]?.availability } == [nil, "live", "upcoming", "gone"])

        // When the feed reads them again with no views (which alone reads as upcoming)
        let reading = { (views: Int) in
            (1...4).map { number in
                var video = Support.video(number, channel: Support.channelID(1))
                video.published = clock.now.addingTimeInterval(-600)
                video.views = views
                video.availability = views == 0 ? .upcoming : .available
                return video
            }
        }
        _ = try await store.hub.ingest(FeedIngestion(channelID: Support.channelID(1), channelTitle: nil, videos: reading(0)))

        // Then the API's word stands: the upload stays available, the stream live, the premiere keeps its start,
        // the left-out one stays gone
        var rows = try await Self.rows(store)
        #expect([1, 2, 3, 4].map { rows[Self.id($0)]?.availability } == [nil, "live", "upcoming", "gone"])
        #expect(rows[Self.id(3)]?.scheduledStart == Self.iso(start))

        // When a later reading shows views on every one
        _ = try await store.hub.ingest(FeedIngestion(channelID: Support.channelID(1), channelTitle: nil, videos: reading(50)))

        // Then the premiere and the gone video come back as available under fresh seqs; the stream stays live
        rows = try await Self.rows(store)
        #expect([1, 2, 3, 4].map { rows[Self.id($0)]?.availability } == [nil, "live", nil, nil])
        #expect(rows[Self.id(3)]!.seq > checked[Self.id(3)]!.seq && rows[Self.id(4)]!.seq > checked[Self.id(4)]!.seq)
    }

    @Test func reChecksComeNearTheStartGrowApartWhileLateOrLiveAndEnd() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let next = { (state: LiveStreamingState, checks: Int) in AvailabilityRecheck.next(after: state, checks: checks, now: now)?.timeIntervalSince(now).rounded() }
        // An upcoming video: two minutes after its start, once a day while the start is far, never within ten minutes
        #expect(next(LiveStreamingState(availability: .upcoming, scheduledStart: now.addingTimeInterval(3600)), 1) == 3_720)
        #expect(next(LiveStreamingState(availability: .upcoming, scheduledStart: now.addingTimeInterval(9 * 86_400)), 1) == 86_400)
        #expect(next(LiveStreamingState(availability: .upcoming, scheduledStart: now.addingTimeInterval(60)), 1) == 600)
        // Late, without a start, or live: every ten minutes, growing to every two hours
        #expect(next(LiveStreamingState(availability: .upcoming, scheduledStart: now.addingTimeInterval(-3600)), 3) == 1_800)
        #expect(next(LiveStreamingState(availability: .upcoming), 1) == 600)
        #expect(next(LiveStreamingState(availability: .live), 2) == 1_200)
        #expect(next(LiveStreamingState(availability: .live), 40) == 7_200)
        // Gone: confirmed once after six hours; settled states and the 48th check end it
        #expect(next(.gone, 1) == 21_600)
        #expect(next(.gone, 2) == nil)
        for settled in [Availability.available, .privateVideo, .membersOnly] { #expect(next(LiveStreamingState(availability: settled), 1) == nil) }
        #expect(next(LiveStreamingState(availability: .live), AvailabilityRecheck.maxChecks) == nil)
    }

    @Test func aFeedReadingChangesAKnownVideosAvailabilityOnlyWithEvidence() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let start = 1_790_003_600.0
        let read = { (views: Int?, availability: Availability) in
            Video(id: "video000001", channelID: DemoCatalog.channelID(1), title: "t", published: now, availability: availability, views: views)
        }
        let resolve = { (video: Video, stored: String?, checked: Bool) in
            FeedAvailabilityPrecedence.resolve(incoming: video, stored: stored, storedStart: stored == "upcoming" ? start : nil, checkedByDataAPI: checked).0
        }
        // Without the Data API, the feed's own reading stands for available and upcoming
        #expect(resolve(read(0, .upcoming), nil, false) == .upcoming)
        #expect(resolve(read(3, .available), "upcoming", false) == .available)
        // The Data API's word stands against a feed with no views
        #expect(resolve(read(0, .upcoming), nil, true) == .available)
        #expect(resolve(read(0, .upcoming), "live", true) == .live)
        #expect(resolve(read(0, .available), "upcoming", true) == .upcoming)
        #expect(FeedAvailabilityPrecedence.resolve(incoming: read(0, .upcoming), stored: "upcoming", storedStart: start, checkedByDataAPI: true).1
            == Date(timeIntervalSince1970: start))
        // Views bring upcoming, private and gone back; a live stream stays live
        #expect(resolve(read(5, .available), "upcoming", true) == .available)
        #expect(resolve(read(5, .available), "private", true) == .available)
        #expect(resolve(read(5, .available), "gone", false) == .available)
        #expect(resolve(read(5, .available), "live", true) == .live)
        // A WebSub push of the entry (no counts) brings a gone video back; a feed with no views does not
        #expect(resolve(read(nil, .available), "gone", false) == .available)
        #expect(resolve(read(0, .upcoming), "gone", false) == .gone)
        #expect(resolve(read(nil, .available), "private", true) == .privateVideo)
    }

    @Test func theDataAPIFieldsReadAsTheStatesTheyDescribe() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let state = { (content: String?, scheduled: String?, started: String?, ended: String?, privacy: String?) in
            LiveStreamingState(
                liveBroadcastContent: content, scheduledStartTime: scheduled, actualStartTime: started, actualEndTime: ended,
                privacyStatus: privacy, uploadStatus: nil, now: now)
        }
        let soon = ISO8601Timestamp.format(now.addingTimeInterval(600))
        #expect(state("upcoming", soon, nil, nil, "public") == LiveStreamingState(availability: .upcoming, scheduledStart: now.addingTimeInterval(600)))
        #expect(state("upcoming", "1970-01-01T00:00:00Z", nil, nil, "public") == LiveStreamingState(availability: .upcoming))
        #expect(state("upcoming", "9999-12-31T23:59:59Z", nil, nil, "public") == LiveStreamingState(availability: .upcoming))
        #expect(state("upcoming", "not a time", nil, nil, nil) == LiveStreamingState(availability: .upcoming))
        #expect(state("live", nil, nil, nil, "public") == LiveStreamingState(availability: .live))
        #expect(state("none", soon, soon, soon, "public") == LiveStreamingState(availability: .available))
        #expect(state("live", nil, nil, nil, "private") == LiveStreamingState(availability: .privateVideo))
        #expect(state(nil, nil, soon, nil, nil) == LiveStreamingState(availability: .live))
        #expect(state(nil, nil, soon, soon, nil) == LiveStreamingState(availability: .available))
        #expect(state(nil, soon, nil, nil, nil) == LiveStreamingState(availability: .upcoming, scheduledStart: now.addingTimeInterval(600)))
        #expect(state("something new", nil, nil, nil, "unlisted") == LiveStreamingState(availability: .available))
        #expect(state(nil, nil, nil, nil, nil) == nil)
        #expect(LiveStreamingState(
            liveBroadcastContent: "none", scheduledStartTime: nil, actualStartTime: nil, actualEndTime: nil, privacyStatus: "public",
            uploadStatus: "rejected", now: now) == .gone)
    }
}
