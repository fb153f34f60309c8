import Foundation
import MeTubeAPI
import MeTubeServer
import Testing

@Suite("Status records routes")
struct MarkSyncRecordRouteTests {
    @Test("create answers the record with a change tag; creating it again is EXISTS", arguments: MarkSyncStorage.allCases)
    func createAndExists(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given alice's zone
            try await client.createZone(token: client.alice)
            // When she creates a record twice
            let first = try await client.modify([.init(.create, record: watched("v1"))], token: client.alice)
            let second = try await client.modify([.init(.create, record: watched("v1"))], token: client.alice)
            // Then the first answers the full record and the second EXISTS
            let record = try #require(first.first?.record)
            #expect(record.recordName == "v1" && record.recordType == "WatchedStatus" && record.recordChangeTag != nil)
            #expect(WatchedRecord(record) == WatchedRecord(watched("v1")))
            #expect(record.created?.userRecordName == "_alice")
            #expect(second.first?.errorCode == .exists)
        }
    }

    @Test("update needs the current change tag; a stale one is CONFLICT carrying the server record", arguments: MarkSyncStorage.allCases)
    func updateChangeTags(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given a record at tag t1, then updated to t2
            try await client.createZone(token: client.alice)
            let t1 = try #require(try await client.modify([.init(.create, record: watched("v1"))], token: client.alice).first?.record?.recordChangeTag)
            let updated = try await client.modify([.init(.update, record: watched("v1", "skipped", tag: t1))], token: client.alice)
            let t2 = try #require(updated.first?.record?.recordChangeTag)
            // When updates are sent with the stale tag t1 and with no tag
            let stale = try await client.modify([.init(.update, record: watched("v1", "unwatched", tag: t1))], token: client.alice)
            let untagged = try await client.modify([.init(.update, record: watched("v1", "unwatched"))], token: client.alice)
            // Then the stale one conflicts with the server's record at t2, and the untagged one is a bad request
            #expect(t1 != t2)
            guard case .failure(let conflict) = stale.first else { Issue.record("stale update succeeded"); return }
            #expect(conflict.serverErrorCode == .conflict)
            #expect(conflict.serverRecord?.recordChangeTag == t2)
            #expect(conflict.serverRecord.flatMap(WatchedRecord.init)?.status == "skipped")
            #expect(untagged.first?.errorCode == .badRequest)
        }
    }

    @Test("update merges fields, replace drops the fields it leaves out", arguments: MarkSyncStorage.allCases)
    func updateVersusReplace(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given two records with a playback position
            try await client.createZone(token: client.alice)
            var record = watched("a")
            record.fields?["playbackPosition"] = .double(12.5)
            let created = try await client.modify([.init(.create, record: record), .init(.create, record: MarkSyncRecord(recordName: "b", recordType: "WatchedStatus", fields: record.fields))], token: client.alice)
            let tags = created.compactMap(\.record?.recordChangeTag)
            // When one is updated and the other replaced with only a status
            let partial: [String: MarkSyncField] = ["status": .string("skipped")]
            let results = try await client.modify([
                .init(.update, record: MarkSyncRecord(recordName: "a", recordChangeTag: tags[0], fields: partial)),
                .init(.replace, record: MarkSyncRecord(recordName: "b", recordChangeTag: tags[1], fields: partial)),
            ], token: client.alice)
            // Then the update kept the position and the replace dropped it
            #expect(results[0].record?.fields?["playbackPosition"] == .double(12.5))
            #expect(results[0].record?.fields?["status"] == .string("skipped"))
            #expect(results[1].record?.fields == partial)
        }
    }

    @Test("the server record of EXISTS and of a stale replace or delete carries the stored fields; a forced replace keeps the creation time", arguments: MarkSyncStorage.allCases)
    func storedFieldsWhereAnswered(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given three records with a playback position
            try await client.createZone(token: client.alice)
            var record = watched("a")
            record.fields?["playbackPosition"] = .double(12.5)
            let created = try await client.modify(["a", "b", "c", "d"].map { .init(.create, record: MarkSyncRecord(recordName: $0, recordType: "WatchedStatus", fields: record.fields)) }, token: client.alice)
            let createdAt = try #require(created.last?.record?.created?.timestamp)
            // When a is created again, b replaced and c deleted with a stale tag, and d force-replaced without a type
            let results = try await client.modify([
                .init(.create, record: watched("a", "skipped")),
                .init(.replace, record: watched("b", "skipped", tag: "stale")),
                .init(.delete, record: MarkSyncRecord(recordName: "c", recordChangeTag: "stale")),
                .init(.forceReplace, record: MarkSyncRecord(recordName: "d", fields: ["status": .string("skipped")])),
            ], token: client.alice)
            // Then each error's server record holds every stored field, and d keeps its type and creation time
            #expect(results.prefix(3).map(\.errorCode) == [.exists, .conflict, .conflict])
            for case .failure(let error) in results.prefix(3) {
                #expect(error.serverRecord?.fields == record.fields, "\(error.recordName ?? "")")
            }
            #expect(results[3].record?.recordType == "WatchedStatus")
            #expect(results[3].record?.created?.timestamp == createdAt)
            #expect(results[3].record?.fields == ["status": .string("skipped")])
        }
    }

    @Test("records written many to a statement, new and replacing, read back as sent", arguments: MarkSyncStorage.allCases)
    func manyRecordsReadBack(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given 150 records whose fields need escaping, hold fractions and lists, or are null
            try await client.createZone(token: client.alice)
            func fields(_ index: Int, round: Int) -> [String: MarkSyncField] {
                var fields: [String: MarkSyncField] = [
                    "status": .string(["watched", "say \"hi\"\\", "tab\tnew\nline\u{1}", "ünï ✓"][(index + round) % 4]),
                    "lastModified": MarkSyncField(value: .integer(1_765_650_000_000 + Int64(index * 10 + round)), type: "TIMESTAMP"),
                ]
                if index % 5 == 0 { fields["playbackPosition"] = .double(Double(index) + 0.25) }
                if index % 7 == 0 { fields["tags"] = MarkSyncField(value: .list([.string("a"), .integer(Int64(round))]), type: "STRING_LIST") }
                if index % 11 == 0 { fields["flag"] = MarkSyncField(value: .null) }
                return fields
            }
            func operations(_ indices: Range<Int>, round: Int) -> [MarkSyncRecordsModifyRequest.Operation] {
                indices.map { .init(.forceReplace, record: MarkSyncRecord(recordName: "r\($0)", recordType: "WatchedStatus", fields: fields($0, round: round))) }
            }
            let first = try await client.modify(operations(0..<150, round: 0), token: client.alice)
            // When 120 of them are replaced together with 30 new ones
            let second = try await client.modify(operations(30..<180, round: 1), token: client.alice)
            // Then every record reads back with the fields last sent (nulls left out), in lookups and changes
            #expect(first.allSatisfy { $0.record != nil } && second.allSatisfy { $0.record != nil })
            let expected = Dictionary(uniqueKeysWithValues: (0..<180).map { index in
                ("r\(index)", fields(index, round: index < 30 ? 0 : 1).filter { $0.value.value != .null })
            })
            let lookup = try decode(MarkSyncRecordsResponse.self, try await client.post("records/lookup", MarkSyncRecordsLookupRequest(
                records: (0..<180).map { .init(recordName: "r\($0)") }, zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)), token: client.alice))
            #expect(lookup.records.count == 180)
            for case .success(let record) in lookup.records {
                #expect(record.fields.map { $0.mapValues(\.value) } == expected[record.recordName ?? ""].map { $0.mapValues(\.value) }, "\(record.recordName ?? "")")
            }
            let changes = try decode(MarkSyncZoneChangesResponse.self, try await client.post("changes/zone", MarkSyncZoneChangesRequest(
                zones: [.init(zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName))]), token: client.alice))
            guard case .success(let zoneChanges) = changes.zones.first else { Issue.record("changes/zone failed: \(changes)"); return }
            let changed = zoneChanges.records
            #expect(changed.count == 180)
            #expect(Set(changed.compactMap(\.recordChangeTag)).count == 180)
            #expect(changed.suffix(150).compactMap(\.recordName) == (30..<180).map { "r\($0)" })
        }
    }

    @Test("force operations ignore change tags and create missing records", arguments: MarkSyncStorage.allCases)
    func forceOperations(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given an empty zone
            try await client.createZone(token: client.alice)
            // When records are force-updated and force-replaced into existence, then changed with a bogus tag
            let created = try await client.modify([.init(.forceUpdate, record: watched("a")), .init(.forceReplace, record: watched("b"))], token: client.alice)
            let changed = try await client.modify([
                .init(.forceUpdate, record: watched("a", "skipped", tag: "bogus")),
                .init(.forceReplace, record: watched("b", "unwatched", tag: "bogus")),
                .init(.forceUpdate, record: MarkSyncRecord(recordName: "c", fields: ["status": .string("watched")])),
            ], token: client.alice)
            // Then all succeed except creating a record without a type
            #expect(created.allSatisfy { $0.record != nil })
            #expect(changed[0].record.flatMap(WatchedRecord.init)?.status == "skipped")
            #expect(changed[1].record.flatMap(WatchedRecord.init)?.status == "unwatched")
            #expect(changed[2].errorCode == .badRequest)
        }
    }

    @Test("delete needs the current tag, forceDelete does not; deleted records are not found", arguments: MarkSyncStorage.allCases)
    func deletes(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given three records
            try await client.createZone(token: client.alice)
            let created = try await client.modify(["a", "b", "c"].map { .init(.create, record: watched($0)) }, token: client.alice)
            let tags = created.compactMap(\.record?.recordChangeTag)
            // When a is deleted with its tag, b with a wrong tag, c forcibly, and a missing one forcibly
            let results = try await client.modify([
                .init(.delete, record: MarkSyncRecord(recordName: "a", recordChangeTag: tags[0])),
                .init(.delete, record: MarkSyncRecord(recordName: "b", recordChangeTag: tags[2])),
                .init(.forceDelete, record: MarkSyncRecord(recordName: "c")),
                .init(.forceDelete, record: MarkSyncRecord(recordName: "zz")),
            ], token: client.alice)
            let lookup = try decode(MarkSyncRecordsResponse.self, try await client.post("records/lookup", MarkSyncRecordsLookupRequest(
                records: ["a", "b", "c"].map { .init(recordName: $0) }, zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)), token: client.alice))
            // Then a and c are gone, b conflicted and remains, the missing one is NOT_FOUND
            #expect(results[0].record?.deleted == true)
            #expect(results[1].errorCode == .conflict)
            #expect(results[2].record?.deleted == true)
            #expect(results[3].errorCode == .notFound)
            #expect(lookup.records.map(\.errorCode) == [.notFound, nil, .notFound])
        }
    }

    @Test("an atomic request with one failing operation applies none", arguments: MarkSyncStorage.allCases)
    func atomicRequests(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given an existing record
            try await client.createZone(token: client.alice)
            _ = try await client.modify([.init(.create, record: watched("a"))], token: client.alice)
            // When an atomic request creates b and a again, and a non-atomic one does the same with c
            let atomic = try await client.modify([.init(.create, record: watched("b")), .init(.create, record: watched("a"))], atomic: nil, token: client.alice)
            let partial = try await client.modify([.init(.create, record: watched("c")), .init(.create, record: watched("a"))], atomic: false, token: client.alice)
            let lookup = try decode(MarkSyncRecordsResponse.self, try await client.post("records/lookup", MarkSyncRecordsLookupRequest(
                records: ["b", "c"].map { .init(recordName: $0) }, zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)), token: client.alice))
            // Then the atomic one wrote nothing and says why per record; the other wrote c
            #expect(atomic.map(\.errorCode) == [.atomicError, .exists])
            #expect(partial.map(\.errorCode) == [nil, .exists])
            #expect(lookup.records.map(\.errorCode) == [.notFound, nil])
        }
    }

    @Test("per-record checks: field types, record size", arguments: MarkSyncStorage.allCases)
    func perRecordValidation(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given a field of the wrong type and a record over 1 MB
            try await client.createZone(token: client.alice)
            var mistyped = watched("a")
            mistyped.fields?["lastModified"] = MarkSyncField(value: .string("yesterday"), type: "TIMESTAMP")
            var huge = watched("b")
            huge.fields?["blob"] = .string(String(repeating: "x", count: 1_100_000))
            // When both are sent with a valid record
            let results = try await client.modify([.init(.create, record: mistyped), .init(.create, record: huge), .init(.create, record: watched("c"))], token: client.alice)
            // Then the first is BAD_REQUEST, the second QUOTA_EXCEEDED, the third stored
            #expect(results.map(\.errorCode) == [.badRequest, .quotaExceeded, nil])
            guard case .failure(let error) = results[0] else { return }
            #expect(error.reason.contains("expected type TIMESTAMP"))
        }
    }

    @Test("request-level refusals: too many operations, two operations on one record, missing zone", arguments: MarkSyncStorage.allCases)
    func requestLevelErrors(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given alice's zone
            try await client.createZone(token: client.alice)
            let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
            // When she sends 201 operations, two operations on one record, and a write to a missing zone
            let tooMany = try await client.post("records/modify", MarkSyncRecordsModifyRequest(
                operations: (0...200).map { .init(.create, record: watched("v\($0)")) }, zoneID: zoneID), token: client.alice)
            let twice = try await client.post("records/modify", MarkSyncRecordsModifyRequest(
                operations: [.init(.create, record: watched("a")), .init(.forceDelete, record: watched("a"))], zoneID: zoneID), token: client.alice)
            let missing = try await client.post("records/modify", MarkSyncRecordsModifyRequest(
                operations: [.init(.create, record: watched("a"))], zoneID: MarkSyncZoneID(zoneName: "Nope")), token: client.alice)
            let tooManyLookups = try await client.post("records/lookup", MarkSyncRecordsLookupRequest(
                records: (0...200).map { .init(recordName: "v\($0)") }, zoneID: zoneID), token: client.alice)
            // Then: LIMIT_EXCEEDED, BAD_REQUEST, ZONE_NOT_FOUND (404)
            #expect(tooMany.status.code == 400)
            #expect(try decode(MarkSyncErrorBody.self, tooMany).isLimitExceeded)
            #expect(try decode(MarkSyncErrorBody.self, tooManyLookups).isLimitExceeded)
            #expect(twice.status.code == 400)
            #expect(try decode(MarkSyncErrorBody.self, twice).serverErrorCode == .badRequest)
            #expect(missing.status.code == 404)
            #expect(try decode(MarkSyncErrorBody.self, missing).serverErrorCode == .zoneNotFound)
        }
    }

    @Test("records without a zone go to the default zone, and create assigns a name", arguments: MarkSyncStorage.allCases)
    func defaultZone(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given no zone at all
            // When a record without a name is created with no zoneID
            let response = try await client.post("records/modify", MarkSyncRecordsModifyRequest(
                operations: [.init(.create, record: MarkSyncRecord(recordType: "Note", fields: ["text": .string("hi")]))]), token: client.alice)
            // Then it lands in the default zone with a server-assigned name
            let records = try decode(MarkSyncRecordsResponse.self, response).records
            let name = try #require(records.first?.record?.recordName)
            #expect(name.count == 32)
        }
    }

    @Test("fields sent without a type come back tagged, booleans as INT64")
    func inferredTypes() async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // Given a record whose fields carry no type tags
            try await client.createZone(token: client.alice)
            let fields: [String: MarkSyncField] = [
                "status": MarkSyncField(value: .string("watched")), "lastModified": MarkSyncField(value: .integer(5)),
                "playbackPosition": MarkSyncField(value: .double(1.5)), "flag": MarkSyncField(value: .bool(true)),
            ]
            // When it is created
            let results = try await client.modify([.init(.create, record: MarkSyncRecord(recordName: "v", recordType: "WatchedStatus", fields: fields))], token: client.alice)
            // Then every field has its type
            let stored = try #require(results.first?.record?.fields)
            #expect(stored["status"] == .string("watched"))
            #expect(stored["lastModified"] == .int64(5))
            #expect(stored["playbackPosition"] == .double(1.5))
            #expect(stored["flag"] == .int64(1))
        }
    }
}
