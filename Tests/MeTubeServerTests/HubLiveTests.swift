import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import Synchronization
import Testing
@testable import MeTubeServer

@Suite struct HubLiveTests {
    typealias Support = HubTestSupport

    @Test func aLiveServerOnLoopbackWithASQLiteFileServesTheWholeAPI() async throws {
        // Given the full application on 127.0.0.1:0 with a real SQLite file and the demo seed
        let path = Support.temporaryDatabasePath()
        let listening = ListeningPort()
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, databasePath: path, pollInterval: nil, demo: true, demoInterval: .seconds(3600),
            onListening: { _, port in listening.record(port) }
        )
        let app = try await buildApplication(configuration: configuration)

        try await app.test(.live) { client in
            // When a client registers a channel and pages through everything over HTTP
            let port = try #require(client.port)
            try await client.execute(uri: HubAPI.registerPath, method: .post, body: try Support.json(HubRegisterRequest(channelIDs: [Support.channelID(999)])))
            var afterSeq: Int64 = 0
            var videoIDs: [String] = []
            while true {
                let page = try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try Support.json(HubVideoQuery(afterSeq: afterSeq, limit: 500))) { response throws in
                    #expect(response.status == .ok)
                    return try Support.decode(HubVideoPage.self, response.body)
                }
                guard !page.videos.isEmpty else { break }
                videoIDs += page.videos.map(\.videoID)
                afterSeq = page.maxSeqReturned
            }

            // Then the demo seed (216 channels, 10,000 videos) comes back exactly once, and the bound port was announced
            #expect(videoIDs.count == 10_000)
            #expect(Set(videoIDs).count == 10_000)
            #expect(listening.port == port)
            let channels = try await client.execute(uri: HubAPI.channelsPath, method: .post) { try Support.decode(HubChannelList.self, $0.body) }
            #expect(channels.channels.count == 217)
        }
        #expect(FileManager.default.fileExists(atPath: path))
    }
}

/// Remembers the port the server announced.
final class ListeningPort: Sendable {
    private let value = Mutex<Int?>(nil)
    func record(_ port: Int) { value.withLock { $0 = port } }
    var port: Int? { value.withLock { $0 } }
}
