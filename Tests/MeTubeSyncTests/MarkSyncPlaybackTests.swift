import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import MeTubeSync
import Testing

/// Playback positions between two real stores through the real mark-sync server on loopback: the
/// record's `playbackPosition`, newest wins, never a status conflict.
@Suite("Playback positions sync")
struct MarkSyncPlaybackTests {
    private func device() throws -> Store {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-playback-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Store.open(at: directory)
    }

    private func save(_ store: Store, _ videoID: String, _ seconds: Double) throws {
        try store.transaction { _ = $0.savePosition(videoID, seconds: seconds, duration: 1_200) }
    }

    @Test("a position travels to the other device; a concurrent mark elsewhere is no conflict and loses no position")
    func positionsConverge() async throws {
        let server = try await MarkSyncTestServer.start()
        let phone = try device(), laptop = try device()
        // Given the phone stopped a video at 10:00
        try save(phone, "video1", 600)
        _ = try await server.sync(phone).run()
        _ = try await server.sync(laptop).run()
        // Then the laptop has it, synced, and the phone's copy is synced too
        #expect(laptop.library().playbackPositions["video1"]?.seconds == 600)
        #expect(laptop.library().playbackPositions["video1"]?.syncState == .synced)
        #expect(phone.library().playbackPositions["video1"]?.syncState == .synced)

        // When the laptop plays on to 15:00 while the phone marks the video watched, and both sync
        try save(laptop, "video1", 900)
        try phone.mark("video1", as: .watched)
        _ = try await server.sync(laptop).run()
        _ = try await server.sync(phone).run()
        _ = try await server.sync(laptop).run()
        // Then both hold watched with no conflict, and the newest position, 15:00
        for store in [phone, laptop] {
            let mark = try #require(store.library().marks["video1"])
            #expect(mark.status == .watched && mark.syncState == .synced, "\(mark)")
            #expect(store.library().playbackPositions["video1"]?.seconds == 900)
        }
        #expect(try await server.serverStatuses() == ["video1": "watched"])
        await server.server.stop()
    }

    @Test("an iOS record without hlc dates its position by lastModified; an older one never replaces a newer one")
    func iOSLayoutMergesByLastModified() async throws {
        let server = try await MarkSyncTestServer.start()
        let laptop = try device()
        try save(laptop, "video2", 300)
        _ = try await server.sync(laptop).run()
        // When an iOS device writes an older position the iOS way (no hlc), then a newer one
        let zone = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        let tag = try #require(laptop.library().marks["video2"]?.base?.changeTag)
        let old = WatchedRecord(videoID: "video2", status: "unwatched", lastModified: 1_000, playbackPosition: 42)
        _ = try await server.client.modifyRecords(MarkSyncRecordsModifyRequest(operations: [.init(.update, record: old.record(changeTag: tag))], zoneID: zone))
        _ = try await server.sync(laptop).run()
        // Then the laptop keeps its newer position
        #expect(laptop.library().playbackPositions["video2"]?.seconds == 300)
        let newTag = try #require(laptop.library().marks["video2"]?.base?.changeTag)
        let newer = WatchedRecord(videoID: "video2", status: "unwatched", lastModified: Int64(Date().timeIntervalSince1970 * 1000) + 60_000,
                                        playbackPosition: 777.5)
        _ = try await server.client.modifyRecords(MarkSyncRecordsModifyRequest(operations: [.init(.update, record: newer.record(changeTag: newTag))], zoneID: zone))
        _ = try await server.sync(laptop).run()
        #expect(laptop.library().playbackPositions["video2"]?.seconds == 777.5)
        #expect(laptop.library().marks["video2"]?.syncState == .synced)
        await server.server.stop()
    }
}
