import Foundation
import Hummingbird
import Logging
import MeTubeCore
import MeTubeFeeds
@testable import MeTubeServer
import MeTubeStore
import MeTubeSync
import MeTubeYouTube
import Synchronization
import TestSupport
import Testing

/// A premiere from a real feed (the NASA fixture's `views="0"` entry) through a real hub, whose
/// Data API enrichment (a loopback stub in the documented shape) says it is upcoming and then
/// released, into a real client store.
@Suite struct DataAPIPremiereSyncTests {
    /// `videos.list` answering every id as an upload, except `premiere`, answered as `state` says;
    /// `channels.list` knowing no channel.
    final class VideosStub: Sendable {
        let premiere: String
        /// The premiere's `snippet`, `status` and `liveStreamingDetails` members.
        let state = Mutex("")

        init(premiere: String) { self.premiere = premiere }

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.get("/youtube/v3/videos") { request, _ -> Response in
                let ids = request.uri.queryParameters.get("id")?.split(separator: ",").map(String.init) ?? []
                let items = ids.map { id in
                    let members = id == self.premiere ? self.state.withLock { $0 } : Self.members(content: "none", details: nil)
                    return #"{"kind":"youtube#video","etag":"e","id":"\#(id)",\#(members)}"#
                }
                let body = #"{"kind":"youtube#videoListResponse","etag":"e","items":[\#(items.joined(separator: ","))],"pageInfo":{"totalResults":\#(items.count),"resultsPerPage":\#(items.count)}}"#
                return Response(status: .ok, headers: [.contentType: "application/json; charset=UTF-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
            }
            router.get("/youtube/v3/channels") { _, _ -> Response in
                Response(status: .ok, headers: [.contentType: "application/json; charset=UTF-8"], body: .init(byteBuffer: ByteBuffer(string: #"{"kind":"youtube#channelListResponse","items":[]}"#)))
            }
            return router
        }

        static func members(content: String, details: String?) -> String {
            #""snippet":{"title":"t","liveBroadcastContent":"\#(content)"},"status":{"uploadStatus":"processed","privacyStatus":"public"}"#
                + (details.map { #","liveStreamingDetails":{\#($0)}"# } ?? "")
        }
    }

    @Test func aPremiereIsUpcomingUntilTheDataAPISaysItIsReleasedAndThenEntersUnwatchedWithItsPublicationTime() async throws {
        // Given a hub holding the NASA feed as read an hour after its premiere was announced
        let directory = TemporaryDirectory("metube-premiere-sync")
        defer { directory.remove() }
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MeTubeFeedsTests/Fixtures/youtube_atom/youpdated_nasa_channel_2026.xml")
        let feed = try AtomFeedParser.parse(Data(contentsOf: fixture))
        let announced = try #require(feed.entries.first { $0.views == 0 })
        let readAt = try #require(announced.published).addingTimeInterval(3600)
        let videos = feed.entries.map { $0.video(fallbackDate: readAt) }
        let channelID = try #require(videos.first?.channelID)
        _ = try await hub.repository.register(channelIDs: [channelID])
        _ = try await hub.repository.ingest(FeedIngestion(channelID: channelID, channelTitle: feed.title, videos: videos))
        // And a Data API that schedules the premiere an hour from now
        let clock = SetClock()
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded(.down))
        let stub = VideosStub(premiere: announced.videoID)
        stub.state.withLock { $0 = VideosStub.members(content: "upcoming", details: #""scheduledStartTime":"\#(ISO8601Timestamp.format(start))""#) }
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let enrichment = SQLiteEnrichmentRepository(database: try ServerDatabase(path: directory.path("hub.sqlite")))
        let api = YouTubeDataAPI(configuration: YouTubeAPIConfiguration(key: "stubKey", baseURL: stubURL + "/youtube/v3"))
        let enricher = YouTubeEnricher(api: api, repository: enrichment, signal: WakeSignal(), logger: Logger(label: "enrichment"), now: { clock.date })
        let store = try HubSyncTestSupport.store(in: directory, following: [Channel(id: channelID, title: "NASA", addedAt: readAt)])
        let engine = SyncEngine(store: store, configuration: HubSyncTestSupport.configuration(hub.url))
        func unwatched() -> [String] { FeedQuery(filter: .unwatched).rows(in: store.library(), statusesKnown: true).map(\.video.id) }
        func upcoming() -> [String] { FeedQuery(filter: .upcoming).rows(in: store.library(), statusesKnown: true).map(\.video.id) }

        // When the enrichment runs and the client syncs
        #expect(await enricher.pass().availabilityChanges == 1)
        #expect(await engine.sync().error == nil)

        // Then the premiere waits under upcoming with its start, and unwatched holds the 14 uploads
        #expect(upcoming() == [announced.videoID])
        #expect(store.library().video(announced.videoID)?.scheduledStart == start)
        #expect(unwatched().count == 14 && !unwatched().contains(announced.videoID))

        // When the premiere has started and ended, and the re-check after its start finds it released
        stub.state.withLock {
            $0 = VideosStub.members(
                content: "none", details: #""scheduledStartTime":"\#(ISO8601Timestamp.format(start))","actualStartTime":"\#(ISO8601Timestamp.format(start))","actualEndTime":"\#(ISO8601Timestamp.format(start.addingTimeInterval(600)))""#)
        }
        clock.set(start.addingTimeInterval(AvailabilityRecheck.afterStart))
        #expect(await enricher.pass().availabilityChanges == 1)
        #expect(await engine.sync().error == nil)

        // Then it is in unwatched, under the publication time the feed gave it, and no longer upcoming
        #expect(upcoming().isEmpty)
        #expect(unwatched().contains(announced.videoID))
        #expect(store.library().video(announced.videoID)?.published == announced.published)
        #expect(store.library().video(announced.videoID)?.availability == .available)
    }
}

/// A clock the test sets.
private final class SetClock: Sendable {
    private let value = Mutex(Date())
    var date: Date { value.withLock { $0 } }
    func set(_ date: Date) { value.withLock { $0 = date } }
}
