import Foundation
import MeTubeCore
@testable import MeTubeServer
import MeTubeStore
import MeTubeSync
import Testing
import TestSupport

/// Availability from a real hub (SQLite file, served on 127.0.0.1) into a real client store:
/// a premiere, its release, and a WebSub deletion.
@Suite struct HubAvailabilitySyncTests {
    @Test func aPremiereWaitsInUpcomingEntersUnwatchedWhenReleasedAndADeletionReachesAClientThatHadTheVideo() async throws {
        // Given a hub holding an upload and a premiere of one channel, and a store following it
        let directory = TemporaryDirectory("metube-hub-availability")
        defer { directory.remove() }
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        let library = SyntheticLibrary(channelCount: 1)
        let channel = library.channels()[0]
        _ = try await hub.repository.register(channelIDs: [channel.id])
        var upload = library.video(0)
        upload.published = Date().addingTimeInterval(-3_600)
        var premiere = library.video(1)
        premiere.published = Date().addingTimeInterval(-60)
        premiere.availability = .upcoming
        _ = try await hub.repository.ingest(FeedIngestion(channelID: channel.id, channelTitle: nil, videos: [upload, premiere]))
        let store = try HubSyncTestSupport.store(in: directory, following: [channel])
        let engine = SyncEngine(store: store, configuration: HubSyncTestSupport.configuration(hub.url))
        func unwatched() -> [String] { FeedQuery(filter: .unwatched).rows(in: store.library(), statusesKnown: true).map(\.video.id) }
        func upcoming() -> [String] { FeedQuery(filter: .upcoming).rows(in: store.library(), statusesKnown: true).map(\.video.id) }

        // When it syncs, Then the premiere is upcoming, listed under upcoming and not under unwatched
        #expect(await engine.sync().error == nil)
        #expect(store.library().video(premiere.id)?.availability == .upcoming)
        #expect(unwatched() == [upload.id])
        #expect(upcoming() == [premiere.id])

        // When the feed shows the premiere released (views now) and it syncs again
        premiere.availability = .available
        premiere.published = Date()
        #expect(try await hub.repository.ingest(FeedIngestion(channelID: channel.id, channelTitle: nil, videos: [premiere])).updated == 1)
        #expect(await engine.sync().error == nil)

        // Then it is in unwatched, newest first, and no longer upcoming
        #expect(unwatched() == [premiere.id, upload.id])
        #expect(upcoming().isEmpty)

        // When WebSub announces the upload's deletion (and a video and a channel the hub never had)
        let webSub = SQLiteWebSubRepository(database: try ServerDatabase(path: directory.path("hub.sqlite")))
        #expect(try await webSub.markVideosGone([upload.id, "ZZZZZZZZZZZ"], of: channel.id) == 1)
        #expect(try await webSub.markVideosGone([upload.id], of: SyntheticLibrary.channelID(5)) == 0)
        #expect(await engine.sync().error == nil)

        // Then the client that had the upload knows it is gone: out of unwatched, in all with its reason
        #expect(store.library().video(upload.id)?.availability == .gone)
        #expect(unwatched() == [premiere.id])
        #expect(FeedQuery(filter: .all).rows(in: store.library(), statusesKnown: true).map(\.video.id) == [premiere.id, upload.id])
    }
}
