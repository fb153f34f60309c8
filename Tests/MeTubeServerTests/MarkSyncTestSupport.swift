import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import MeTubeServer
import NIOCore
import ServerTestSupport
import TestSupport
import Testing

/// Where a test's mark-sync service keeps its data.
enum MarkSyncStorage: String, CaseIterable, Sendable {
    case memory
    case sqlite
    case postgres

    /// A fresh, empty repository of this kind (an SQLite file in a new temporary directory, a new
    /// database in the test PostgreSQL cluster).
    func makeRepository() async throws -> any MarkSyncRepository {
        switch self {
        case .memory:
            return try SQLiteMarkSyncRepository()
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try SQLiteMarkSyncRepository(path: directory.appendingPathComponent("status.sqlite").path)
        case .postgres:
            return PostgresMarkSyncRepository(database: try await .forTests())
        }
    }
}

/// A mark-sync service with two users, alice and bob, tested through its router.
struct MarkSyncFixture {
    let service: MarkSyncService
    let alice: String
    let bob: String

    /// A fresh service over `repository`, else a new one of `storage`; throttling is off unless
    /// `configuration` turns it on.
    init(configuration: MarkSyncConfiguration = MarkSyncConfiguration(requestsPerSecond: nil), storage: MarkSyncStorage = .memory, repository: (any MarkSyncRepository)? = nil) async throws {
        let repository = if let repository { repository } else { try await storage.makeRepository() }
        service = MarkSyncService(repository: repository, configuration: configuration)
        alice = try await service.addUser(name: "alice")
        bob = try await service.addUser(name: "bob")
    }

    /// Runs `body` with a client of the service's router.
    func withClient(_ body: @escaping @Sendable (MarkSyncTestClient) async throws -> Void) async throws {
        let router = Router()
        router.add(middleware: ServerErrorMiddleware())
        MarkSyncRoutes(service: service).register(on: router)
        let app = Application(router: router)
        try await app.test(.router) { client in
            try await body(MarkSyncTestClient(client: client, alice: alice, bob: bob))
        }
    }
}

/// Sends mark-sync requests to a test router and decodes the answers.
struct MarkSyncTestClient: Sendable {
    let client: any TestClientProtocol
    let alice: String
    let bob: String

    /// The URI of `operation` in the private database, with the given tokens.
    static func uri(_ operation: String, token: String?, apiToken: String? = MarkSyncConfiguration.defaultAPIToken, environment: String = "development", database: String = "private", version: String = "1") -> String {
        var query: [String] = []
        if let apiToken { query.append("ckAPIToken=\(apiToken)") }
        if let token { query.append("ckWebAuthToken=\(token)") }
        return "/database/\(version)/\(MarkSyncConfiguration.defaultContainer)/\(environment)/\(database)/\(operation)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// POSTs `body` as JSON to `operation` as the user with `token`.
    func post(_ operation: String, _ body: some Encodable, token: String?, environment: String = "development") async throws -> TestResponse {
        try await client.execute(
            uri: Self.uri(operation, token: token, environment: environment), method: .post,
            body: ByteBuffer(bytes: JSONEncoder().encode(body)))
    }

    /// POSTs raw bytes to `uri`.
    func post(uri: String, raw: ByteBuffer) async throws -> TestResponse {
        try await client.execute(uri: uri, method: .post, body: raw)
    }

    /// GETs `operation` as the user with `token`.
    func get(_ operation: String, token: String?, environment: String = "development") async throws -> TestResponse {
        try await client.execute(uri: Self.uri(operation, token: token, environment: environment), method: .get)
    }

    /// Creates the watched-status zone for the user with `token`.
    func createZone(_ name: String = WatchedRecord.zoneName, token: String) async throws {
        let response = try await post("zones/modify", MarkSyncZonesModifyRequest(operations: [.init(.create, zone: MarkSyncZoneID(zoneName: name))]), token: token)
        guard response.status == .ok else { throw MarkSyncErrorBody(.internalError, "zone create failed: \(response.status)") }
    }

    /// Sends `operations` to `records/modify` in the watched-status zone and decodes the results.
    func modify(_ operations: [MarkSyncRecordsModifyRequest.Operation], atomic: Bool? = false, token: String, zone: String = WatchedRecord.zoneName) async throws -> [MarkSyncRecordResult] {
        let response = try await post("records/modify", MarkSyncRecordsModifyRequest(operations: operations, zoneID: MarkSyncZoneID(zoneName: zone), atomic: atomic), token: token)
        return try decode(MarkSyncRecordsResponse.self, response).records
    }
}

/// A watched-status record for `videoID` with `status`.
func watched(_ videoID: String, _ status: String = "watched", tag: String? = nil) -> MarkSyncRecord {
    WatchedRecord(videoID: videoID, status: status, lastModified: 1_765_650_000_000, hlc: "1765650000000-0", deviceID: "test").record(changeTag: tag)
}

/// Decodes a JSON answer, failing with the body's text when it is not a `T`.
func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    do {
        return try JSONDecoder().decode(type, from: Data(response.body.readableBytesView))
    } catch {
        throw MarkSyncErrorBody(.internalError, "\(response.status): \(String(buffer: response.body)) is not a \(type): \(error)")
    }
}

