import Foundation
import MeTubeAPI
import MeTubeServer
import Testing

/// Names are told apart by their bytes, as the stores compare them: "é" precomposed (U+00E9) and
/// "e" with a combining acute (U+0065 U+0301) are two records and two zones, although Swift's
/// `String` counts them equal.
@Suite("Status names by their bytes")
struct MarkSyncExactNameTests {
    static let precomposed = "caf\u{e9}"
    static let decomposed = "cafe\u{301}"

    @Test("two spellings of one name are two records: written together, each looked up answers its own", arguments: MarkSyncStorage.allCases)
    func twoSpellingsAreTwoRecords(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            try await client.createZone(token: client.alice)
            // When both spellings are written in one request, each with its own value
            let written = try await client.modify([
                .init(.forceReplace, record: Self.record(Self.precomposed, value: 1)),
                .init(.forceReplace, record: Self.record(Self.decomposed, value: 2)),
            ], token: client.alice)
            #expect(written.map(\.errorCode) == [nil, nil])
            #expect(written.map { $0.recordName.map { Array($0.utf8) } } == [Array(Self.precomposed.utf8), Array(Self.decomposed.utf8)])

            // Then a lookup of both answers each with its own name, value and change tag
            let response = try await client.post("records/lookup", MarkSyncRecordsLookupRequest(
                records: [.init(recordName: Self.decomposed), .init(recordName: Self.precomposed)], zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)), token: client.alice)
            let found = try decode(MarkSyncRecordsResponse.self, response).records
            #expect(found.map { $0.recordName.map { Array($0.utf8) } } == [Array(Self.decomposed.utf8), Array(Self.precomposed.utf8)])
            #expect(found.map { Self.value(of: $0) } == [2, 1])
            #expect(found.map(\.record?.recordChangeTag) == [written[1].record?.recordChangeTag, written[0].record?.recordChangeTag])

            // And a change of one with its tag leaves the other as it was
            var changed = Self.record(Self.precomposed, value: 3)
            changed.recordChangeTag = written[0].record?.recordChangeTag
            #expect(try await client.modify([.init(.update, record: changed)], token: client.alice).map(\.errorCode) == [nil])
            let again = try await client.post("records/lookup", MarkSyncRecordsLookupRequest(
                records: [.init(recordName: Self.decomposed), .init(recordName: Self.precomposed)], zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)), token: client.alice)
            #expect(try decode(MarkSyncRecordsResponse.self, again).records.map { Self.value(of: $0) } == [2, 3])
        }
    }

    @Test("two spellings of one zone name are two zones, created in one request", arguments: MarkSyncStorage.allCases)
    func twoSpellingsAreTwoZones(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            let response = try await client.post("zones/modify", MarkSyncZonesModifyRequest(operations: [
                .init(.create, zone: MarkSyncZoneID(zoneName: Self.precomposed)), .init(.create, zone: MarkSyncZoneID(zoneName: Self.decomposed)),
            ]), token: client.alice)
            let zones = try decode(MarkSyncZonesResponse.self, response).zones
            #expect(zones.map(\.errorCode) == [nil, nil])
            #expect(zones.map { $0.zoneName.map { Array($0.utf8) } } == [Array(Self.precomposed.utf8), Array(Self.decomposed.utf8)])

            // And a record written in one is not in the other
            #expect(try await client.modify([.init(.forceReplace, record: Self.record("r", value: 1))], token: client.alice, zone: Self.decomposed).map(\.errorCode) == [nil])
            let lookup = try await client.post("records/lookup", MarkSyncRecordsLookupRequest(
                records: [.init(recordName: "r")], zoneID: MarkSyncZoneID(zoneName: Self.precomposed)), token: client.alice)
            #expect(try decode(MarkSyncRecordsResponse.self, lookup).records.map(\.errorCode) == [.notFound])
        }
    }

    @Test("a query pages through records whose names differ only in their spelling, each once", arguments: MarkSyncStorage.allCases)
    func aQueryPagesThroughBothSpellings(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            try await client.createZone(token: client.alice)
            // Given six records sorting equal by their field: three names, each in both spellings
            let names = ["\u{e9}", "e\u{301}", "a\u{e9}", "ae\u{301}", Self.precomposed, Self.decomposed]
            #expect(try await client.modify(names.map { .init(.forceReplace, record: Self.record($0, value: 7)) }, token: client.alice).map(\.errorCode)
                == Array(repeating: nil, count: names.count))

            // When a query sorted by that field is read one record a page
            var seen: [[UInt8]] = []
            var marker: String?
            repeat {
                let response = try await client.post("records/query", MarkSyncRecordsQueryRequest(
                    query: .init(recordType: "Note", sortBy: [.init(fieldName: "value")]), zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName),
                    resultsLimit: 1, continuationMarker: marker), token: client.alice)
                let page = try decode(MarkSyncRecordsQueryResponse.self, response)
                seen += page.records.compactMap { $0.recordName.map { Array($0.utf8) } }
                marker = page.continuationMarker
            } while marker != nil && seen.count <= names.count

            // Then every record comes once, in byte order of the names
            #expect(seen == names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
        }
    }

    private static func record(_ name: String, value: Int64) -> MarkSyncRecord {
        MarkSyncRecord(recordName: name, recordType: "Note", fields: ["value": MarkSyncField(value: .integer(value))])
    }

    private static func value(of result: MarkSyncRecordResult) -> Int64? {
        guard case .integer(let value)? = result.record?.fields?["value"]?.value else { return nil }
        return value
    }
}
