import Foundation
import MeTubeAPI
import MeTubeServer
import Testing

@Suite("Status SQLite repository")
struct StatusSQLiteRepositoryTests {
    @Test("users, zones, records and change tags survive reopening the file")
    func persistence() async throws {
        // Given a service on an SQLite file with a user, a zone and a record
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("status.sqlite").path
        let first = StatusService(repository: try SQLiteStatusRepository(path: path))
        let token = try await first.addUser(name: "carol")
        let caller = try await first.authenticate(container: StatusConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token)
        let zoneID = StatusZoneID(zoneName: WatchedStatusRecord.zoneName)
        _ = try await first.modifyZones(StatusZonesModifyRequest(operations: [.init(.create, zone: zoneID)]), caller: caller)
        let created = try await first.modifyRecords(StatusRecordsModifyRequest(operations: [.init(.create, record: watched("v1"))], zoneID: zoneID), bodyBytes: 0, caller: caller)
        let tag = try #require(created.records.first?.record?.recordChangeTag)

        // When the file is opened again by a new service
        let second = StatusService(repository: try SQLiteStatusRepository(path: path))
        let again = try await second.authenticate(container: StatusConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token)
        let updated = try await second.modifyRecords(StatusRecordsModifyRequest(operations: [.init(.update, record: watched("v1", "skipped", tag: tag))], zoneID: zoneID), bodyBytes: 0, caller: again)
        let changes = try await second.zoneChanges(StatusZoneChangesRequest(zones: [.init(zoneID: zoneID)]), caller: again)

        // Then the token still works, the old change tag still matches, and the change history holds the record
        #expect(again.user == caller.user)
        #expect(updated.records.first?.record.flatMap(WatchedStatusRecord.init)?.status == "skipped")
        guard case .success(let zone) = changes.zones.first else { Issue.record("no changes"); return }
        #expect(zone.records.map(\.recordName) == ["v1"])
    }
}
