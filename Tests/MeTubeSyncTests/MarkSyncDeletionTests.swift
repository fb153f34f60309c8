import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeStore
import MeTubeSync
import Testing

@Suite("Pulled deletions")
struct MarkSyncDeletionTests {
    @Test("a deleted record forgets a synced mark, and a pending mark survives and is pushed again")
    func deletionsApply() async throws {
        // Given a store whose marks on v1 and v2 are synced, then v2 is re-marked (pending)
        let server = try await MarkSyncTestServer.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-deletion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try Store.open(at: directory)
        let sync = server.sync(store)
        try store.mark("v1", as: .watched)
        try store.mark("v2", as: .watched)
        _ = try await sync.run()
        try store.mark("v2", as: .skipped)
        // When another client deletes both records and this store pulls
        let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        let deletions = ["v1", "v2"].map { MarkSyncRecordsModifyRequest.Operation(.forceDelete, record: MarkSyncRecord(recordName: $0)) }
        _ = try await server.client.modifyRecords(MarkSyncRecordsModifyRequest(operations: deletions, zoneID: zoneID))
        let pulled = try await sync.pullChanges()
        // Then the synced mark is gone (unknown again) and the pending one is still pending
        #expect(pulled.pulled == 2)
        #expect(store.library().marks["v1"] == nil)
        #expect(store.library().marks["v2"]?.syncState == .pending && store.library().marks["v2"]?.status == .skipped)
        // And after a restart the deletion is still applied, and the next push recreates v2
        let reopened = try Store.open(at: directory)
        #expect(reopened.library().marks["v1"] == nil)
        _ = try await server.sync(reopened).run()
        #expect(reopened.library().marks["v2"]?.syncState == .synced)
        #expect(try await server.serverStatuses() == ["v2": "skipped"])
        await server.server.stop()
    }
}
