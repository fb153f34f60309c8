import Foundation
import Hummingbird
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

@Suite struct HubDirectModeTests {
    /// Channel ids and the Atom fixture each one's feed serves.
    static let feeds: [String: String] = [
        "UC9PBzalIcEQCsiIkq36PyUA": "capyreader_digital_foundry_channel.xml",
        "UC_aBYQ3phPsrkSXkpnZeDZw": "higuma_notify_japanese_channel.xml",
        "UCk195x4zYdMx4LhqEwhcPng": "podtube_ift_spanish_channel_2021.xml",
        "UCP7uiEZIqci43m22KDl0sNw": "rssparser_kotlin_jetbrains_channel.xml",
        "UCLA_DiR1FfKNvjuUpBHmylQ": "youpdated_nasa_channel_2026.xml",
    ]
    static let brokenChannel = "UCbrokenbrokenbrokenbrok"
    static let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MeTubeFeedsTests/Fixtures/youtube_atom")

    /// Serves `/feeds/{channelId}` from the fixtures with an ETag; the broken channel answers 500.
    static func feedRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/feeds/:channelId") { request, context -> Response in
            let channelID = try context.parameters.require("channelId")
            guard let file = feeds[channelID] else { return Response(status: .internalServerError) }
            if request.headers[.ifNoneMatch] == "\"\(file)\"" { return Response(status: .notModified) }
            let data = try Data(contentsOf: fixtureFolder.appendingPathComponent(file))
            return Response(status: .ok, headers: [.eTag: "\"\(file)\""], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        return router
    }

    @Test func directModeFetchesEveryFeedReportsTheFailingOneAndUsesConditionalGET() async throws {
        // Given a feed server and a store following its five channels plus one whose feed fails
        let directory = TemporaryDirectory("metube-direct")
        defer { directory.remove() }
        let server = try await LiveHub.start(router: Self.feedRouter(), repository: SQLiteHubRepository(path: directory.path("unused.sqlite")))
        defer { server.stop() }
        let channels = (Array(Self.feeds.keys) + [Self.brokenChannel]).map { Channel(id: $0) }
        let store = try HubSyncTestSupport.store(in: directory, following: channels)
        let configuration = SyncConfiguration(source: .direct, feedURLTemplate: server.url + "/feeds/{channelId}", directConcurrency: 8)
        let engine = SyncEngine(store: store, configuration: configuration)

        // When it syncs twice
        let first = await engine.sync()
        let second = await engine.sync()

        // Then the first run stores every entry of the followed channels and names the failing channel
        #expect(first.newVideos == 15 + 15 + 15 + 1 + 15)
        #expect(first.failedChannels.keys.sorted() == [Self.brokenChannel])
        #expect(first.failedChannels[Self.brokenChannel]?.description == "the server answered HTTP 500: Internal Server Error")
        #expect(store.library().channels["UC9PBzalIcEQCsiIkq36PyUA"]?.title == "Digital Foundry")
        #expect(store.library().videos.filter(\.isShortLink).count == 13)
        let fetches = store.syncSnapshot().channelFetches
        #expect(fetches[Self.brokenChannel]?.failingSince != nil)
        #expect(fetches["UC9PBzalIcEQCsiIkq36PyUA"]?.etag == "\"capyreader_digital_foundry_channel.xml\"")

        // And the second run gets 304s: nothing new, the failure still reported with its start time kept
        #expect(second.newVideos == 0)
        #expect(second.videosReceived == 0)
        #expect(store.syncSnapshot().channelFetches[Self.brokenChannel]?.failingSince == fetches[Self.brokenChannel]?.failingSince)
        #expect(!second.isComplete)
    }
}
