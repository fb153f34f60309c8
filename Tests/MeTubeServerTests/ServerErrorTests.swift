import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import Testing
@testable import MeTubeServer

/// One error middleware: unexpected errors are logged with a request id and answered without
/// detail; unknown paths and methods answer JSON in the shape of their API.
@Suite struct ServerErrorTests {
    struct SecretFailure: Error, CustomStringConvertible {
        var description: String { "disk I/O error at /var/lib/secret/path" }
    }

    /// A mark-sync repository whose every transaction fails, by default with a Swift error text that
    /// must not leak.
    struct FailingMarkSyncRepository: MarkSyncRepository {
        var failure: any Error & Sendable = SecretFailure()
        func addUser(name: String, tokenHash: String) async throws -> MarkSyncUser? { MarkSyncUser(id: 1, name: name) }
        func user(tokenHash: String) async throws -> MarkSyncUser? { MarkSyncUser(id: 1, name: "alice") }
        func recordSeen(userID: Int64, atMillis millis: Int64) async throws {}
        func modify<T: Sendable>(
            _ reads: MarkSyncModifyReads, deciding decide: @escaping @Sendable (MarkSyncModifyState) throws -> (T, MarkSyncModifyWrites?)
        ) async throws -> T { throw failure }
        func modifyZones<T: Sendable>(
            _ reads: MarkSyncZonesReads, deciding decide: @escaping @Sendable (MarkSyncZonesState) throws -> (T, MarkSyncZonesWrites)
        ) async throws -> T { throw failure }
        func zone(_ key: MarkSyncZoneKey, records selection: MarkSyncRecordSelection) async throws -> (zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord])? {
            throw failure
        }
        func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) async throws -> [StoredMarkSyncZone] { throw failure }
        func zones(in database: MarkSyncDatabaseKey, named names: [String]) async throws -> [StoredMarkSyncZone?] { throw failure }
        func zoneChanges(
            in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int
        ) async throws -> (latest: Int64, changes: [MarkSyncZoneChange]) { throw failure }
    }

    static func application(hub: any HubRepository, markSync: MarkSyncRoutes? = nil, logs: LogCapture) -> some ApplicationProtocol {
        Application(router: buildRouter(hubRepository: hub, markSync: markSync), logger: logs.logger)
    }

    @Test func anUnexpectedHubErrorIsLoggedWithARequestIDAndAnswered500WithoutDetail() async throws {
        // Given a hub whose storage fails with a revealing message
        let logs = LogCapture()
        try await Self.application(hub: FailingHubRepository(), logs: logs).test(.router) { client in
            // When a client lists channels
            try await client.execute(uri: HubAPI.channelsPath, method: .post) { response throws in
                // Then it gets 500 with only "internal error" and the request id, which the log names too
                #expect(response.status == .internalServerError)
                let body = try HubTestSupport.decode(HubErrorBody.self, response.body)
                let requestID = try #require(response.headers[ServerErrorMiddleware<BasicRequestContext>.requestIDHeader])
                #expect(body == HubErrorBody(error: "internal error", requestID: requestID))
                #expect(!String(buffer: response.body).contains("secret") && !String(buffer: response.body).contains("Failure"))
                let logged = logs.entries.filter { $0.level == .error }
                #expect(logged.count == 1)
                #expect(logged.first?.metadata["requestId"] == requestID)
                #expect(logged.first?.metadata["path"] == HubAPI.channelsPath)
            }
        }
    }

    @Test func anUnexpectedMarkSyncErrorIsLoggedAndAnsweredInternalErrorWithoutSwiftText() async throws {
        // Given the mark-sync routes over storage that fails with a revealing message
        let logs = LogCapture()
        let markSync = MarkSyncRoutes(repository: FailingMarkSyncRepository(), configuration: MarkSyncConfiguration(requestsPerSecond: nil))
        let token = try await markSync.service.addUser(name: "alice")
        try await Self.application(hub: try SQLiteHubRepository(), markSync: markSync, logs: logs).test(.router) { client in
            // When alice lists her zones
            let response = try await client.execute(uri: MarkSyncTestClient.uri("zones/list", token: token), method: .get)

            // Then she gets a CloudKit INTERNAL_ERROR whose uuid is the logged request id, and no Swift text
            #expect(response.status == .internalServerError)
            let body = try decode(MarkSyncErrorBody.self, response)
            #expect(body.serverErrorCode == .internalError)
            #expect(body.reason == "internal error")
            #expect(body.uuid == response.headers[ServerErrorMiddleware<BasicRequestContext>.requestIDHeader])
            #expect(!String(buffer: response.body).contains("secret"))
            #expect(logs.entries.contains { $0.level == .error && $0.metadata["requestId"] == body.uuid && $0.metadata["error"]?.contains("secret") == true })
        }
    }

    @Test func aDatabaseThatCannotAnswerNowIsAnswered503WithItsReasonAndRetryAfter() async throws {
        // Given the hub and the mark-sync routes over storage that did not answer in time
        let failure = StorageDeadline.unavailable("the database stayed locked")
        let logs = LogCapture()
        let markSync = MarkSyncRoutes(repository: FailingMarkSyncRepository(failure: failure), configuration: MarkSyncConfiguration(requestsPerSecond: nil))
        let token = try await markSync.service.addUser(name: "alice")
        try await Self.application(hub: FailingHubRepository(failure: failure), markSync: markSync, logs: logs).test(.router) { client in
            // When a client lists the hub's channels and alice her zones
            let hub = try await client.execute(uri: HubAPI.channelsPath, method: .post)
            let zones = try await client.execute(uri: MarkSyncTestClient.uri("zones/list", token: token), method: .get)

            // Then each is told 503 with the reason and to retry after 2 s, in its API's shape, and nothing is logged as unexpected
            let requestID = try #require(hub.headers[ServerErrorMiddleware<BasicRequestContext>.requestIDHeader])
            #expect(hub.status == .serviceUnavailable)
            #expect(hub.headers[.retryAfter] == "2")
            #expect(try HubTestSupport.decode(HubErrorBody.self, hub.body) == HubErrorBody(error: "the database stayed locked", requestID: requestID))
            #expect(zones.status == .serviceUnavailable)
            #expect(zones.headers[.retryAfter] == "2")
            let body = try decode(MarkSyncErrorBody.self, zones)
            #expect(body.serverErrorCode == .tryAgainLater && body.reason == "the database stayed locked" && body.retryAfter == 2)
            #expect(!logs.entries.contains { $0.level == .error })
        }
    }

    @Test(arguments: [
        ServerError.StorageFailure.missing(path: "/var/lib/secret/hub.sqlite"), .busy("a running metube-server holds /var/lib/secret/hub.sqlite"),
        .failed("disk I/O error at /var/lib/secret/hub.sqlite"),
    ])
    func anyOtherStorageFailureIsLoggedAndAnswered500WithoutDetail(failure: ServerError.StorageFailure) async throws {
        // Given a hub whose storage fails so
        let logs = LogCapture()
        try await Self.application(hub: FailingHubRepository(failure: ServerError.storage(failure)), logs: logs).test(.router) { client in
            // When a client lists channels
            let response = try await client.execute(uri: HubAPI.channelsPath, method: .post)

            // Then it gets 500 "internal error" with the request id and no path, and the log has the detail
            let requestID = try #require(response.headers[ServerErrorMiddleware<BasicRequestContext>.requestIDHeader])
            #expect(response.status == .internalServerError && response.headers[.retryAfter] == nil)
            #expect(try HubTestSupport.decode(HubErrorBody.self, response.body) == HubErrorBody(error: "internal error", requestID: requestID))
            #expect(logs.entries.contains { $0.level == .error && $0.metadata["requestId"] == requestID && $0.metadata["error"]?.contains("/var/lib/secret") == true })
        }
    }

    @Test(arguments: [
        ("/nope", HTTPRequest.Method.post), ("/health/", .get), ("/api/channels/register/", .post), ("/api/videos", .post),
        ("/api/videos/query", .get), ("/api/channels", .delete),
    ])
    func unknownHubPathsAndMethodsAnswerJSONNotFound(path: String, method: HTTPRequest.Method) async throws {
        try await HubTestSupport.application().test(.router) { client in
            try await client.execute(uri: path, method: method) { response throws in
                #expect(response.status == .notFound)
                #expect(try HubTestSupport.decode(HubErrorBody.self, response.body) == HubErrorBody(error: "not found"))
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test(arguments: [
        ("records/bogus", HTTPRequest.Method.post), ("records/modify", .get), ("zones/list", .delete), ("changes/zone/", .post),
    ])
    func unknownMarkSyncOperationsAnswerCloudKitNotFound(operation: String, method: HTTPRequest.Method) async throws {
        let fixture = try await MarkSyncFixture()
        let router = buildRouter(hubRepository: try SQLiteHubRepository(), markSync: MarkSyncRoutes(service: fixture.service))
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: MarkSyncTestClient.uri(operation, token: fixture.alice), method: method)
            #expect(response.status == .notFound)
            #expect(try decode(MarkSyncErrorBody.self, response).serverErrorCode == .notFound)
        }
    }

    @Test func headHealthAnswers200() async throws {
        try await HubTestSupport.application().test(.router) { client in
            try await client.execute(uri: HubAPI.healthPath, method: .head) { response throws in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func anEmptyRecordNameIsRefused() async throws {
        // Given alice with her zone
        let fixture = try await MarkSyncFixture()
        try await fixture.withClient { client in
            try await client.createZone(token: client.alice)

            // When she writes and looks up a record named ""
            var record = watched("v1")
            record.recordName = ""
            let results = try await client.modify([.init(.forceReplace, record: record)], token: client.alice)
                + client.modify([.init(.create, record: record)], token: client.alice)
            let lookup = try await client.post(
                "records/lookup", MarkSyncRecordsLookupRequest(records: [.init(recordName: "")], zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName)), token: client.alice)

            // Then each is a BAD_REQUEST and nothing was stored
            #expect(results.map(\.errorCode) == [.badRequest, .badRequest])
            #expect(try decode(MarkSyncRecordsResponse.self, lookup).records.map(\.errorCode) == [.badRequest])
        }
    }
}
