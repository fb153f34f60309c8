import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MeTubeAPI
import Testing
@testable import MeTubeServer

@Suite struct HubIngestionTests {
    typealias Support = HubTestSupport

    /// Channel ids and the fixture each one's feed serves.
    static let feeds: [String: String] = [
        "UC9PBzalIcEQCsiIkq36PyUA": "capyreader_digital_foundry_channel.xml",
        "UCK8sQmJBp8GCxrOtXWBpyEA": "feedjira_google_channel_2015.xml",
        "UC_aBYQ3phPsrkSXkpnZeDZw": "higuma_notify_japanese_channel.xml",
        "UCk195x4zYdMx4LhqEwhcPng": "podtube_ift_spanish_channel_2021.xml",
        "UCP7uiEZIqci43m22KDl0sNw": "rssparser_kotlin_jetbrains_channel.xml",
        "UCtmY49Zn4l0RMJnTWfV7Wsg": "sitch_jacob_collier_channel_2019.xml",
        "UCLA_DiR1FfKNvjuUpBHmylQ": "youpdated_nasa_channel_2026.xml",
    ]
    static let malformedChannel = "UCmalformedmalformedmalf"
    static let missingChannel = "UCmissingmissingmissingm"

    /// The Atom fixtures kept with the core tests.
    static let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MeTubeFeedsTests/Fixtures/youtube_atom")

    /// A feed server: `/feeds/{channelId}` serves a fixture with an ETag and honours If-None-Match;
    /// one channel serves broken XML and one is unknown (404).
    static func feedServer() -> some ApplicationProtocol {
        let router = Router()
        router.get("/feeds/:channelId") { request, context -> Response in
            let channelID = try context.parameters.require("channelId")
            if channelID == malformedChannel {
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>")))
            }
            guard let file = feeds[channelID] else { return Response(status: .notFound) }
            if request.headers[.ifNoneMatch] == "\"v1\"" { return Response(status: .notModified) }
            let data = try Data(contentsOf: fixtureFolder.appendingPathComponent(file))
            return Response(status: .ok, headers: [.eTag: "\"v1\"", .contentType: "application/atom+xml"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test func pollingIngestsEveryGoodFeedSkipsBadOnesAndUsesConditionalGET() async throws {
        try await Self.feedServer().test(.live) { feedClient in
            // Given a hub with the seven fixture channels, one malformed and one missing feed
            let port = try #require(feedClient.port)
            let repository = try SQLiteHubRepository(path: Support.temporaryDatabasePath())
            _ = try await repository.register(channelIDs: Array(Self.feeds.keys).sorted() + [Self.malformedChannel, Self.missingChannel])
            let ingester = FeedIngester(
                repository: repository, feedURLTemplate: "http://127.0.0.1:\(port)/feeds/{channelId}",
                pollInterval: .seconds(3600), concurrency: 3, logger: Logger(label: "test")
            )

            // When it polls twice
            let first = await ingester.poll()
            let second = await ingester.poll()

            // Then the first round stores every entry and the failures don't stop the others
            #expect(first.fetched == 7)
            #expect(first.failed == 2)
            #expect(first.inserted == 15 + 15 + 15 + 15 + 1 + 14 + 15)
            // And the second round is all 304s while the failing channels back off
            #expect(second == FeedIngester.Round(fetched: 0, notModified: 7, failed: 0, backingOff: 2, inserted: 0))

            let channels = try await repository.channels(after: nil, limit: 100)
            #expect(channels.first { $0.channelID == "UC9PBzalIcEQCsiIkq36PyUA" }?.title == "Digital Foundry")
            #expect(channels.first { $0.channelID == "UC_aBYQ3phPsrkSXkpnZeDZw" }?.title == "ぼくひぐま。〜おとなの学びや〜")
            #expect(channels.first { $0.channelID == Self.malformedChannel }?.title == nil)
            let shorts = try await repository.videos(matching: HubVideoSelection(channelIDs: ["UC_aBYQ3phPsrkSXkpnZeDZw"]))
            #expect(shorts.videos.filter { $0.url.contains("/shorts/") }.count == 10)
        }
    }

    @Test func eachFetchIsRecordedForTheOperatorWithFailuresInARowAndTheLastReason() async throws {
        try await Self.feedServer().test(.live) { feedClient in
            // Given a hub with a good, a malformed and a missing feed, and one channel never polled
            let port = try #require(feedClient.port)
            let path = Support.temporaryDatabasePath()
            let repository = try SQLiteHubRepository(path: path)
            let good = "UC9PBzalIcEQCsiIkq36PyUA"
            _ = try await repository.register(channelIDs: [good, Self.malformedChannel, Self.missingChannel])
            let ingester = FeedIngester(
                repository: repository, feedURLTemplate: "http://127.0.0.1:\(port)/feeds/{channelId}",
                pollInterval: .zero, concurrency: 2, logger: Logger(label: "test")
            )
            let before = Date()

            // When it polls three times (no backoff: the poll interval is zero)
            for _ in 0..<3 { _ = await ingester.poll() }

            // Then `channels list` sees every fetch: the good feed with no failure, the bad ones
            // with three failures in a row and why
            let channels = Dictionary(uniqueKeysWithValues: try await SQLiteAdministration(path: path).channels().map { ($0.channelID, $0) })
            for id in [good, Self.malformedChannel, Self.missingChannel] {
                #expect((channels[id]?.lastFetchMillis ?? 0) >= Int64(before.timeIntervalSince1970 * 1000) - 1000, "\(id)")
            }
            #expect(channels[good]?.consecutiveFailures == 0)
            #expect(channels[good]?.lastFailure == nil)
            #expect(channels[Self.missingChannel]?.consecutiveFailures == 3)
            #expect(channels[Self.missingChannel]?.lastFailure == "HTTP 404")
            #expect(channels[Self.malformedChannel]?.consecutiveFailures == 3)
            #expect(channels[Self.malformedChannel]?.lastFailure?.isEmpty == false)
        }
    }
}
