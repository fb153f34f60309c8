import AsyncHTTPClient
import Foundation
import MeTubeCore
import MeTubeServer
import MeTubeStore
import MeTubeSync
import TestSupport

/// Subscription sync from a device's view (issue 26): the first sync of a device following
/// 2,000 channels pushes them as `Subscription` records, and an empty second device pulls them,
/// each a whole mark-sync run against the loopback SQLite server; and importing 2,000 subscriptions
/// from a YouTube stub.
func subscriptionFigures(service: MarkSyncService, endpoint: MarkSyncEndpoint, httpClient: HTTPClient, directory: URL) async throws -> [Figure] {
    let count = 2_000
    let client = MarkSyncClient(endpoint: endpoint, userToken: try await service.addUser(name: "subscription-bench"), httpClient: httpClient)
    let laptop = try Store.open(at: directory.appendingPathComponent("subscriptions-laptop"))
    let library = SyntheticLibrary(channelCount: count, videoCount: 0, markCount: 0, newest: Date())
    let tags = ["music", "news", "science", "gaming", "talks", "cooking"]
    try laptop.transaction { transaction in
        for (index, channel) in library.channels().enumerated() {
            transaction.follow(Channel(id: channel.id, title: channel.title, tags: Array(tags.shuffled().prefix(index % 3))))
        }
    }
    var pushed = MarkSync.Report()
    let push = try await Measure.millis { pushed = try await MarkSync(client: client, store: laptop).run() }
    let desktop = try Store.open(at: directory.appendingPathComponent("subscriptions-desktop"))
    var pulled = MarkSync.Report()
    let pull = try await Measure.millis { pulled = try await MarkSync(client: client, store: desktop).run() }
    guard pushed.subscriptionsPushed == count, pulled.subscriptionsPulled >= count, desktop.library().channels.count == count else {
        throw MarkSyncRequestFailure.unreadable(httpStatus: 200, "pushed \(pushed.subscriptionsPushed), pulled \(pulled.subscriptionsPulled) of \(count) subscriptions")
    }
    return [
        try await youTubeImportFigure(directory: directory),
        Figure(name: "subscriptions.push.2k", value: push, unit: "ms", goal: "<= 2000 ms",
               detail: "first status sync of a store following 2,000 channels (0-2 tags each), loopback SQLite server, batches of 200, 4 in flight"),
        Figure(name: "subscriptions.pull.2k", value: pull, unit: "ms", goal: "<= 2000 ms", detail: "first status sync of an empty second store, pages of 200"),
    ]
}
