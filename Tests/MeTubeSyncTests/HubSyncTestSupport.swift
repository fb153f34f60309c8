import Foundation
import Hummingbird
import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import MeTubeSync
import TestSupport

/// A real hub application on 127.0.0.1 with a real SQLite file, running until `stop()`.
final class LiveHub: Sendable {
    let repository: SQLiteHubRepository
    let url: String
    private let service: BackgroundService

    private init(repository: SQLiteHubRepository, url: String, service: BackgroundService) {
        self.repository = repository
        self.url = url
        self.service = service
    }

    /// Starts a hub over a new SQLite file in `directory`.
    static func start(in directory: TemporaryDirectory, name: String = "hub") async throws -> LiveHub {
        let repository = try SQLiteHubRepository(path: directory.path("\(name).sqlite"))
        return try await start(router: buildRouter(hubRepository: repository), repository: repository)
    }

    /// Starts `router` on an ephemeral loopback port.
    static func start(router: Router<BasicRequestContext>, repository: SQLiteHubRepository) async throws -> LiveHub {
        let (service, url) = await BackgroundService.serve(router, label: "test-hub")
        return LiveHub(repository: repository, url: url, service: service)
    }

    /// Stops the server.
    func stop() { service.stop() }

    /// Registers the library's channels and stores its videos, oldest first, one channel at a time.
    func seed(_ library: SyntheticLibrary, registering: Bool = true) async throws {
        let channels = library.channels()
        if registering { _ = try await repository.register(channelIDs: channels.map(\.id)) }
        let byChannel = Dictionary(grouping: library.videos().reversed(), by: \.channelID)
        for channel in channels {
            _ = try await repository.ingest(FeedIngestion(channelID: channel.id, channelTitle: channel.title, videos: byChannel[channel.id] ?? []))
        }
    }
}

enum HubSyncTestSupport {
    /// A new store in `directory` following `channels`.
    static func store(in directory: TemporaryDirectory, following channels: [Channel]) throws -> Store {
        let store = try Store.open(at: directory.url.appendingPathComponent("store", isDirectory: true))
        try store.apply(StoreChange(channels: channels))
        return store
    }

    /// A sync configuration for `hubURL` with fast retries.
    static func configuration(_ hubURL: String, pageSize: Int = 100, timeout: Duration = .seconds(10)) -> SyncConfiguration {
        SyncConfiguration(
            source: .hub, hubURL: hubURL, pageSize: pageSize, requestTimeout: timeout,
            retryPolicy: RetryPolicy(delays: [.milliseconds(20), .milliseconds(40), .milliseconds(80)]),
            reconnectDebounce: .milliseconds(50), probeDelays: [.milliseconds(50)]
        )
    }

    /// New videos numbered from `first`, spread over the library's channels, published now.
    static func freshVideos(_ count: Int, from first: Int, of library: SyntheticLibrary) -> [Video] {
        (first..<(first + count)).map { index in
            var video = library.video(index)
            video.published = Date()
            return video
        }
    }
}
