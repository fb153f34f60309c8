import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
@testable import MeTubeServer
import MeTubeYouTube
import Synchronization
import TestSupport
import Testing

/// A loopback stand-in for the YouTube Data API v3: `GET /youtube/v3/videos` and
/// `/youtube/v3/channels` answer in the documented shapes from the data given, or with the
/// documented 403 `quotaExceeded` error, or with a malformed answer.
final class YouTubeAPIStub: Sendable {
    enum Mode: Sendable { case normal, quotaExceeded, malformed }

    /// One call the stub answered.
    struct Call: Sendable {
        let resource: String
        let part: String
        let ids: [String]
        let key: String
    }

    static let key = "AIzaTestKey_0123456789-abcdefghijklmnop"

    let durations: [String: String]
    /// The duration of every video not in `durations`, if any.
    let otherDuration: String?
    let channels: [String: (title: String, thumbnails: [String: String])]
    let mode: Mutex<Mode>
    /// The `snippet`, `status` and `liveStreamingDetails` members of each video's item, as JSON
    /// members (see ``LiveStreamingFixture``); a video given here is answered even without a duration.
    let liveStreaming = Mutex<[String: String]>([:])
    private let recorded = Mutex<[Call]>([])

    init(
        durations: [String: String] = [:], otherDuration: String? = nil, channels: [String: (title: String, thumbnails: [String: String])] = [:],
        mode: Mode = .normal
    ) {
        self.durations = durations
        self.otherDuration = otherDuration
        self.channels = channels
        self.mode = Mutex(mode)
    }

    var calls: [Call] { recorded.withLock { $0 } }

