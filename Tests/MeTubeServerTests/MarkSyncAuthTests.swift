import Foundation
import Hummingbird
import MeTubeAPI
@testable import MeTubeServer
import NIOCore
import Testing

@Suite("Status authentication and isolation")
struct MarkSyncAuthTests {
    @Test("a missing API token or a missing or unknown user token is AUTHENTICATION_REQUIRED (421), a wrong API token AUTHENTICATION_FAILED (401)", arguments: MarkSyncStorage.allCases)
    func tokens(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given requests with missing or wrong tokens
            let cases: [(uri: String, status: Int, code: MarkSyncErrorCode)] = [
                (MarkSyncTestClient.uri("zones/list", token: client.alice, apiToken: nil), 421, .authenticationRequired),
                (MarkSyncTestClient.uri("zones/list", token: client.alice, apiToken: "wrong"), 401, .authenticationFailed),
                (MarkSyncTestClient.uri("zones/list", token: nil), 421, .authenticationRequired),
                (MarkSyncTestClient.uri("zones/list", token: "0123456789abcdef"), 421, .authenticationRequired),
            ]
            for (uri, status, code) in cases {
                // When each is sent
                let response = try await client.client.execute(uri: uri, method: .get)
                // Then it gets the documented status and error body
                #expect(response.status.code == status, "\(uri)")
                #expect(try decode(MarkSyncErrorBody.self, response).serverErrorCode == code, "\(uri)")
            }
        }
    }

    @Test("the user token is accepted as Authorization: Bearer, as ckWebAuthToken, or both when they agree")
    func bearerToken() async throws {
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            // Given requests carrying alice's token in different places
            let noToken = MarkSyncTestClient.uri("zones/list", token: nil)
            let cases: [(uri: String, authorization: String?, status: Int)] = [
                (noToken, "Bearer \(client.alice)", 200),
                (noToken, "bearer  \(client.alice)", 200),
                (MarkSyncTestClient.uri("zones/list", token: client.alice), nil, 200),
                (MarkSyncTestClient.uri("zones/list", token: client.alice), "Bearer \(client.alice)", 200),
                (MarkSyncTestClient.uri("zones/list", token: client.bob), "Bearer \(client.alice)", 400),
                (noToken, "Bearer 0123456789abcdef", 421),
                (noToken, "Basic YWxpY2U6c2VjcmV0", 400),
            ]
            for (uri, authorization, status) in cases {
                // When each is sent
                var headers = HTTPFields()
                if let authorization { headers[.authorization] = authorization }
                let response = try await client.client.execute(uri: uri, method: .get, headers: headers)
                // Then it is answered as documented
                #expect(response.status.code == status, "\(uri) \(authorization ?? "-")")
            }
        }
    }

    @Test("one user never sees or changes another's zones and records", arguments: MarkSyncStorage.allCases)
    func isolation(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given alice's zone with a record
            try await client.createZone(token: client.alice)
            _ = try await client.modify([.init(.create, record: watched("secret"))], token: client.alice)
            let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
            // When bob lists zones, looks up, fetches changes, and addresses alice's zone by owner
            let list = try decode(MarkSyncZonesResponse.self, try await client.get("zones/list", token: client.bob))
            let lookup = try await client.post("records/lookup", MarkSyncRecordsLookupRequest(records: [.init(recordName: "secret")], zoneID: zoneID), token: client.bob)
            let changes = try decode(MarkSyncZoneChangesResponse.self, try await client.post(
                "changes/zone", MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID)]), token: client.bob))
            let byOwner = try await client.post("records/modify", MarkSyncRecordsModifyRequest(
                operations: [.init(.forceDelete, record: MarkSyncRecord(recordName: "secret"))],
                zoneID: MarkSyncZoneID(zoneName: zoneID.zoneName, ownerRecordName: "_alice")), token: client.bob)
            // And bob creates his own zone and record of the same names
            try await client.createZone(token: client.bob)
            _ = try await client.modify([.init(.forceReplace, record: watched("secret", "skipped"))], token: client.bob)
            let alices = try decode(MarkSyncRecordsResponse.self, try await client.post(
                "records/lookup", MarkSyncRecordsLookupRequest(records: [.init(recordName: "secret")], zoneID: zoneID), token: client.alice))
            // Then he sees only his default zone, no record, ACCESS_DENIED by owner, and alice's record is untouched
            #expect(list.zones.count == 1)
            #expect(try decode(MarkSyncErrorBody.self, lookup).serverErrorCode == .zoneNotFound)
            guard case .failure(let error) = changes.zones.first else { Issue.record("bob fetched alice's changes"); return }
            #expect(error.serverErrorCode == .zoneNotFound)
            #expect(byOwner.status.code == 403)
            #expect(try decode(MarkSyncErrorBody.self, byOwner).serverErrorCode == .accessDenied)
            #expect(alices.records.first?.record.flatMap(WatchedRecord.init)?.status == "watched")
        }
    }

    @Test("development and production are separate databases", arguments: MarkSyncStorage.allCases)
    func environments(storage: MarkSyncStorage) async throws {
        let fixture = try await MarkSyncFixture(storage: storage)
        try await fixture.withClient { client in
            // Given a zone in development
            try await client.createZone(token: client.alice)
            // When alice lists production zones
            let production = try decode(MarkSyncZonesResponse.self, try await client.get("zones/list", token: client.alice, environment: "production"))
            // Then only the default zone is there
            #expect(production.zones.count == 1)
        }
    }

    @Test("a taken user name is refused; tokens are stored only as hashes")
    func users() async throws {
        // Given a repository with alice
        let repository = try SQLiteMarkSyncRepository()
        let fixture = try await MarkSyncFixture(repository: repository)
        // When alice is added again
        await #expect(throws: MarkSyncErrorBody.self) { try await fixture.service.addUser(name: "alice") }
        // Then her token is not a key of the repository, but its hash is
        #expect(try await repository.user(tokenHash: fixture.alice) == nil)
        #expect(try await repository.user(tokenHash: MarkSyncTokenHasher.hash(fixture.alice))?.name == "alice")
    }
}

@Suite("Status token hashing")
struct MarkSyncTokenHasherTests {
    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func vectors() {
        // Given the standard messages, When hashed, Then the digests are the published ones
        #expect(MarkSyncTokenHasher.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(MarkSyncTokenHasher.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(MarkSyncTokenHasher.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
