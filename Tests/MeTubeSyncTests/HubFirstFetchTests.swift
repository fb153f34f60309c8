import Foundation
import Hummingbird
import Logging
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

@Suite struct HubFirstFetchTests {
    @Test func aFirstSyncGetsTheVideosOfChannelsTheHubHadNeverFetched() async throws {
        // Given a loopback feed server and the real metube-server over a SQLite file, polling only every 15 minutes
        let directory = TemporaryDirectory("metube-first-fetch")
        defer { directory.remove() }
        let feeds = try await LiveHub.start(router: HubDirectModeTests.feedRouter(), repository: SQLiteHubRepository(path: directory.path("unused.sqlite")))
        defer { feeds.stop() }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test-hub")
        logger.logLevel = .critical
        let app = try await buildApplication(configuration: ServerConfiguration(
            host: "127.0.0.1", port: 0, databasePath: directory.path("hub.sqlite"),
            feedURLTemplate: feeds.url + "/feeds/{channelId}", pollInterval: .seconds(900), ingestConcurrency: 2,
            logger: logger, onListening: { _, port in continuation.yield(port) }))
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let store = try HubSyncTestSupport.store(in: directory, following: HubDirectModeTests.feeds.keys.map { Channel(id: $0) })
        let engine = SyncEngine(store: store, configuration: HubSyncTestSupport.configuration("http://127.0.0.1:\(port)"))

        // When the store syncs for the first time, registering channels the hub has never fetched
        let report = await engine.sync()

        // Then the hub fetched them at once, said so, and the sync came back for every video of their feeds
        #expect(report.isComplete)
        #expect(report.newVideos == 15 + 15 + 15 + 1 + 15)
        #expect(store.library().videos.count == 61)
    }
}
