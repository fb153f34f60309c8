import Foundation
import MeTubeAPI
import MeTubeServer
import NIOCore
import Testing

@Suite("Status malformed requests")
struct MarkSyncMalformedRequestTests {
    private static let operations = ["zones/modify", "zones/lookup", "records/modify", "records/lookup", "changes/zone"]

    private static let bodies: [(name: String, json: String)] = [
        ("not JSON", "this is not json"),
        ("empty", ""),
        ("missing keys", "{}"),
        ("wrong types", #"{"operations": 5, "zones": "x", "records": {"a": 1}}"#),
        ("wrong nested types", #"{"operations": [{"operationType": 7, "record": [], "zone": 1}], "zones": [{"zoneID": 3, "zoneName": []}], "records": [{"recordName": 5}]}"#),
        ("unknown operation", #"{"operations": [{"operationType": "explode", "record": {}, "zone": {"zoneID": {}}}], "zones": [{"zoneName": 1}], "records": [{}]}"#),
    ]

    @Test("every route answers malformed bodies with 400 BAD_REQUEST and a reason", arguments: operations)
    func malformed(operation: String) async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            for body in Self.bodies {
                // Given a malformed body, When it is posted
                let response = try await client.post(uri: MarkSyncTestClient.uri(operation, token: client.alice), raw: ByteBuffer(string: body.json))
                // Then the answer is a BAD_REQUEST error body
                #expect(response.status.code == 400, "\(operation) \(body.name)")
                let error = try decode(MarkSyncErrorBody.self, response)
                #expect(error.serverErrorCode == .badRequest, "\(operation) \(body.name)")
                #expect(!error.reason.isEmpty && !error.uuid.isEmpty)
            }
        }
    }

    @Test("every route answers a 10 MB body with LIMIT_EXCEEDED", arguments: operations)
    func oversized(operation: String) async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // Given a 10 MB body
            let body = ByteBuffer(string: #"{"operations":[""# + String(repeating: "x", count: 10 * 1024 * 1024) + #""]}"#)
            // When it is posted
            let response = try await client.post(uri: MarkSyncTestClient.uri(operation, token: client.alice), raw: body)
            // Then it is refused as over the limit
            #expect(response.status.code == 400)
            #expect(try decode(MarkSyncErrorBody.self, response).isLimitExceeded)
        }
    }

    @Test("a wrong version, environment or database is a BAD_REQUEST")
    func badPaths() async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // Given paths with a wrong part
            let uris = [
                MarkSyncTestClient.uri("zones/list", token: client.alice, version: "2"),
                MarkSyncTestClient.uri("zones/list", token: client.alice, environment: "staging"),
                MarkSyncTestClient.uri("zones/list", token: client.alice, database: "public"),
            ]
            for uri in uris {
                // When each is requested
                let response = try await client.client.execute(uri: uri, method: .get)
                // Then it is a BAD_REQUEST in the documented shape
                #expect(response.status.code == 400, "\(uri)")
                #expect(try decode(MarkSyncErrorBody.self, response).serverErrorCode == .badRequest)
            }
        }
    }
}
