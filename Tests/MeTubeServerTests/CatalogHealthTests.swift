import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
@testable import MeTubeServer
import Testing
import TestSupport

/// `/health` says when the channel catalog's calls fail (how many, why, when next), on a live server.
@Suite struct CatalogHealthTests {
    typealias Support = HubTestSupport

    @Test func healthNamesTheCatalogsFailureAndStaysOK() async throws {
        // Given a live server polling a feed server, whose yt-dlp is missing
        try await HubIngestionTests.feedServer().test(.live) { feedClient in
            let feedPort = try #require(feedClient.port)
            var configuration = ServerConfiguration(feedURLTemplate: "http://127.0.0.1:\(feedPort)/feeds/{channelId}", pollInterval: .seconds(3600))
            configuration.catalog = CatalogConfiguration(ytDLP: "/nonexistent/yt-dlp")
            try await PushStorage.sqlite.makeStore().withLiveServer(configuration) { client in
                let header = { @Sendable () async throws -> (HTTPResponse.Status, String, String?) in
                    try await client.execute(uri: HubAPI.healthPath, method: .get) { ($0.status, String(buffer: $0.body), $0.headers[HubResponses.catalogHeader]) }
                }
                #expect(try await header().2 == nil)

                // When a channel is registered: its feed is stored, then its backfill fails
                let channel = try #require(HubIngestionTests.feeds.keys.sorted().first)
                try await client.execute(uri: HubAPI.registerPath, method: .post, body: try Support.json(HubRegisterRequest(channelIDs: [channel])))

                // Then /health still answers ok, and its MeTube-Catalog header names the failure, the count and the retry
                let failing = try await eventually("/health never named the failure") { try await header().2 }
                #expect(failing.hasPrefix("failing; calls=1; retry=20"), "\(failing)")
                #expect(failing.contains("reason=\(channel): yt-dlp not found: /nonexistent/yt-dlp"), "\(failing)")
                let (status, body, _) = try await header()
                #expect(status == .ok && body == "ok")
            }
        }
    }
}
