import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import Testing

@Suite("Status sync in the SyncEngine")
struct StatusSyncEngineTests {
    @Test("an engine with a status sync pushes marks after the video sync, and reports it")
    func engineRunsStatus() async throws {
        // Given a store with a pending mark and an engine that has a status sync but no hub
        let server = try await StatusTestServer.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-engine-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try Store.open(at: directory)
        try store.mark("v1", as: .skipped)
        let engine = SyncEngine(store: store, configuration: SyncConfiguration(), status: server.sync(store))
        // When it syncs
        let report = await engine.sync()
        await engine.shutdown()
        // Then the video part failed for want of a hub, but the mark was pushed and is synced
        #expect(report.error != nil)
        #expect(report.status?.pushed == 1 && report.statusError == nil)
        #expect(store.library().marks["v1"]?.syncState == .synced)
        #expect(try await server.serverStatuses() == ["v1": "skipped"])
        await server.server.stop()
    }
}
