import Foundation
import MeTubeCore
import MeTubeServer
import MeTubeStore
import MeTubeSync
import Testing

@Suite("Status sync with real stores")
struct MarkSyncStoreTests {
    /// A new store in its own temporary directory: one device.
    private func device() throws -> Store {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Store.open(at: directory)
    }

    /// Every mark's status in `store`, by video id.
    private func statuses(_ store: Store) -> [String: WatchStatus] {
        Dictionary(uniqueKeysWithValues: store.library().marks.values.map { ($0.videoID, $0.status) })
    }

    @Test("two stores converge; a concurrent different mark is a conflict settled by marking again")
    func convergeAndResolve() async throws {
        let server = try await MarkSyncTestServer.start()
        // Given two devices that marked different videos offline
        let phone = try device(), laptop = try device()
        try phone.mark("a", as: .watched)
        try laptop.mark("b", as: .skipped)
        _ = try await server.sync(phone).run()
        _ = try await server.sync(laptop).run()
        _ = try await server.sync(phone).run()
        #expect(statuses(phone) == ["a": .watched, "b": .skipped])
        #expect(statuses(laptop) == statuses(phone))

        // When both mark b differently and push one after the other
        try phone.mark("b", as: .watched)
        try laptop.mark("b", as: .unwatched)
        _ = try await server.sync(phone).run()
        _ = try await server.sync(laptop).run()
        // Then the laptop shows the conflict with the phone's value
        let conflicted = try #require(laptop.library().marks["b"])
        #expect(conflicted.syncState == .conflict && conflicted.theirs?.status == .watched)

        // When the user picks the phone's value on the laptop, and both sync
        try laptop.mark("b", as: .watched)
        _ = try await server.sync(laptop).run()
        _ = try await server.sync(phone).run()
        // Then both hold watched, synced, and the laptop's sync time is recorded
        for store in [phone, laptop] {
            #expect(store.library().marks["b"]?.status == .watched)
            #expect(store.library().marks.values.allSatisfy { $0.syncState == .synced })
        }
        #expect(laptop.syncSnapshot().lastMarkSync != nil)
        #expect(try await server.serverStatuses() == ["a": "watched", "b": "watched"])
        await server.server.stop()
    }

    @Test("the pull's token survives reopening the store; a reopened store pulls only what is new")
    func tokenSurvivesRestart() async throws {
        let server = try await MarkSyncTestServer.start()
        // Given a device that pulled 250 marks in pages of 100
        let writer = try device()
        for index in 0..<250 { try writer.mark("v\(index)", as: .watched) }
        _ = try await server.sync(writer).run()
        let reader = try device()
        _ = try await server.sync(reader, batchSize: 100).run()
        let token = reader.syncSnapshot().markSyncToken
        // When the reader's store is reopened, one more mark arrives, and it syncs again
        let reopened = try Store.open(at: reader.directory)
        try writer.mark("v0", as: .skipped)
        _ = try await server.sync(writer).run()
        let report = try await server.sync(reopened, batchSize: 100).run()
        // Then it kept its token and pulled exactly the one change
        #expect(token != nil && reopened.syncSnapshot().markSyncToken != token)
        #expect(report.pulled == 1)
        #expect(reopened.library().marks.count == 250 && reopened.library().marks["v0"]?.status == .skipped)
        await server.server.stop()
    }
}
