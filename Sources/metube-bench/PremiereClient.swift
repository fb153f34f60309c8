import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync

/// A real client store following one channel, synced from a hub as the TUI syncs it.
struct PremiereClient: Sendable {
    let store: Store
    let engine: SyncEngine

    /// A new store at `path` following `feed`'s channel, synced from `hub` until every premiere
    /// of the feed is in it as upcoming (the hub's first fetch of a new channel comes soon after
    /// it is registered).
    static func syncedUpcoming(_ feed: PremiereFeed, hub: String, in path: String) async throws -> PremiereClient {
        let store = try Store.open(at: URL(fileURLWithPath: path, isDirectory: true))
        try store.apply(StoreChange(channels: [Channel(id: feed.channel.id)]))
        let client = PremiereClient(store: store, engine: SyncEngine(store: store, configuration: SyncConfiguration(source: .hub, hubURL: hub)))
        _ = try await client.syncUntil(deadline: .seconds(30)) { client in
            let library = client.store.library()
            return feed.premieres.allSatisfy { library.video($0.id)?.availability == .upcoming }
        }
        guard Set(client.unwatched) == Set(feed.uploads.map(\.id)) else { throw BenchFailure("unwatched holds more than the uploads: \(client.unwatched)") }
        return client
    }

    /// The ids unwatched lists.
    var unwatched: [String] { FeedQuery(filter: .unwatched).rows(in: store.library(), statusesKnown: true).map(\.video.id) }

    /// One hub sync; throws what it failed with.
    func sync() async throws {
        if let error = await engine.sync().error { throw BenchFailure("hub sync: \(error)") }
    }

    /// Syncs every 10 ms until `condition` holds, at most for `deadline`; when it first held.
    func syncUntil(deadline: Duration, _ condition: (PremiereClient) -> Bool) async throws -> ContinuousClock.Instant {
        let end = ContinuousClock.now + deadline
        while true {
            try await sync()
            if condition(self) { return .now }
            guard ContinuousClock.now < end else { throw BenchFailure("the store was not synced as expected within \(deadline)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
