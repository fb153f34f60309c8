import Foundation
import HummingbirdTesting
import MeTubeAPI
import MeTubeServer
import NIOCore
import Testing

@Suite("Status routes in the full metube-server")
struct MarkSyncLiveServerTests {
    @Test("the full application serves the status routes over HTTP from its one database file")
    func fullApplication() async throws {
        // Given the whole server on 127.0.0.1:0 with a database file, and a user added to it
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let hubPath = directory.appendingPathComponent("hub.sqlite").path
        let token = try await MarkSyncService(repository: try SQLiteMarkSyncRepository(path: hubPath)).addUser(name: "dana")
        let app = try await buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, databasePath: hubPath, pollInterval: nil))

        try await app.test(.live) { client in
            // When the user creates the zone, writes a record and fetches changes, and a stranger lists zones
            let base = "/database/1/\(MarkSyncConfiguration.defaultContainer)/production/private/"
            let auth = "?ckAPIToken=\(MarkSyncConfiguration.defaultAPIToken)&ckWebAuthToken=\(token)"
            let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
            let zone = try await client.execute(uri: base + "zones/modify" + auth, method: .post, body: ByteBuffer(bytes: JSONEncoder().encode(
                MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID)]))))
            let modify = try await client.execute(uri: base + "records/modify" + auth, method: .post, body: ByteBuffer(bytes: JSONEncoder().encode(
                MarkSyncRecordsModifyRequest(operations: [.init(.create, record: watched("v1"))], zoneID: zoneID))))
            let changes = try await client.execute(uri: base + "changes/zone" + auth, method: .post, body: ByteBuffer(bytes: JSONEncoder().encode(
                MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID)]))))
            let stranger = try await client.execute(uri: base + "zones/list?ckAPIToken=metube&ckWebAuthToken=nobody", method: .get)
            // Then every call succeeds in the documented shape and the stranger is refused
            #expect(zone.status == .ok && modify.status == .ok)
            let fetched = try decode(MarkSyncZoneChangesResponse.self, changes)
            guard case .success(let page) = fetched.zones.first else { Issue.record("no changes: \(fetched)"); return }
            #expect(page.records.map(\.recordName) == ["v1"])
            #expect(stranger.status.code == 421)
            #expect(try decode(MarkSyncErrorBody.self, stranger).serverErrorCode == .authenticationRequired)
        }
    }
}
