import Foundation
import AsyncHTTPClient
import MeTubeServer
import MeTubeStore
import MeTubeSync
import ServerTestSupport
import TestSupport

/// Watch-later queue figures: adding 1,000 videos to the queue of a real store (in one write, as
/// `metube queue add` with 1,000 ids does, and as 1,000 durable writes, as 1,000 `l` presses do),
/// and those 1,000 entries reaching a second device through a loopback server on an SQLite file
/// (the first device's push, then the second's pull).
func queueFigures() async throws -> [Figure] {
    let count = 1_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-queue-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let ids = (0..<count).map { SyntheticLibrary.videoID($0) }

    let oneWrite = try Store.open(at: directory.appendingPathComponent("one-write"))
    let addOnce = try Measure.millis { try oneWrite.transaction { transaction in for id in ids { transaction.addToQueue(id) } } }
    let eachDurable = try Store.open(at: directory.appendingPathComponent("each-durable"))
    let addEach = try Measure.millis { for id in ids { try eachDurable.editQueue(.add(id)) } }

    let service = MarkSyncService(
        repository: try SQLiteMarkSyncRepository(path: directory.appendingPathComponent("status.sqlite").path),
        configuration: MarkSyncConfiguration(requestsPerSecond: nil))
    let server = try await MarkSyncLoopbackServer.start(service: service)
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
    let client = MarkSyncClient(endpoint: MarkSyncEndpoint(serverURL: server.baseURL, environment: "development"),
                              userToken: try await service.addUser(name: "queue-bench"), httpClient: httpClient)
    let phone = try Store.open(at: directory.appendingPathComponent("phone"))
    var pushMillis = 0.0
    let travel = try await Measure.millis {
        pushMillis = try await Measure.millis { _ = try await MarkSync(client: client, store: oneWrite).run() }
        _ = try await MarkSync(client: client, store: phone).run()
    }
    let arrived = phone.library().queuedVideoIDs
    try await httpClient.shutdown()
    await server.stop()
    guard arrived == oneWrite.library().queuedVideoIDs, arrived.count == count else {
        throw MarkSyncRequestFailure.unreadable(httpStatus: 200, "the second device holds \(arrived.count) of \(count) queued videos, or another order")
    }
    return [
        Figure(name: "queue.add.1000.one-write", value: addOnce, unit: "ms", goal: "<= 500 ms", detail: "1,000 adds staged in one journal line, fsync'd"),
        Figure(name: "queue.add.1000.each-durable", value: addEach, unit: "ms", goal: "<= 500 ms", detail: "1,000 writes of one add each, every one fsync'd (as 1,000 l presses)"),
        Figure(name: "queue.sync.1000.second-device", value: travel, unit: "ms", goal: "<= 1000 ms",
               detail: "first device's run (push \(String(format: "%.0f", pushMillis)) ms, records without marks) then the second's pull; loopback SQLite server"),
    ]
}
