import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

@Suite struct FullResyncTests {
    typealias Support = HubSyncTestSupport

    @Test func aFullResyncFetchesEverythingAgainKeepsLocalMarksAndDuplicatesNothing() async throws {
        // Given a real hub and mark-sync server, and a store that synced both
        let directory = TemporaryDirectory("metube-full-resync")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 3, videoCount: 30, markCount: 0, newest: Date())
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        try await hub.seed(library)
        let server = try await MarkSyncTestServer.start()
        defer { Task { await server.server.stop() } }
        let phone = MarkSyncTestDevice("phone")
        let ids = (0..<4).map(SyntheticLibrary.videoID)
        phone.mark(ids[0], .watched)
        phone.mark(ids[1], .skipped)
        _ = try await server.sync(phone).run()
        let store = try Support.store(in: directory, following: library.channels())
        let engine = SyncEngine(store: store, configuration: Support.configuration(hub.url), markSync: server.sync(store))
        _ = await engine.sync()
        #expect(store.library().videos.count == 30)

        // And a conflict on video 0 (the phone changed it while this store changed it too)
        phone.mark(ids[0], .unwatched)
        _ = try await server.sync(phone).run()
        try store.mark(ids[0], as: .skipped)
        _ = await engine.sync()
        #expect(store.library().marks[ids[0]]?.syncState == .conflict)

        // And a store that is stuck: its watermark is far ahead of the hub, so new uploads never arrive
        try store.syncTransaction { $0.sync.hubWatermark = 1_000_000_000_000 }
        _ = try await hub.repository.ingest(FeedIngestion(channelID: library.channels()[0].id, channelTitle: nil, videos: Support.freshVideos(3, from: 40_000, of: library)))
        let stuck = await engine.sync()
        #expect(stuck.newVideos == 0)
        #expect(stuck.markSync?.pulled == 0)

        // When a pending mark is made and a full resync runs
        try store.mark(ids[2], as: .watched)
        let report = await engine.sync(full: true)

        // Then everything was fetched and pulled again, nothing is duplicated, the pending mark
        // was pushed, and the conflict is kept for the user
        #expect(report.error == nil && report.markSyncError == nil)
        #expect(report.newVideos == 3)
        #expect(report.markSync?.pulled ?? 0 >= 3)
        let videos = store.library().videos
        #expect(videos.count == 33)
        #expect(Set(videos.map(\.id)).count == 33)
        let marks = store.library().marks
        #expect(marks.count == 3)
        #expect(marks[ids[1]]?.status == .skipped && marks[ids[1]]?.syncState == .synced)
        #expect(marks[ids[2]]?.status == .watched && marks[ids[2]]?.syncState == .synced)
        #expect(marks[ids[0]]?.syncState == .conflict && marks[ids[0]]?.status == .skipped)
        #expect(try await server.serverStatuses()[ids[2]] == "watched")
        await engine.shutdown()
    }
}
