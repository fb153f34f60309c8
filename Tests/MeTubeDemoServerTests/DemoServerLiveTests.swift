import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MeTubeAPI
import MeTubeDemo
import MeTubeDemoServer
import MeTubeServer
import Synchronization
import Testing
import TestSupport

/// The whole server as `metube-server --demo` builds it: the demo add-on installed over a real
/// SQLite file, on 127.0.0.1.
@Suite struct DemoServerLiveTests {
    @Test func aLiveServerOnLoopbackWithASQLiteFileServesTheWholeAPI() async throws {
        // Given the full application on 127.0.0.1:0 with a real SQLite file and the demo seed
        let directory = TemporaryDirectory("metube-demo-live")
        defer { directory.remove() }
        let path = directory.path("hub.sqlite")
        let listening = ListeningPort()
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, databasePath: path, pollInterval: nil,
            onListening: { _, port in listening.record(port) }
        )
        configuration.addOns = [DemoAddOn(interval: .seconds(3600), logger: Logger(label: "demo"))]
        let app = try await buildApplication(configuration: configuration)

        try await app.test(.live) { client in
            // When a client registers a channel and pages through everything over HTTP
            let port = try #require(client.port)
            try await client.execute(uri: HubAPI.registerPath, method: .post, body: try json(HubRegisterRequest(channelIDs: [DemoCatalog.channelID(999)])))
            var afterSeq: Int64 = 0
            var videoIDs: [String] = []
            var thumbnailsElsewhere: [String] = []
            while true {
                let page = try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try json(HubVideoQuery(afterSeq: afterSeq, limit: 500))) { response throws in
                    #expect(response.status == .ok)
                    return try decode(HubVideoPage.self, response.body)
                }
                guard !page.videos.isEmpty else { break }
                videoIDs += page.videos.map(\.videoID)
                thumbnailsElsewhere += page.videos.filter { $0.thumbnailURL != "http://127.0.0.1:\(port)/demo/thumbnails/\($0.videoID).jpg" }.map(\.videoID)
                afterSeq = page.maxSeqReturned
            }

            // Then the demo seed (216 channels, 10,000 videos) comes back exactly once, its
            // thumbnails pointing at the bound port, which was announced
            #expect(videoIDs.count == 10_000)
            #expect(Set(videoIDs).count == 10_000)
            #expect(listening.port == port)
            #expect(thumbnailsElsewhere.count == 0, "thumbnails that do not point here: \(thumbnailsElsewhere.prefix(3))…")
            let channels = try await client.execute(uri: HubAPI.channelsPath, method: .post) { try decode(HubChannelList.self, $0.body) }
            #expect(channels.channels.count == 217)
        }
        #expect(FileManager.default.fileExists(atPath: path))
    }

    private func json(_ value: some Encodable) throws -> ByteBuffer { ByteBuffer(bytes: try JSONEncoder().encode(value)) }

    private func decode<Value: Decodable>(_ type: Value.Type, _ buffer: ByteBuffer) throws -> Value {
        try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
    }
}

/// Remembers the port the server announced.
final class ListeningPort: Sendable {
    private let value = Mutex<Int?>(nil)
    func record(_ port: Int) { value.withLock { $0 = port } }
    var port: Int? { value.withLock { $0 } }
}
