import Foundation
import MeTubeAPI
import Testing

/// The recorded status documents decode to the values CloudKit Web Services describes: results
/// told apart from errors, tombstones, error codes and their HTTP statuses, zone defaults.
@Suite("Status wire meaning")
struct MarkSyncWireMeaningTests {
    @Test func modifyResultsAreRecordsOrPerRecordErrorsInOrder() throws {
        // Given the documented records/modify answer: one record, then a CONFLICT
        let response = try decode(MarkSyncRecordsResponse.self, "ck-records-modify-response.json")
        // Then the first entry is the saved record and the second the error for vid_def
        guard case .success(let record) = response.records.first, case .failure(let error) = response.records.last else {
            Issue.record("wrong entry kinds: \(response.records)")
            return
        }
        #expect(record.recordName == "vid_abc")
        #expect(record.recordChangeTag == "k9")
        #expect(record.fields?["modifiedAt"] == MarkSyncField.timestamp(1_765_650_000_000))
        #expect(record.fields?["position"] == MarkSyncField.double(12.5))
        #expect(record.created == MarkSyncRecordStamp(timestamp: 1_765_650_001_000, userRecordName: "_u", deviceID: "2"))
        #expect(error.recordName == "vid_def")
        #expect(error.serverErrorCode == .conflict)
        #expect(error.retryAfter == nil)
        #expect(response.records.map(\.recordName) == ["vid_abc", "vid_def"])
    }

    @Test func conflictCarriesTheServerRecord() throws {
        let response = try decode(MarkSyncRecordsResponse.self, "ck-watched-status-conflict-response.json")
        guard case .failure(let error) = response.records.first else {
            Issue.record("not an error: \(response.records)")
            return
        }
        #expect(error.serverErrorCode == .conflict)
        let server = try #require(error.serverRecord.flatMap(WatchedRecord.init))
        #expect(server.status == "skipped")
        #expect(server.lastModified == 1_765_650_005_000)
        #expect(error.serverRecord?.recordChangeTag == "8")
    }

    @Test func changesListTombstonesAndZoneErrors() throws {
        // Given a changes/zone answer with a change, a deletion, and a missing zone
        let response = try decode(MarkSyncZoneChangesResponse.self, "ckwsr-changes-zone-response-more-coming.json")
        guard case .success(let changes) = response.zones.first, case .failure(let missing) = response.zones.last else {
            Issue.record("wrong entry kinds: \(response.zones)")
            return
        }
        // Then the changes keep their order, token and moreComing, and the tombstone says deleted
        #expect(changes.moreComing)
        #expect(changes.syncToken == "AQAAAAAAAAAC")
        #expect(changes.records.map(\.recordName) == ["dQw4w9WgXcQ", "jNQXAC9IVRw"])
        #expect(changes.records.map(\.deleted) == [nil, true])
        #expect(missing.serverErrorCode == .zoneNotFound)
        #expect(missing.zoneID?.zoneName == "Feed")
    }

    @Test func errorBodiesKeepCodeReasonRetryAfterAndRedirect() throws {
        let throttled = try decode(MarkSyncErrorBody.self, "ck-throttled-error.json")
        #expect(throttled.serverErrorCode == .throttled)
        #expect(throttled.retryAfter == 110_207)
        #expect(throttled.uuid == "wsThrottles_…")
        #expect(throttled.serverErrorCode.isRetryable)
        let signIn = try decode(MarkSyncErrorBody.self, "ck-auth-required-error.json")
        #expect(signIn.serverErrorCode == .authenticationRequired)
        #expect(signIn.redirectURL == "https://...")
        #expect(try decode(MarkSyncErrorBody.self, "ck-limit-exceeded-error.json").isLimitExceeded)
        #expect(!signIn.isLimitExceeded)
    }

    /// The error code table of the Web Services Reference (ErrorCodes.html): code and HTTP status.
    static let documentedCodes: [(code: String, httpStatus: Int)] = [
        ("ACCESS_DENIED", 403), ("ATOMIC_ERROR", 400), ("AUTHENTICATION_FAILED", 401),
        ("AUTHENTICATION_REQUIRED", 421), ("BAD_REQUEST", 400), ("CONFLICT", 409), ("EXISTS", 409),
        ("INTERNAL_ERROR", 500), ("NOT_FOUND", 404), ("QUOTA_EXCEEDED", 413), ("THROTTLED", 429),
        ("TRY_AGAIN_LATER", 503), ("VALIDATING_REFERENCE_ERROR", 412), ("ZONE_NOT_FOUND", 404),
    ]

    @Test("every documented serverErrorCode decodes with its HTTP status and encodes back", arguments: documentedCodes)
    func documentedCode(code: String, httpStatus: Int) throws {
        let json = #"{"uuid":"u1","serverErrorCode":"\#(code)","reason":"r","retryAfter":1.5}"#
        let body = try JSONDecoder().decode(MarkSyncErrorBody.self, from: Data(json.utf8))
        #expect(body.serverErrorCode.rawValue == code)
        #expect(body.serverErrorCode.httpStatus == httpStatus)
        #expect(try WireJSON(JSONEncoder().encode(body)) == WireJSON(Data(json.utf8)))
    }

    @Test func everyCodeOfTheTypeIsDocumented() {
        #expect(Set(MarkSyncErrorCode.allCases.map(\.rawValue)) == Set(Self.documentedCodes.map(\.code)))
    }

    @Test func zoneIDWithoutNameIsTheDefaultZone() throws {
        let request = try JSONDecoder().decode(MarkSyncZonesLookupRequest.self, from: Data(#"{"zones":[{}]}"#.utf8))
        #expect(request.zones == [MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName)])
    }

    private func decode<Wire: Decodable>(_ type: Wire.Type, _ file: String) throws -> Wire {
        try JSONDecoder().decode(type, from: WireExample.fixture(file))
    }
}
