import Foundation
import AsyncHTTPClient
import MeTubeAPI
import MeTubeServer
import MeTubeStore
import MeTubeSync
import MeTubeTUI
import ServerTestSupport
import TestSupport

/// Mark-sync figures from a device's view, against a loopback server on an SQLite file: pushing
/// and pulling 10,000 marks, a key press to the badge showing synced, and pushing and pulling
/// 2,000 subscriptions. The server's own
/// throughput is in the `server` suite.
func markSyncFigures() async throws -> [Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let service = MarkSyncService(
        repository: try SQLiteMarkSyncRepository(path: directory.appendingPathComponent("status.sqlite").path),
        configuration: MarkSyncConfiguration(requestsPerSecond: nil))
    let server = try await MarkSyncLoopbackServer.start(service: service)
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
    let endpoint = MarkSyncEndpoint(serverURL: server.baseURL, environment: "development")
    let device = try await deviceFigures(service: service, endpoint: endpoint, httpClient: httpClient, directory: directory)
    let keyToSynced = try await keyToSyncedFigure(service: service, endpoint: endpoint, httpClient: httpClient, directory: directory)
    let subscriptions = try await subscriptionFigures(service: service, endpoint: endpoint, httpClient: httpClient, directory: directory)
    try await httpClient.shutdown()
    await server.stop()
    return device + [keyToSynced] + subscriptions
}

/// From a key press (the store makes the mark durable) to the badge showing synced: the TUI's
/// 2 s debouncer, a marks-only run of the SyncEngine pushing to the loopback server, and the
/// store holding the mark as synced. The median of 5 presses.
private func keyToSyncedFigure(service: MarkSyncService, endpoint: MarkSyncEndpoint, httpClient: HTTPClient, directory: URL) async throws -> Figure {
    let debounce = Duration.seconds(2)
    let client = MarkSyncClient(endpoint: endpoint, userToken: try await service.addUser(name: "key-bench"), httpClient: httpClient)
    let store = try Store.open(at: directory.appendingPathComponent("key-bench"))
    let engine = SyncEngine(
        store: store, configuration: SyncConfiguration(hubInterval: nil, markSyncInterval: nil), markSync: MarkSync(client: client, store: store))
    let debouncer = Debouncer(delay: debounce) { await engine.sync(.markSync) }
    var events = engine.events.makeAsyncIterator()
    var samples: [Double] = []
    for press in 0..<5 {
        let videoID = "key-\(press)"
        samples.append(try await Measure.millis {
            _ = try store.mark(videoID, as: .watched)
            await debouncer.poke()
            while store.library().marks[videoID]?.syncState != .synced {
                guard await events.next() != nil else { throw MarkSyncRequestFailure.unreadable(httpStatus: 200, "the engine stopped before \(videoID) synced") }
            }
        })
    }
    await engine.shutdown()
    let median = Measure.median(samples)
    return Figure(
        name: "status.key-to-synced", value: median, unit: "ms", goal: "<= \(Int(debounce.milliseconds) + 100) ms",
        detail: "median of 5: mark, 2 s debounce, marks-only engine run, loopback SQLite server; \(String(format: "%.1f", median - debounce.milliseconds)) ms over the debounce")
}

/// A device's view: pushing 10,000 pending marks from a real store, and pulling 10,000 changes
/// into an empty one.
private func deviceFigures(service: MarkSyncService, endpoint: MarkSyncEndpoint, httpClient: HTTPClient, directory: URL) async throws -> [Figure] {
    let count = 10_000
    let client = MarkSyncClient(endpoint: endpoint, userToken: try await service.addUser(name: "device-bench"), httpClient: httpClient)
    let pusher = try Store.open(at: directory.appendingPathComponent("pusher"))
    try pusher.transaction { transaction in
        for index in 0..<count { transaction.mark("video-\(index)", as: index % 4 == 0 ? .skipped : .watched) }
    }
    var pushed = MarkSync.Report()
    let push = try await Measure.millis { pushed = try await MarkSync(client: client, store: pusher).pushPending() }
    let puller = try Store.open(at: directory.appendingPathComponent("puller"))
    var pulled = MarkSync.Report()
    let pull = try await Measure.millis { pulled = try await MarkSync(client: client, store: puller).pullChanges() }
    guard pushed.pushed == count, pulled.pulled == count, puller.library().marks.count == count else {
        throw MarkSyncRequestFailure.unreadable(httpStatus: 200, "pushed \(pushed.pushed), pulled \(pulled.pulled) of \(count)")
    }
    return [
        Figure(name: "status.push.10k", value: push, unit: "ms", goal: "<= 1500 ms", detail: "real store, loopback SQLite server, batches of 200"),
        Figure(name: "status.pull.10k", value: pull, unit: "ms", goal: "<= 1500 ms", detail: "into an empty store, pages of 200"),
    ]
}
