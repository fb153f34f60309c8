import Foundation
import MeTubeAPI
import MeTubeServer
import Testing

@Suite("Status zones routes")
struct MarkSyncZoneRouteTests {
    @Test("a created zone is listed and found; creating it again answers the same zone", arguments: MarkSyncStorage.allCases)
    func createListLookup(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given a zone created by alice
            let request = MarkSyncZonesModifyRequest(operations: [.init(.create, zone: MarkSyncZoneID(zoneName: "WatchedStatusZone"))])
            let first = try decode(MarkSyncZonesResponse.self, try await client.post("zones/modify", request, token: client.alice))
            // When she creates it again, lists and looks up zones
            let second = try decode(MarkSyncZonesResponse.self, try await client.post("zones/modify", request, token: client.alice))
            let list = try decode(MarkSyncZonesResponse.self, try await client.get("zones/list", token: client.alice))
            let lookup = try decode(MarkSyncZonesResponse.self, try await client.post(
                "zones/lookup", MarkSyncZonesLookupRequest(zones: [MarkSyncZoneID(zoneName: "WatchedStatusZone"), MarkSyncZoneID(zoneName: "Nope")]), token: client.alice))
            // Then creation is idempotent, the list holds the default zone and hers, and the missing one is ZONE_NOT_FOUND
            #expect(first == second)
            guard case .success(let zone) = first.zones.first else { Issue.record("no zone: \(first)"); return }
            #expect(zone.zoneID == MarkSyncZoneID(zoneName: "WatchedStatusZone", ownerRecordName: "_alice"))
            #expect(zone.atomic == true && zone.syncToken != nil)
            #expect(list.zones.compactMap(\.zoneName) == ["WatchedStatusZone", "_defaultZone"])
            #expect(lookup.zones.first == .success(zone))
            guard case .failure(let missing) = lookup.zones.last else { Issue.record("missing zone found"); return }
            #expect(missing.serverErrorCode == .zoneNotFound)
        }
    }

    @Test("deleting a zone removes it and its records; the default zone cannot be deleted", arguments: MarkSyncStorage.allCases)
    func delete(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given a zone holding a record
            try await client.createZone(token: client.alice)
            _ = try await client.modify([.init(.create, record: watched("v1"))], token: client.alice)
            // When alice deletes it, the default zone and a missing zone, then recreates it
            let response = try decode(MarkSyncZonesResponse.self, try await client.post("zones/modify", MarkSyncZonesModifyRequest(operations: [
                .init(.delete, zone: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)),
                .init(.delete, zone: MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName)),
                .init(.delete, zone: MarkSyncZoneID(zoneName: "Missing")),
            ]), token: client.alice))
            try await client.createZone(token: client.alice)
            let lookup = try await client.post("records/lookup", MarkSyncRecordsLookupRequest(
                records: [.init(recordName: "v1")], zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)), token: client.alice)
            // Then the zone went, the default zone stayed, the missing one was not found, and the recreated zone is empty
            let codes = response.zones.map(\.errorCode)
            #expect(codes == [nil, .badRequest, .zoneNotFound])
            #expect(try decode(MarkSyncRecordsResponse.self, lookup).records.first?.errorCode == .notFound)
        }
    }

    @Test("two operations on one zone in a request are refused", arguments: MarkSyncStorage.allCases)
    func duplicateZoneOperations(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given a request creating and deleting the same zone
            let request = MarkSyncZonesModifyRequest(operations: [.init(.create, zone: MarkSyncZoneID(zoneName: "Z")), .init(.delete, zone: MarkSyncZoneID(zoneName: "Z"))])
            // When it is sent
            let response = try await client.post("zones/modify", request, token: client.alice)
            // Then it is a BAD_REQUEST
            #expect(response.status.code == 400)
            #expect(try decode(MarkSyncErrorBody.self, response).serverErrorCode == .badRequest)
        }
    }
}
