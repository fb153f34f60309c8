import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import NIOCore
import Testing
@testable import MeTubeServer

/// Requests built to cost the server far more than they cost the client (issue 13, 13.13–13.14).
@Suite struct HostileRequestTests {
    static func nested(_ depth: Int, around inner: String = "1") -> String {
        String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
    }

    @Test func aHubBodyNestedDeeperThan32IsRefusedBeforeDecoding() async throws {
        // Given 1 KB bodies nested 500 deep, as an array and inside channelIds
        let bodies = [Self.nested(500), #"{"channelIds":"# + Self.nested(500, around: #""UCx""#) + "}"]
        try await HubTestSupport.application().test(.router) { client in
            for path in [HubAPI.registerPath, HubAPI.videoQueryPath] {
                for body in bodies {
                    // When each is posted
                    let response = try await client.execute(uri: path, method: .post, body: ByteBuffer(string: body))
                    // Then it is refused for its nesting, not decoded
                    #expect(response.status == .badRequest)
                    #expect(try HubTestSupport.decode(HubErrorBody.self, response.body).error == "the body is nested deeper than 32 levels")
                }
            }
        }
    }

    @Test func aMarkSyncBodyNestedDeeperThan32IsRefusedBeforeDecoding() async throws {
        // Given a records/modify body whose field value is a list nested 500 deep
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            try await client.createZone(token: client.alice)
            let value = Self.nested(500, around: #"{"value":1}"#)
            let body = #"{"zoneID":{"zoneName":"WatchedStatusZone"},"operations":[{"operationType":"forceReplace","record":{"recordName":"v1","recordType":"WatchedStatus","fields":{"deep":{"value":"# + value + "}}}}]}"
            // When it is posted
            let response = try await client.post(uri: MarkSyncTestClient.uri("records/modify", token: client.alice), raw: ByteBuffer(string: body))
            // Then it is a BAD_REQUEST about the nesting
            #expect(response.status.code == 400)
            #expect(try decode(MarkSyncErrorBody.self, response).reason == "The request body is nested deeper than 32 levels")
        }
    }

    @Test func namesLongerThan255BytesAreRefused() async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            try await client.createZone(token: client.alice)
            let long = String(repeating: "n", count: 256)
            // When a record name, a record type and a field name are 256 bytes long
            var named = watched(long)
            named.recordName = long
            var typed = watched("v2")
            typed.recordType = long
            var field = watched("v3")
            field.fields?[long] = MarkSyncField(value: .string("x"))
            let results = try await client.modify([.init(.forceReplace, record: named), .init(.forceReplace, record: typed), .init(.forceReplace, record: field)], token: client.alice)
            let zone = try await client.post("zones/modify", MarkSyncZonesModifyRequest(operations: [.init(.create, zone: MarkSyncZoneID(zoneName: long))]), token: client.alice)
            // Then each is a BAD_REQUEST
            #expect(results.map(\.errorCode) == [.badRequest, .badRequest, .badRequest])
            #expect(try decode(MarkSyncZonesResponse.self, zone).zones.first?.errorCode == .badRequest)
        }
    }

    @Test("a name holding a NUL is refused per operation on every storage, the rest of the request written", arguments: MarkSyncStorage.allCases)
    func namesHoldingNULAreRefused(_ storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            try await client.createZone(token: client.alice)
            // When a record name, a record type and a field name hold a NUL (SQLite would keep the
            // bytes before it, PostgreSQL refuses the whole statement), beside a good record
            var named = watched("v1")
            named.recordName = "a\u{0}b"
            var typed = watched("v2")
            typed.recordType = "Watched\u{0}Status"
            var field = watched("v3")
            field.fields?["status\u{0}"] = MarkSyncField(value: .string("x"))
            let results = try await client.modify(
                [.init(.forceReplace, record: named), .init(.forceReplace, record: typed), .init(.forceReplace, record: field), .init(.forceReplace, record: watched("v4"))],
                token: client.alice)
            let lookup = try await client.post(
                "records/lookup", MarkSyncRecordsLookupRequest(records: [.init(recordName: "a\u{0}b"), .init(recordName: "v4")], zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)),
                token: client.alice)
            let zone = try await client.post("zones/modify", MarkSyncZonesModifyRequest(operations: [.init(.create, zone: MarkSyncZoneID(zoneName: "z\u{0}"))]), token: client.alice)
            // Then each is a BAD_REQUEST naming the NUL, and the good record is written and found
            #expect(results.map(\.errorCode) == [.badRequest, .badRequest, .badRequest, nil])
            #expect(results.first?.reason == "recordName holds a NUL character")
            let found = try decode(MarkSyncRecordsResponse.self, lookup).records
            #expect(found.map(\.errorCode) == [.badRequest, nil])
            #expect(found.last?.record?.recordName == "v4")
            #expect(try decode(MarkSyncZonesResponse.self, zone).zones.first?.errorCode == .badRequest)
        }
    }

    @Test func changesForTheSameZoneNamedTwoHundredTimesAreAnsweredOnceWithin200Records() async throws {
        // Given alice's zone with 300 records
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            try await client.createZone(token: client.alice)
            for batch in [0..<200, 200..<300] {
                _ = try await client.modify(batch.map { .init(.forceReplace, record: watched("v\($0)")) }, token: client.alice)
            }
            let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)

            // When its changes are asked for with the zone named 200 times
            let request = MarkSyncZoneChangesRequest(zones: Array(repeating: .init(zoneID: zoneID), count: 200))
            let response = try decode(MarkSyncZoneChangesResponse.self, try await client.post("changes/zone", request, token: client.alice))

            // Then the zone is answered once, with 200 records and more to come
            #expect(response.zones.count == 1)
            guard case .success(let changes) = response.zones.first else { Issue.record("\(response)"); return }
            #expect(changes.records.count == 200)
            #expect(changes.moreComing)
        }
    }

    @Test func aResponseHoldsAtMost200RecordsOverAllItsZones() async throws {
        // Given two zones of 150 records each
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            for zone in ["A", "B"] {
                try await client.createZone(zone, token: client.alice)
                _ = try await client.modify((0..<150).map { .init(.forceReplace, record: watched("v\($0)")) }, token: client.alice, zone: zone)
            }

            // When both are asked for at once
            let request = MarkSyncZoneChangesRequest(zones: [.init(zoneID: MarkSyncZoneID(zoneName: "A")), .init(zoneID: MarkSyncZoneID(zoneName: "B"))])
            let response = try decode(MarkSyncZoneChangesResponse.self, try await client.post("changes/zone", request, token: client.alice))

            // Then the first is complete, the second gets the remaining 50 and more to come
            let pages = response.zones.compactMap { result -> MarkSyncZoneChanges? in if case .success(let page) = result { page } else { nil } }
            #expect(pages.map(\.records.count) == [150, 50])
            #expect(pages.map(\.moreComing) == [false, true])
        }
    }
}
