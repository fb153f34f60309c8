import Foundation
import MeTubeAPI
import MeTubeServer
import Testing

/// `zones/lookup` with many names at once, read in one transaction, answers each name as a
/// lookup of that name alone does.
@Suite("Status zones lookup")
struct MarkSyncZoneLookupTests {
    @Test("a lookup of many zones answers each as its own lookup does, in order", arguments: MarkSyncStorage.allCases)
    func manyZonesAnswerAsOneByOne(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given alice's zones Z00 to Z39 and "é" written decomposed, and bob's zone "Bobs"
            let decomposed = "e\u{301}"
            let created = (0..<40).map { String(format: "Z%02d", $0) } + [decomposed]
            for name in created { try await client.createZone(name, token: client.alice) }
            try await client.createZone("Bobs", token: client.bob)

            // When she looks up her zones, missing ones, duplicates, the default zone (never used
            // before), a zone named as bob's, bob's zone's name, "é" precomposed, and bad names
            let zones = created.reversed().map { MarkSyncZoneID(zoneName: $0) }
                + (0..<100).map { MarkSyncZoneID(zoneName: "Missing\($0)") }
                + [
                    MarkSyncZoneID(zoneName: "Z07"), MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName), MarkSyncZoneID(zoneName: "Z07"),
                    MarkSyncZoneID(zoneName: "Z08", ownerRecordName: "_bob"), MarkSyncZoneID(zoneName: "Z09", ownerRecordName: "_alice"),
                    MarkSyncZoneID(zoneName: "Bobs"), MarkSyncZoneID(zoneName: "\u{e9}"), MarkSyncZoneID(zoneName: ""),
                    MarkSyncZoneID(zoneName: String(repeating: "x", count: MarkSyncService.maxNameBytes + 1)),
                    MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName), MarkSyncZoneID(zoneName: "Missing3"),
                ]
            let response = try await client.post("zones/lookup", MarkSyncZonesLookupRequest(zones: zones), token: client.alice)
            let lookup = try decode(MarkSyncZonesResponse.self, response)

            // Then each answer is what looking that zone up alone answers
            #expect(response.status == .ok)
            var alone: [MarkSyncZoneResult] = []
            for zone in zones {
                let single = try await client.post("zones/lookup", MarkSyncZonesLookupRequest(zones: [zone]), token: client.alice)
                alone += try decode(MarkSyncZonesResponse.self, single).zones
            }
            #expect(lookup.zones == alone)
            // And her zones are found, the missing ones, bob's and "é" precomposed are not, the
            // foreign owner is refused, bad names are bad requests, and the default zone is found twice
            let codes = lookup.zones.map(\.errorCode)
            #expect(codes == Array(repeating: nil, count: created.count) + Array(repeating: .zoneNotFound, count: 100) + [
                nil, nil, nil, .accessDenied, nil, .zoneNotFound, .zoneNotFound, .badRequest, .badRequest, nil, .zoneNotFound,
            ])
            #expect(lookup.zones.prefix(created.count).compactMap(\.zoneName) == Array(created.reversed()))
            let defaults = [lookup.zones[created.count + 101], lookup.zones[created.count + 109]]
            #expect(defaults.map(\.zoneName) == [MarkSyncZoneID.defaultZoneName, MarkSyncZoneID.defaultZoneName] && defaults[0] == defaults[1])
        }
    }
}
