import Foundation
import MeTubeAPI
import Testing

/// Record field values of every documented type (STRING, INT64, DOUBLE, TIMESTAMP, BYTES,
/// REFERENCE, LOCATION, ASSET, LIST, untagged, Boolean, null) decode to the right value, and the
/// watched-status layout reads and writes its record exactly.
@Suite("Status field types")
struct MarkSyncFieldTypeTests {
    private func fields() throws -> [String: MarkSyncField] {
        let data = try WireExample.fixture("ckwsr-records-lookup-response-field-types.json")
        let response = try JSONDecoder().decode(MarkSyncRecordsResponse.self, from: data)
        guard case .success(let record) = response.records.first, let fields = record.fields else {
            throw CocoaError(.coderReadCorrupt)
        }
        return fields
    }

    @Test func scalarsKeepTheirExactValues() throws {
        let fields = try fields()
        #expect(fields["title"]?.value == .string("Säge & Schraube – \u{202E}bidi\u{202C} \u{07}"))
        #expect(fields["views"] == MarkSyncField.int64(9_007_199_254_740_993))
        #expect(fields["negative"] == MarkSyncField.int64(.min))
        #expect(fields["rating"] == MarkSyncField.double(4.75))
        #expect(fields["tiny"]?.value == .double(.leastNonzeroMagnitude))
        #expect(fields["published"] == MarkSyncField.timestamp(1_765_650_000_000))
        #expect(fields["beforeEpoch"] == MarkSyncField.timestamp(-86_400_000))
        #expect(fields["thumbnail"] == MarkSyncField(value: .string("aGVsbG8gd29ybGQ="), type: "BYTES"))
    }

    @Test func dictionariesAndListsKeepTheirShape() throws {
        let fields = try fields()
        guard case .object(let reference) = fields["channel"]?.value else {
            Issue.record("REFERENCE is not an object: \(String(describing: fields["channel"]))")
            return
        }
        #expect(reference["recordName"] == .string("UCXuqSBlHAE6Xw-yeJA0Tunw"))
        #expect(reference["action"] == .string("DELETE_SELF"))
        #expect(reference["zoneID"] == .object(["zoneName": .string("Feed")]))
        guard case .object(let place) = fields["place"]?.value else {
            Issue.record("LOCATION is not an object")
            return
        }
        #expect(place["latitude"]?.doubleValue == 47.3769)
        #expect(place["horizontalAccuracy"]?.doubleValue == 5)
        #expect(fields["tags"]?.value == .list([.string("news"), .string("tech")]))
        #expect(fields["scores"]?.value == .list([.integer(1), .double(2.5), .integer(-3)]))
        #expect(fields["empty"]?.value == .list([]))
        #expect(fields["cleared"]?.value == .null)
    }

    @Test func everyTaggedValueFitsItsTagAndUntaggedValuesGetOne() throws {
        let fields = try fields()
        for (name, field) in fields {
            #expect(field.typeMismatch == nil, "\(name): \(field)")
        }
        #expect(fields["untagged"]?.typed == MarkSyncField.string("no type tag"))
        #expect(fields["flag"]?.typed == MarkSyncField.int64(1))
        #expect(MarkSyncField(value: .string("1765650000000"), type: "TIMESTAMP").typeMismatch != nil)
        #expect(MarkSyncField(value: .double(1.5), type: "INT64").typeMismatch != nil)
    }

    @Test func watchedRecordLayoutReadsAndWritesItsRecordExactly() throws {
        // Given the recorded push of a watched status with every field of the layout
        let data = try WireExample.fixture("ck-watched-status-modify-request.json")
        let request = try JSONDecoder().decode(MarkSyncRecordsModifyRequest.self, from: data)
        let record = try #require(request.operations.first?.record)
        // When it is read as the layout and written back as a record
        let status = try #require(WatchedRecord(record))
        // Then every field came through, and the record written is the one recorded
        #expect(status == WatchedRecord(
            videoID: "dQw4w9WgXcQ", status: "watched", lastModified: 1_765_650_000_000,
            playbackPosition: 93.25, hlc: "1765650000000-3", deviceID: "laptop-1"))
        let written = try WireJSON(JSONEncoder().encode(status.record(changeTag: "7")))
        #expect(written == (try WireJSON(JSONEncoder().encode(record))))
    }
}
