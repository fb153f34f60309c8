import Foundation
import MeTubeAPI
import MeTubeServer
import Testing

@Suite("Status changes/zone route")
struct MarkSyncChangesRouteTests {
    private static let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)

    private func fetch(_ client: MarkSyncTestClient, token: String?, limit: Int? = nil) async throws -> MarkSyncZoneChanges {
        let request = MarkSyncZoneChangesRequest(zones: [.init(zoneID: Self.zoneID, syncToken: token, resultsLimit: limit)])
        let response = try decode(MarkSyncZoneChangesResponse.self, try await client.post("changes/zone", request, token: client.alice))
        guard case .success(let changes) = response.zones.first else { throw MarkSyncErrorBody(.internalError, "\(response)") }
        return changes
    }

    @Test("changes page by resultsLimit with moreComing, then report updates and deletions once", arguments: MarkSyncStorage.allCases)
    func paging(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given 450 records written in three requests
            try await client.createZone(token: client.alice)
            for batch in 0..<3 {
                _ = try await client.modify((0..<150).map { .init(.create, record: watched("v\(batch * 150 + $0)")) }, token: client.alice)
            }
            // When alice fetches from the start 200 at a time
            var pages: [MarkSyncZoneChanges] = []
            var token: String?
            repeat {
                let page = try await fetch(client, token: token, limit: 200)
                pages.append(page)
                token = page.syncToken
            } while pages.last?.moreComing == true
            // Then she gets 200, 200, 50, every record once, in write order
            #expect(pages.map(\.records.count) == [200, 200, 50])
            #expect(pages.map(\.moreComing) == [true, true, false])
            #expect(pages.flatMap(\.records).compactMap(\.recordName) == (0..<450).map { "v\($0)" })

            // When one record is updated and another deleted, and she fetches again from her token
            _ = try await client.modify([
                .init(.forceUpdate, record: watched("v3", "skipped")), .init(.forceDelete, record: MarkSyncRecord(recordName: "v7")),
            ], token: client.alice)
            let next = try await fetch(client, token: token)
            let after = try await fetch(client, token: next.syncToken)
            // Then exactly those two changes come, the deletion as a tombstone, and nothing after
            #expect(next.records.map(\.recordName) == ["v3", "v7"])
            #expect(next.records.first.flatMap(WatchedRecord.init)?.status == "skipped")
            #expect(next.records.last == MarkSyncRecord(recordName: "v7", deleted: true))
            #expect(!next.moreComing && after.records.isEmpty && after.syncToken == next.syncToken)
        }
    }

    @Test("a fetch without a token leaves out deleted records; resultsLimit over the maximum is capped", arguments: MarkSyncStorage.allCases)
    func fullFetch(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given 250 records of which one is deleted
            try await client.createZone(token: client.alice)
            _ = try await client.modify((0..<200).map { .init(.create, record: watched("v\($0)")) }, token: client.alice)
            _ = try await client.modify((200..<250).map { .init(.create, record: watched("v\($0)")) }, token: client.alice)
            _ = try await client.modify([.init(.forceDelete, record: MarkSyncRecord(recordName: "v0"))], token: client.alice)
            // When she fetches from the start asking for 1000 a page
            let first = try await fetch(client, token: nil, limit: 1000)
            let second = try await fetch(client, token: first.syncToken, limit: 1000)
            // Then pages hold at most 200, the first (tokenless) has no tombstone, and the rest of the records follow
            #expect(first.records.count == 200 && first.moreComing)
            #expect(!first.records.contains { $0.deleted == true })
            #expect(second.records.filter { $0.deleted != true }.count == 49 && !second.moreComing)
        }
    }

    @Test("bad tokens, missing zones and bad limits get their documented errors", arguments: MarkSyncStorage.allCases)
    func errors(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given a zone, a token of it, and the zone deleted and recreated
            try await client.createZone(token: client.alice)
            let old = try await fetch(client, token: nil).syncToken
            _ = try await client.post("zones/modify", MarkSyncZonesModifyRequest(operations: [.init(.delete, zone: Self.zoneID)]), token: client.alice)
            try await client.createZone(token: client.alice)
            // When changes are asked with the old token, a garbage token, for a missing zone, and with resultsLimit 0
            let response = try decode(MarkSyncZoneChangesResponse.self, try await client.post("changes/zone", MarkSyncZoneChangesRequest(zones: [
                .init(zoneID: Self.zoneID, syncToken: old), .init(zoneID: Self.zoneID, syncToken: "garbage"), .init(zoneID: MarkSyncZoneID(zoneName: "Nope")),
            ]), token: client.alice))
            let zeroLimit = try await client.post("changes/zone", MarkSyncZoneChangesRequest(zones: [.init(zoneID: Self.zoneID)], resultsLimit: 0), token: client.alice)
            // Then each zone entry carries its error and the bad limit is a BAD_REQUEST
            let codes = response.zones.map(\.errorCode)
            #expect(codes == [.badRequest, .badRequest, .zoneNotFound])
            #expect(zeroLimit.status.code == 400)
        }
    }
}
