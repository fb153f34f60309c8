import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import NIOCore
import Testing
@testable import MeTubeServer

/// gzip in both directions, through the whole application on loopback.
@Suite struct HTTPCompressionTests {
    typealias Support = HubTestSupport

    private static let gzipHeaders: HTTPFields = [.acceptEncoding: "gzip", .contentType: "application/json"]

    @Test func aVideoPageIsGzippedForAClientThatAcceptsGzipAndPlainForOneThatDoesNot() async throws {
        try await withLiveHub(videos: 200) { client in
            let body = try Support.json(HubVideoQuery(afterSeq: 0, limit: 100))
            let plain = try await client.execute(uri: HubAPI.videoQueryPath, method: .post, headers: [.contentType: "application/json"], body: body)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            for _ in 0..<2 {
                let gzipped = try await client.execute(uri: HubAPI.videoQueryPath, method: .post, headers: Self.gzipHeaders, body: body)
                #expect(gzipped.status == .ok)
                #expect(gzipped.headers[.contentEncoding] == "gzip")
                #expect(gzipped.headers[.vary] == "Accept-Encoding")
                #expect(gzipped.body.readableBytes * 3 < plain.body.readableBytes)
                #expect(try Self.gunzip(gzipped.body) == plain.body)
            }
        }
    }

    @Test func theChannelListIsGzippedAndATinyAnswerIsNot() async throws {
        try await withLiveHub(videos: 0, channels: 60) { client in
            let channels = try await client.execute(uri: HubAPI.channelsPath, method: .post, headers: Self.gzipHeaders, body: Support.body("{}"))
            #expect(channels.headers[.contentEncoding] == "gzip")
            #expect(try Support.decode(HubChannelList.self, Self.gunzip(channels.body)).channels.count == 60)
            let tiny = try await client.execute(uri: HubAPI.channelsPath, method: .post, headers: Self.gzipHeaders, body: Support.body(#"{"limit":1}"#))
            #expect(tiny.headers[.contentEncoding] == nil)
            #expect(try Support.decode(HubChannelList.self, tiny.body).channels.count == 1)
        }
    }

    @Test func aGzippedRequestBodyIsInflatedBeforeTheRouteReadsIt() async throws {
        try await withLiveHub(videos: 0) { client in
            let body = try Support.json(HubRegisterRequest(channelIDs: [Support.channelID(7)]))
            let response = try await client.execute(
                uri: HubAPI.registerPath, method: .post, headers: [.contentType: "application/json", .contentEncoding: "gzip"], body: Self.gzip(body))
            #expect(response.status == .ok)
            let channels = try await client.execute(uri: HubAPI.channelsPath, method: .post, body: Support.body("{}"))
            #expect(try Support.decode(HubChannelList.self, channels.body).channels.map(\.channelID).contains(Support.channelID(7)))
        }
    }

    @Test func aRequestBodyThatInflatesPastTheLimitIs413WithoutInflatingIt() async throws {
        try await withLiveHub(videos: 0) { client in
            let bomb = try Self.gzip(ByteBuffer(repeating: UInt8(ascii: " "), count: 256 << 20))
            #expect(bomb.readableBytes < 1 << 20)
            let response = try await client.execute(
                uri: HubAPI.registerPath, method: .post, headers: [.contentEncoding: "gzip"], body: bomb)
            #expect(response.status == .contentTooLarge)
            #expect(String(buffer: response.body).contains("larger than"))
        }
    }

    @Test func aTruncatedGzipBodyAndAnUnknownCodingAreRefusedWith400() async throws {
        try await withLiveHub(videos: 0) { client in
            let whole = try Self.gzip(try Support.json(HubRegisterRequest(channelIDs: [Support.channelID(8)])))
            let truncated = whole.getSlice(at: whole.readerIndex, length: whole.readableBytes / 2)!
            let cut = try await client.execute(uri: HubAPI.registerPath, method: .post, headers: [.contentEncoding: "gzip"], body: truncated)
            #expect(cut.status == .badRequest)
            let brotli = try await client.execute(uri: HubAPI.registerPath, method: .post, headers: [.contentEncoding: "br"], body: whole)
            #expect(brotli.status == .badRequest)
            let channels = try await client.execute(uri: HubAPI.channelsPath, method: .post, body: Support.body("{}"))
            #expect(!(try Support.decode(HubChannelList.self, channels.body).channels.map(\.channelID).contains(Support.channelID(8))))
        }
    }

    @Test func markSyncReadsAreGzippedAndAGzippedModifyIsAccepted() async throws {
        let fixture = try await MarkSyncFixture()
        let router = buildRouter(hubRepository: try SQLiteHubRepository(), markSync: MarkSyncRoutes(service: fixture.service))
        try await Application(router: router).test(.router) { client in
            let status = MarkSyncTestClient(client: client, alice: fixture.alice, bob: fixture.bob)
            try await status.createZone(token: fixture.alice)
            let records = (0..<40).map { watched("video\($0)aaaa") }
            let modify = MarkSyncRecordsModifyRequest(operations: records.map { .init(.forceReplace, record: $0) }, zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName), atomic: false)
            let modified = try await client.execute(
                uri: MarkSyncTestClient.uri("records/modify", token: fixture.alice), method: .post,
                headers: [.contentEncoding: "gzip"], body: Self.gzip(ByteBuffer(bytes: JSONEncoder().encode(modify))))
            #expect(modified.status == .ok)
            let changes = try await client.execute(
                uri: MarkSyncTestClient.uri("changes/zone", token: fixture.alice), method: .post, headers: Self.gzipHeaders,
                body: ByteBuffer(bytes: JSONEncoder().encode(MarkSyncZoneChangesRequest(zones: [.init(zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName))]))))
            #expect(changes.headers[.contentEncoding] == "gzip")
            let answer = try JSONDecoder().decode(MarkSyncZoneChangesResponse.self, from: Data(Self.gunzip(changes.body).readableBytesView))
            guard case .success(let zone) = answer.zones.first else { throw MarkSyncErrorBody(.internalError, "\(answer)") }
            #expect(zone.records.count == 40)
        }
    }

    /// Runs `body` against the whole application on loopback over an SQLite file holding
    /// `channels` channels and `videos` videos.
    private func withLiveHub(videos: Int, channels: Int = 2, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let database = try ServerDatabase(path: Support.temporaryDatabasePath())
        let repository = try SQLiteHubRepository(database: database)
        let ids = (0..<channels).map { Support.channelID($0) }
        _ = try await repository.register(channelIDs: ids)
        _ = try await repository.ingest(FeedIngestion(channelID: ids[0], channelTitle: "Zero", videos: (0..<videos).map { Support.video($0, channel: ids[0], title: "a video title of a realistic length number \($0)") }))
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, pollInterval: nil)
        let app = try await buildApplication(configuration: configuration, database: database)
        try await app.test(.live, body)
    }

    static func gzip(_ bytes: ByteBuffer) throws -> ByteBuffer {
        var input = bytes
        return try input.compress(with: .gzip())
    }

    static func gunzip(_ bytes: ByteBuffer) throws -> ByteBuffer {
        var input = bytes
        return try input.decompress(with: .gzip())
    }
}
