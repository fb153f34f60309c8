import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
@testable import MeTubeServer
import NIOCore
import Testing

@Suite("Status: what CloudKit JS clients call")
struct MarkSyncConformanceTests {
    @Test("a wrong or missing user token is 421 AUTHENTICATION_REQUIRED with the configured redirectURL")
    func signedOut() async throws {
        let fixture = try await MarkSyncFixture(configuration: MarkSyncConfiguration(requestsPerSecond: nil, signInURL: "https://example.org/sign-in"))
        try await fixture.withClient { client in
            // Given a wrong token, and none
            for token in ["0123456789abcdef", nil] {
                // When zones/list is asked for
                let response = try await client.get("zones/list", token: token)
                // Then the answer says "sign in" the way CloudKit JS understands
                #expect(response.status.code == 421)
                let body = try decode(MarkSyncErrorBody.self, response)
                #expect(body.serverErrorCode == .authenticationRequired)
                #expect(body.redirectURL == "https://example.org/sign-in")
            }
        }
    }

    @Test("users/caller answers the caller's record name on the public and private database; ACCESS_DENIED for a wrong API token")
    func usersCaller() async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // When alice asks who she is on both databases, and with bad tokens
            let onPublic = try await client.client.execute(uri: MarkSyncTestClient.uri("users/caller", token: client.alice, database: "public"), method: .get)
            let onPrivate = try await client.get("users/caller", token: client.alice)
            let wrongAPIToken = try await client.client.execute(uri: MarkSyncTestClient.uri("users/caller", token: client.alice, apiToken: "wrong", database: "public"), method: .get)
            let wrongUser = try await client.client.execute(uri: MarkSyncTestClient.uri("users/caller", token: "nobody", database: "public"), method: .get)
            let shared = try await client.client.execute(uri: MarkSyncTestClient.uri("users/caller", token: client.alice, database: "shared"), method: .get)
            // Then she gets her record name, and the bad requests their CloudKit errors
            #expect(try decode(MarkSyncUserIdentity.self, onPublic).userRecordName == "_alice")
            #expect(try decode(MarkSyncUserIdentity.self, onPrivate).userRecordName == "_alice")
            #expect(wrongAPIToken.status.code == 403)
            #expect(try decode(MarkSyncErrorBody.self, wrongAPIToken).serverErrorCode == .accessDenied)
            #expect(wrongUser.status.code == 421)
            #expect(try decode(MarkSyncErrorBody.self, wrongUser).redirectURL != nil)
            #expect(try decode(MarkSyncErrorBody.self, shared).serverErrorCode == .badRequest)
        }
    }

    @Test("changes/database pages through created, changed and deleted zones since a token")
    func databaseChanges() async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // Given three zones
            for name in ["A", "B", "C"] { try await client.createZone(name, token: client.alice) }
            // When all changes are fetched one zone a page
            var names: [String] = []
            var token: String?
            var pages = 0
            repeat {
                let page = try decode(MarkSyncDatabaseChangesResponse.self, try await client.post(
                    "changes/database", MarkSyncDatabaseChangesRequest(syncToken: token, resultsLimit: 1), token: client.alice))
                names += page.zones.map(\.zoneID.zoneName)
                token = page.syncToken
                pages += 1
                if !page.moreComing { break }
            } while pages < 10
            // Then every zone came once, in creation order
            #expect(names == ["A", "B", "C"])
            // When B gets a record, C is deleted, and bob makes a zone
            _ = try await client.modify([.init(.create, record: watched("v1"))], token: client.alice, zone: "B")
            let deletion = try await client.post("zones/modify", MarkSyncZonesModifyRequest(operations: [.init(.delete, zone: MarkSyncZoneID(zoneName: "C"))]), token: client.alice)
            #expect(deletion.status == .ok)
            try await client.createZone("Bobs", token: client.bob)
            let since = try decode(MarkSyncDatabaseChangesResponse.self, try await client.post(
                "changes/database", MarkSyncDatabaseChangesRequest(syncToken: token), token: client.alice))
            // Then alice sees B changed and C deleted, nothing of bob's, and no more to come
            #expect(since.zones.map(\.zoneID.zoneName) == ["B", "C"])
            #expect(since.zones.map { $0.deleted ?? false } == [false, true])
            #expect(since.zones.first?.syncToken != nil)
            #expect(!since.moreComing)
            // And asking again from the new token gives nothing
            let again = try decode(MarkSyncDatabaseChangesResponse.self, try await client.post(
                "changes/database", MarkSyncDatabaseChangesRequest(syncToken: since.syncToken), token: client.alice))
            #expect(again.zones.isEmpty && again.syncToken == since.syncToken)
        }
    }

    @Test("changes/database refuses bad tokens and limits", arguments: [
        #"{"syncToken":"nonsense"}"#, #"{"syncToken":"Dzzzzzz"}"#, #"{"resultsLimit":0}"#, #"{"syncToken":7}"#,
    ])
    func databaseChangesBadInput(body: String) async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // When a bad request is sent
            let response = try await client.post(uri: MarkSyncTestClient.uri("changes/database", token: client.alice), raw: ByteBuffer(string: body))
            // Then it is a BAD_REQUEST
            #expect(response.status.code == 400)
            #expect(try decode(MarkSyncErrorBody.self, response).serverErrorCode == .badRequest)
        }
    }

    @Test("records/query filters by EQUALS, NOT_EQUALS, LESS_THAN, GREATER_THAN and IN, sorts, and pages with continuationMarker")
    func query() async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // Given five records with a status, a timestamp and a position, and one of another type
            try await client.createZone(token: client.alice)
            let statuses = ["watched", "skipped", "watched", "unwatched", "watched"]
            var operations: [MarkSyncRecordsModifyRequest.Operation] = statuses.enumerated().map { index, status in
                .init(.create, record: MarkSyncRecord(recordName: "v\(index)", recordType: WatchedRecord.recordType, fields: [
                    "status": .string(status), "lastModified": .timestamp(1_000 + Int64(index)), "playbackPosition": .double(Double(index) * 1.5),
                ]))
            }
            operations.append(.init(.create, record: MarkSyncRecord(recordName: "other", recordType: "Other", fields: ["status": .string("watched")])))
            #expect(try await client.modify(operations, token: client.alice).allSatisfy { $0.record != nil })
            func query(_ filters: [MarkSyncRecordsQueryRequest.Filter], sort: [MarkSyncRecordsQueryRequest.Sort] = [], limit: Int? = nil, marker: String? = nil) async throws -> MarkSyncRecordsQueryResponse {
                try decode(MarkSyncRecordsQueryResponse.self, try await client.post("records/query", MarkSyncRecordsQueryRequest(
                    query: .init(recordType: WatchedRecord.recordType, filterBy: filters, sortBy: sort),
                    zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName), resultsLimit: limit, continuationMarker: marker), token: client.alice))
            }
            func names(_ response: MarkSyncRecordsQueryResponse) -> [String] { response.records.compactMap(\.recordName) }
            // When it is queried with each comparator
            let equals = try await query([.init(comparator: "EQUALS", fieldName: "status", fieldValue: .string("watched"))])
            let notEquals = try await query([.init(comparator: "NOT_EQUALS", fieldName: "status", fieldValue: .string("watched"))])
            let before = try await query([.init(comparator: "LESS_THAN", fieldName: "lastModified", fieldValue: .timestamp(1_002))])
            let after = try await query([.init(comparator: "GREATER_THAN", fieldName: "playbackPosition", fieldValue: .double(3))],
                                        sort: [.init(fieldName: "playbackPosition", ascending: false)])
            let isIn = try await query([.init(comparator: "IN", fieldName: "status", fieldValue: MarkSyncField(value: .list([.string("skipped"), .string("unwatched")]), type: "STRING_LIST"))])
            let both = try await query([
                .init(comparator: "EQUALS", fieldName: "status", fieldValue: .string("watched")),
                .init(comparator: "GREATER_THAN", fieldName: "lastModified", fieldValue: .timestamp(1_000)),
            ])
            // Then each finds exactly its records, of the queried type only
            #expect(names(equals) == ["v0", "v2", "v4"])
            #expect(names(notEquals) == ["v1", "v3"])
            #expect(names(before) == ["v0", "v1"])
            #expect(names(after) == ["v4", "v3"])
            #expect(names(isIn) == ["v1", "v3"])
            #expect(names(both) == ["v2", "v4"])
            #expect(equals.continuationMarker == nil)
            // When all are read two a page, newest first
            var paged: [String] = []
            var marker: String?
            for _ in 0..<5 {
                let page = try await query([], sort: [.init(fieldName: "lastModified", ascending: false)], limit: 2, marker: marker)
                paged += names(page)
                marker = page.continuationMarker
                if marker == nil { break }
            }
            // Then the pages hold every record once, in order
            #expect(paged == ["v4", "v3", "v2", "v1", "v0"])
        }
    }

    @Test("records/query refuses what it does not serve, with BAD_REQUEST", arguments: [
        #"{"query":{}}"#,
        #"{"query":{"recordType":""}}"#,
        #"{"query":{"recordType":"WatchedStatus","filterBy":[{"comparator":"NEAR","fieldName":"status","fieldValue":{"value":"x"}}]}}"#,
        #"{"query":{"recordType":"WatchedStatus","filterBy":[{"comparator":"EQUALS","fieldName":"status","fieldValue":{"value":"x","type":"LOCATION"}}]}}"#,
        #"{"query":{"recordType":"WatchedStatus","filterBy":[{"comparator":"EQUALS","fieldName":"status","fieldValue":{"value":5,"type":"STRING"}}]}}"#,
        #"{"query":{"recordType":"WatchedStatus","filterBy":[{"comparator":"IN","fieldName":"status","fieldValue":{"value":"x"}}]}}"#,
        #"{"query":{"recordType":"WatchedStatus","filterBy":[{"comparator":"IN","fieldName":"status","fieldValue":{"value":["x",1]}}]}}"#,
        #"{"query":{"recordType":"WatchedStatus","filterBy":[{"comparator":"EQUALS","fieldName":"status","fieldValue":{"value":{"a":1}}}]}}"#,
        #"{"query":{"recordType":"WatchedStatus"},"resultsLimit":0}"#,
        #"{"query":{"recordType":"WatchedStatus"},"continuationMarker":"Q5-zz"}"#,
        #"{"query":{"recordType":"WatchedStatus"},"continuationMarker":"garbage"}"#,
    ])
    func queryBadInput(body: String) async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // When a query the server does not serve is sent
            let response = try await client.post(uri: MarkSyncTestClient.uri("records/query", token: client.alice), raw: ByteBuffer(string: body))
            // Then it is a BAD_REQUEST with a reason
            #expect(response.status.code == 400, "\(body)")
            #expect(try decode(MarkSyncErrorBody.self, response).serverErrorCode == .badRequest)
        }
    }

    @Test("records/query in a zone that does not exist is ZONE_NOT_FOUND; an unknown status operation is a JSON NOT_FOUND")
    func queryUnknownZoneAndPath() async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            let missing = try await client.post("records/query", MarkSyncRecordsQueryRequest(
                query: .init(recordType: "WatchedStatus"), zoneID: MarkSyncZoneID(zoneName: "Nowhere")), token: client.alice)
            let unknown = try await client.post("records/nonsense", MarkSyncRecordsQueryRequest(query: .init(recordType: "x")), token: client.alice)
            #expect(try decode(MarkSyncErrorBody.self, missing).serverErrorCode == .zoneNotFound)
            #expect(unknown.status == .notFound)
            #expect(try decode(MarkSyncErrorBody.self, unknown).serverErrorCode == .notFound)
        }
    }
}