    var router: Router<BasicRequestContext> {
        let router = Router()
        router.get("/youtube/v3/:resource") { request, context -> Response in
            let resource = try context.parameters.require("resource")
            let query = request.uri.queryParameters
            let ids = query.get("id")?.split(separator: ",").map(String.init) ?? []
            self.recorded.withLock { $0.append(Call(resource: resource, part: query.get("part") ?? "", ids: ids, key: query.get("key") ?? "")) }
            switch self.mode.withLock({ $0 }) {
            case .quotaExceeded:
                return Self.json(403, """
                    {"error":{"code":403,"message":"The request cannot be completed because you have exceeded your <a href=\\"/youtube/v3/getting-started#quota\\">quota</a>.","errors":[{"message":"The request cannot be completed because you have exceeded your quota.","domain":"youtube.quota","reason":"quotaExceeded"}]}}
                    """)
            case .malformed:
                return Self.json(200, #"{"kind":"youtube#videoListResponse","items":"not a list"}"#)
            case .normal:
                break
            }
            guard query.get("key") == Self.key else {
                return Self.json(400, #"{"error":{"code":400,"message":"API key not valid.","errors":[{"reason":"badRequest"}]}}"#)
            }
            switch resource {
            case "videos":
                let items = ids.compactMap { id -> String? in
                    let duration = self.durations[id] ?? self.otherDuration
                    let live = self.liveStreaming.withLock { $0[id] }
                    guard duration != nil || live != nil else { return nil }
                    var members = [#""kind":"youtube#video","etag":"e","id":"\#(id)""#]
                    if let duration { members.append(#""contentDetails":{"duration":"\#(duration)","dimension":"2d","definition":"hd","caption":"false","licensedContent":true,"contentRating":{},"projection":"rectangular"}"#) }
                    if let live { members.append(live) }
                    return "{\(members.joined(separator: ","))}"
                }
                return Self.json(200, #"{"kind":"youtube#videoListResponse","etag":"e","items":[\#(items.joined(separator: ","))],"pageInfo":{"totalResults":\#(items.count),"resultsPerPage":\#(items.count)}}"#)
            case "channels":
                let encoder = JSONEncoder()
                let items = try ids.compactMap { id -> String? in
                    guard let channel = self.channels[id] else { return nil }
                    let title = String(decoding: try encoder.encode(channel.title), as: UTF8.self)
                    let thumbnails = channel.thumbnails.map { #""\#($0)":{"url":"\#($1)","width":88,"height":88}"# }.joined(separator: ",")
                    return #"{"kind":"youtube#channel","etag":"e","id":"\#(id)","snippet":{"title":\#(title),"description":"","publishedAt":"2006-01-01T00:00:00Z","thumbnails":{\#(thumbnails)},"localized":{"title":\#(title),"description":""}}}"#
                }
                return Self.json(200, #"{"kind":"youtube#channelListResponse","etag":"e","pageInfo":{"totalResults":\#(items.count),"resultsPerPage":5},"items":[\#(items.joined(separator: ","))]}"#)
            default:
                return Self.json(404, #"{"error":{"code":404,"message":"Not Found","errors":[{"reason":"notFound"}]}}"#)
            }
        }
        return router
    }

    private static func json(_ status: Int, _ text: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "application/json; charset=UTF-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

@Suite(.timeLimit(.minutes(1))) struct YouTubeEnrichmentTests {
    typealias Support = HubTestSupport

    /// A hub database of `storage` with `count` videos of channel 1 (and the channels given), an
    /// enricher that calls the stub with a daily budget of `dailyUnits`, and the log.
    static func setUp(
        _ storage: PushStorage, stubURL: String, videos count: Int, channels: [String] = [Support.channelID(1)], dailyUnits: Int = 10_000
    ) async throws -> (PushStore, YouTubeEnricher, LogCapture) {
        let store = try await storage.makeStore()
        _ = try await store.hub.register(channelIDs: channels)
        let videos = (1...max(1, count)).map { Support.video($0, channel: Support.channelID(1)) }
        if count > 0 { _ = try await store.hub.ingest(FeedIngestion(channelID: Support.channelID(1), channelTitle: "from the feed", videos: videos)) }
        let log = LogCapture()
        return (store, enricher(store, stubURL: stubURL, dailyUnits: dailyUnits, log: log), log)
    }

    /// An enricher over `store` that calls the stub with a daily budget of `dailyUnits`.
    static func enricher(_ store: PushStore, stubURL: String, dailyUnits: Int = 10_000, log: LogCapture = LogCapture()) -> YouTubeEnricher {
        let api = YouTubeDataAPI(key: YouTubeAPIStub.key, baseURL: stubURL + "/youtube/v3")
        return YouTubeEnricher(api: api, dailyUnits: dailyUnits, repository: store.enrichment, signal: WakeSignal(), logger: log.logger)
    }

    @Test(arguments: PushStorage.allCases)
    func durationsAndChannelDetailsAreFilledInWithFreshSeqsWithinTheQuota(storage: PushStorage) async throws {
        // Given 60 videos the API knows in various shapes, and two channels
        let id = { (number: Int) in DemoCatalog.videoID(number) }
        var durations: [String: String] = [:]
        for number in 1...60 { durations[id(number)] = "PT\(number)M\(number)S" }
        durations[id(1)] = "P1DT2H3M4S"
        durations[id(2)] = "P0D"
        durations[id(3)] = "P30D"
        durations[id(4)] = "about ten minutes"
        durations[id(5)] = "PT4M13.5S"
        durations[id(6)] = nil
        let stub = YouTubeAPIStub(durations: durations, channels: [
            Support.channelID(1): ("Real \u{202E}Title\u{0007}\nline two", ["default": "https://yt3.example/d.jpg", "medium": "https://yt3.example/m.jpg"]),
            Support.channelID(2): ("Plain", ["default": "http://insecure.example/d.jpg"]),
        ])
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let (store, enricher, log) = try await Self.setUp(storage, stubURL: stubURL, videos: 60, channels: [Support.channelID(1), Support.channelID(2)])
        let hub = store.hub
        let before = try await hub.videos(matching: HubVideoSelection(limit: 500))

        // When the enrichment runs a pass
        let pass = await enricher.pass()

        // Then it made two videos.list calls of at most 50 ids and one channels.list call, each one unit
        #expect(pass.calls == 3)
        #expect(stub.calls.map(\.resource) == ["videos", "videos", "channels"])
        #expect(stub.calls.allSatisfy { $0.ids.count <= 50 && $0.key == YouTubeAPIStub.key })
        #expect(stub.calls[0].part == "contentDetails,snippet,liveStreamingDetails,status" && stub.calls[2].part == "snippet")
        let usage = try await store.enrichment.quotaUsage(day: UTCDay.string(Date()))
        #expect(usage.used == 3 && !usage.exceeded)
        // And the usable durations are stored, the absurd and unreadable ones refused, live (P0D) left empty,
        // and the one the API left out is gone
        #expect(pass.durations == 56)
        #expect(pass.rejected == 2)
        #expect(pass.availabilityChanges == 1)
        let after = try await hub.videos(matching: HubVideoSelection(afterSeq: before.maxSeqReturned, limit: 500))
        let byID = Dictionary(uniqueKeysWithValues: after.videos.map { ($0.videoID, $0) })
        #expect(byID.count == 57)
        #expect(byID[id(6)]?.availability == "gone" && byID[id(6)]?.durationSeconds == nil)
        #expect(byID[id(1)]?.durationSeconds == 93_784)
        #expect(byID[id(5)]?.durationSeconds == 253)
        #expect(byID[id(60)]?.durationSeconds == 3_660)
        for unreadable in [2, 3, 4] { #expect(byID[id(unreadable)] == nil) }
        // And the channels got a sanitized one-line title and an https thumbnail only
        let channels = try await hub.channels(after: nil, limit: 10)
        let first = try #require(channels.first { $0.channelID == Support.channelID(1) })
        #expect(first.title == "Real Title line two")
        #expect(first.thumbnailURL == "https://yt3.example/m.jpg")
        let second = try #require(channels.first { $0.channelID == Support.channelID(2) })
        #expect(second.title == "Plain" && second.thumbnailURL == nil)
        #expect(log.entries.contains { $0.message == "YouTube Data API enrichment" && $0.metadata["unitsToday"] == "3" })

        // And a second pass finds nothing due and spends nothing
        #expect(await enricher.pass().calls == 0)
        #expect(stub.calls.count == 3)
    }

    @Test(arguments: PushStorage.allCases)
    func theDailyBudgetPausesTheEnrichmentAndSaysSo(storage: PushStorage) async throws {
        // Given 60 videos and a budget of one unit a day
        let stub = YouTubeAPIStub(durations: Dictionary(uniqueKeysWithValues: (1...60).map { (DemoCatalog.videoID($0), "PT1M") }))
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let (_, enricher, log) = try await Self.setUp(storage, stubURL: stubURL, videos: 60, dailyUnits: 1)

        // When it runs twice
        let first = await enricher.pass()
        let second = await enricher.pass()

        // Then one call was made, the pass paused, the pause logged once, and nothing more was asked
        #expect(first.calls == 1 && first.paused)
        #expect(second.calls == 0 && second.paused)
        #expect(stub.calls.count == 1)
        #expect(log.entries.filter { $0.level == .warning && $0.message.contains("paused until the next UTC day") }.count == 1)
    }

    @Test(arguments: PushStorage.allCases)
    func aQuotaExceededAnswerPausesUntilTheNextDay(storage: PushStorage) async throws {
        // Given an API that answers 403 quotaExceeded
        let stub = YouTubeAPIStub(mode: .quotaExceeded)
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let (store, enricher, log) = try await Self.setUp(storage, stubURL: stubURL, videos: 10)

        // When it runs twice
        let first = await enricher.pass()
        let second = await enricher.pass()

        // Then the first pass stopped at the answer, the day is marked spent, and the second asked nothing
        #expect(first.paused && !first.failed)
        #expect(second.paused && second.calls == 0)
        #expect(stub.calls.count == 1)
        #expect(try await store.enrichment.quotaUsage(day: UTCDay.string(Date())).exceeded)
        let warning = try #require(log.entries.first { $0.level == .warning && $0.message.contains("quota spent") })
        #expect(warning.metadata["reason"]?.contains("quotaExceeded") == true)
    }

    @Test(arguments: PushStorage.allCases)
    func malformedAnswersAreLoggedWithoutTheKeyAndBackOff(storage: PushStorage) async throws {
        // Given an API whose answers are not in the documented shape
        let stub = YouTubeAPIStub(mode: .malformed)
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let (store, enricher, log) = try await Self.setUp(storage, stubURL: stubURL, videos: 10)

        // When it runs twice
        let first = await enricher.pass()
        let second = await enricher.pass()

        // Then the failure is logged (never with the key), nothing is stored, and the second pass waits for the backoff
        #expect(first.failed && first.calls == 1)
        #expect(second.calls == 0)
        #expect(stub.calls.count == 1)
        let failure = try #require(log.entries.first { $0.message.contains("enrichment failed") })
        #expect(failure.metadata["error"]?.contains("not a videos list") == true)
        #expect(!log.entries.contains { entry in entry.message.contains(YouTubeAPIStub.key) || entry.metadata.values.contains { $0.contains(YouTubeAPIStub.key) } })
        #expect(try await store.hub.videos(matching: HubVideoSelection(limit: 500)).videos.allSatisfy { $0.durationSeconds == nil })
    }

    @Test(arguments: PushStorage.allCases)
    func aFailingAPINeverHoldsUpIngestion(storage: PushStorage) async throws {
        // Given a live server that polls a loopback feed server and enriches through an API that answers garbage
        let stub = YouTubeAPIStub(mode: .malformed)
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        try await HubIngestionTests.feedServer().test(.live) { feedClient in
            let feedPort = try #require(feedClient.port)
            var configuration = ServerConfiguration(
                feedURLTemplate: "http://127.0.0.1:\(feedPort)/feeds/{channelId}", pollInterval: .seconds(3600))
            configuration.youTubeAPI = YouTubeAPIConfiguration(key: YouTubeAPIStub.key, baseURL: stubURL + "/youtube/v3")
            try await storage.makeStore().withLiveServer(configuration) { client in
                // When a channel is registered
                try await client.execute(uri: HubAPI.registerPath, method: .post, body: try Support.json(HubRegisterRequest(channelIDs: ["UC9PBzalIcEQCsiIkq36PyUA"])))

                // Then its videos arrive through the first fetch, without durations
                let videos = try await eventually("the videos never arrived") {
                    let page = try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try Support.json(HubVideoQuery(afterSeq: 0, limit: 500))) {
                        try Support.decode(HubVideoPage.self, $0.body)
                    }
                    return page.videos.isEmpty ? nil : page.videos
                }
                #expect(videos.count == 15)
                #expect(videos.allSatisfy { $0.durationSeconds == nil })
            }
        }
    }

    @Test(arguments: PushStorage.allCases)
    func polledVideosGetTheirDurationsSoonAfterIngestion(storage: PushStorage) async throws {
        // Given a live server that polls a loopback feed server and enriches through a working API
        let stub = YouTubeAPIStub(otherDuration: "PT7M30S", channels: ["UC9PBzalIcEQCsiIkq36PyUA": ("Digital Foundry", ["medium": "https://yt3.example/df.jpg"])])
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        try await HubIngestionTests.feedServer().test(.live) { feedClient in
            let feedPort = try #require(feedClient.port)
            var configuration = ServerConfiguration(feedURLTemplate: "http://127.0.0.1:\(feedPort)/feeds/{channelId}", pollInterval: .seconds(3600))
            configuration.youTubeAPI = YouTubeAPIConfiguration(key: YouTubeAPIStub.key, baseURL: stubURL + "/youtube/v3", idleInterval: .seconds(3600))
            try await storage.makeStore().withLiveServer(configuration) { client in
                // When a channel is registered (its first fetch wakes the enrichment; the idle interval is an hour)
                try await client.execute(uri: HubAPI.registerPath, method: .post, body: try Support.json(HubRegisterRequest(channelIDs: ["UC9PBzalIcEQCsiIkq36PyUA"])))

                // Then its 15 videos come with their durations, and the channel with its thumbnail
                let (withDurations, channel) = try await eventually("the durations never arrived") { () -> ([HubVideo], HubChannel?)? in
                    let videos = try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try Support.json(HubVideoQuery(afterSeq: 0, limit: 500))) {
                        try Support.decode(HubVideoPage.self, $0.body)
                    }.videos.filter { $0.durationSeconds == 450 }
                    let channel = try await client.execute(uri: HubAPI.channelsPath, method: .post) { try Support.decode(HubChannelList.self, $0.body) }.channels.first
                    return videos.count == 15 && channel?.thumbnailURL != nil ? (videos, channel) : nil
                }
                #expect(withDurations.count == 15)
                #expect(channel?.thumbnailURL == "https://yt3.example/df.jpg")
                #expect(stub.calls.filter { $0.resource == "videos" }.count == 1)
            }
        }
    }

    @Test func theKeyComesFromTheOptionTheFileOrTheEnvironmentAndIsNeverQuoted() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("metube-key-\(UUID().uuidString)")
        try Data("  fromFile_123\n".utf8).write(to: file)
        let environment = [YouTubeAPIConfiguration.keyEnvironmentVariable: "fromEnvironment"]
        #expect(try YouTubeAPIConfiguration.key(option: "fromOption", file: nil, environment: environment) == "fromOption")
        #expect(try YouTubeAPIConfiguration.key(option: nil, file: file.path, environment: environment) == "fromFile_123")
        #expect(try YouTubeAPIConfiguration.key(option: nil, file: nil, environment: environment) == "fromEnvironment")
        #expect(try YouTubeAPIConfiguration.key(option: nil, file: nil, environment: [:]) == nil)
        #expect(throws: ServerError.self) { try YouTubeAPIConfiguration.key(option: "a", file: file.path, environment: [:]) }
        #expect(throws: ServerError.self) { try YouTubeAPIConfiguration.key(option: nil, file: "/nonexistent/key", environment: [:]) }
        do {
            _ = try YouTubeAPIConfiguration.key(option: "secret key with spaces", file: nil, environment: [:])
            Issue.record("a malformed key was accepted")
        } catch {
            #expect(!"\(error)".contains("secret"))
        }
        #expect(throws: ServerError.self) { try YouTubeAPIConfiguration(key: "k", dailyUnits: 0).validate() }
    }
}