extension MarkSyncRecordResult {
    /// The record of a success.
    var record: MarkSyncRecord? {
        if case .success(let record) = self { record } else { nil }
    }

    /// The error code of a failure.
    var errorCode: MarkSyncErrorCode? {
        if case .failure(let error) = self { error.serverErrorCode } else { nil }
    }

    /// The reason of a failure.
    var reason: String? {
        if case .failure(let error) = self { error.reason } else { nil }
    }
}

extension MarkSyncZoneResult {
    /// The error code of a failure.
    var errorCode: MarkSyncErrorCode? {
        if case .failure(let error) = self { error.serverErrorCode } else { nil }
    }

    /// The zone name of a success.
    var zoneName: String? {
        if case .success(let zone) = self { zone.zoneID.zoneName } else { nil }
    }
}

extension MarkSyncZoneChangesResult {
    /// The error code of a failure.
    var errorCode: MarkSyncErrorCode? {
        if case .failure(let error) = self { error.serverErrorCode } else { nil }
    }
}

extension MarkSyncService {
    /// The watched-status zone the persistence tests write in.
    static let watchedZone = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)

    /// Adds the user carol and creates, through this service, the watched-status zone and record
    /// `v1` in it (production environment): her token, her caller and the record's change tag.
    func carolWithRecordV1() async throws -> (token: String, caller: MarkSyncCaller, tag: String) {
        let token = try await addUser(name: "carol")
        let caller = try await authenticate(container: MarkSyncConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token)
        _ = try await modifyZones(MarkSyncZonesModifyRequest(operations: [.init(.create, zone: Self.watchedZone)]), caller: caller)
        let created = try await modifyRecords(MarkSyncRecordsModifyRequest(operations: [.init(.create, record: watched("v1"))], zoneID: Self.watchedZone), bodyBytes: 0, caller: caller)
        let tag = try #require(created.records.first?.record?.recordChangeTag)
        return (token, caller, tag)
    }

    /// Authenticates `token` through this service (production environment) and updates record
    /// `v1` to skipped with `tag`: the caller and the answer.
    func updateV1ToSkipped(token: String, tag: String) async throws -> (caller: MarkSyncCaller, updated: MarkSyncRecordsResponse) {
        let caller = try await authenticate(container: MarkSyncConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token)
        let updated = try await modifyRecords(
            MarkSyncRecordsModifyRequest(operations: [.init(.update, record: watched("v1", "skipped", tag: tag))], zoneID: Self.watchedZone), bodyBytes: 0, caller: caller)
        return (caller, updated)
    }
}
