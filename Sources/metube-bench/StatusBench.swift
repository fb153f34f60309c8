import AsyncHTTPClient
import Foundation
import TestSupport
import MeTubeAPI
import MeTubeServer
import MeTubeStore
import MeTubeSync
import MeTubeTUI

/// Status server throughput: `records/modify` with 200 records per request and `changes/zone`
/// paging, each under 50 concurrent users, against a loopback server on an SQLite file.
func statusFigures() async throws -> [Figure] {
    let users = 50
    let requestsPerUser = 8
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let service = StatusService(
        repository: try SQLiteStatusRepository(path: directory.appendingPathComponent("status.sqlite").path),
        configuration: StatusConfiguration(requestsPerSecond: nil))
    let server = try await StatusLoopbackServer.start(service: service)
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = users
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let endpoint = StatusEndpoint(serverURL: server.baseURL, environment: "development")
    var clients: [StatusClient] = []
    for index in 0..<users {
        let client = StatusClient(endpoint: endpoint, userToken: try await service.addUser(name: "bench\(index)"), httpClient: httpClient)
        _ = try await client.modifyZones(StatusZonesModifyRequest(operations: [.init(.create, zone: StatusZoneID(zoneName: WatchedStatusRecord.zoneName))]))
        clients.append(client)
    }
    let zoneID = StatusZoneID(zoneName: WatchedStatusRecord.zoneName)

    let modify = try await concurrentRun(users: users, requestsPerUser: requestsPerUser) { [clients] user, round in
        let operations = (0..<200).map { index in
            StatusRecordsModifyRequest.Operation(.forceReplace, record: WatchedStatusRecord(
                videoID: "video-\(round)-\(index)", status: index % 3 == 0 ? "skipped" : "watched",
                lastModified: 1_765_650_000_000 + Int64(index), hlc: "1765650000000-\(index)", deviceID: "bench").record())
        }
        let response = try await clients[user].modifyRecords(StatusRecordsModifyRequest(operations: operations, zoneID: zoneID, atomic: false))
        guard response.records.count == 200 else { throw StatusRequestFailure.unreadable(httpStatus: 200, "short modify answer") }
    }
    var pageTokens: [[String?]] = []
    for client in clients {
        var tokens: [String?] = [nil]
        for _ in 1..<requestsPerUser {
            tokens.append(try await fetchPage(client, zoneID: zoneID, token: tokens.last ?? nil))
        }
        pageTokens.append(tokens)
    }
    let changes = try await concurrentRun(users: users, requestsPerUser: requestsPerUser) { [clients, pageTokens] user, round in
        _ = try await fetchPage(clients[user], zoneID: zoneID, token: pageTokens[user][round])
    }
    let device = try await deviceFigures(service: service, endpoint: endpoint, httpClient: httpClient, directory: directory)
    let keyToSynced = try await keyToSyncedFigure(service: service, endpoint: endpoint, httpClient: httpClient, directory: directory)
    try await httpClient.shutdown()
    await server.stop()

    let detail = "\(users) users x \(requestsPerUser) requests, loopback, SQLite"
    return [
        Figure(name: "status.server.modify200.throughput", value: modify.requestsPerSecond, unit: "req/s", detail: detail + ", 200 records each"),
        Figure(name: "status.server.modify200.p99", value: modify.p99, unit: "ms", detail: detail),
        Figure(name: "status.server.changes200.throughput", value: changes.requestsPerSecond, unit: "req/s", detail: detail + ", 200-record pages"),
        Figure(name: "status.server.changes200.p99", value: changes.p99, unit: "ms", detail: detail),
    ] + device + [keyToSynced]
}

/// From a key press (the store makes the mark durable) to the badge showing synced: the TUI's
/// 2 s debouncer, a marks-only run of the SyncEngine pushing to the loopback server, and the
/// store holding the mark as synced. The median of 5 presses.
private func keyToSyncedFigure(service: StatusService, endpoint: StatusEndpoint, httpClient: HTTPClient, directory: URL) async throws -> Figure {
    let debounce = Duration.seconds(2)
    let client = StatusClient(endpoint: endpoint, userToken: try await service.addUser(name: "key-bench"), httpClient: httpClient)
    let store = try Store.open(at: directory.appendingPathComponent("key-bench"))
    let engine = SyncEngine(
        store: store, configuration: SyncConfiguration(hubInterval: nil, statusInterval: nil), status: StatusSync(client: client, store: store))
    let debouncer = Debouncer(delay: debounce) { await engine.sync(.status) }
    var events = engine.events.makeAsyncIterator()
    var samples: [Double] = []
    for press in 0..<5 {
        let videoID = "key-\(press)"
        samples.append(try await Measure.millis {
            _ = try store.mark(videoID, as: .watched)
            await debouncer.poke()
            while store.library().marks[videoID]?.syncState != .synced {
                guard await events.next() != nil else { throw StatusRequestFailure.unreadable(httpStatus: 200, "the engine stopped before \(videoID) synced") }
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
private func deviceFigures(service: StatusService, endpoint: StatusEndpoint, httpClient: HTTPClient, directory: URL) async throws -> [Figure] {
    let count = 10_000
    let client = StatusClient(endpoint: endpoint, userToken: try await service.addUser(name: "device-bench"), httpClient: httpClient)
    let pusher = try Store.open(at: directory.appendingPathComponent("pusher"))
    try pusher.transaction { transaction in
        for index in 0..<count { transaction.mark("video-\(index)", as: index % 4 == 0 ? .skipped : .watched) }
    }
    var pushed = StatusSync.Report()
    let push = try await Measure.millis { pushed = try await StatusSync(client: client, store: pusher).pushPending() }
    let puller = try Store.open(at: directory.appendingPathComponent("puller"))
    var pulled = StatusSync.Report()
    let pull = try await Measure.millis { pulled = try await StatusSync(client: client, store: puller).pullChanges() }
    guard pushed.pushed == count, pulled.pulled == count, puller.library().marks.count == count else {
        throw StatusRequestFailure.unreadable(httpStatus: 200, "pushed \(pushed.pushed), pulled \(pulled.pulled) of \(count)")
    }
    return [
        Figure(name: "status.push.10k", value: push, unit: "ms", goal: "<= 1500 ms", detail: "real store, loopback SQLite server, batches of 200"),
        Figure(name: "status.pull.10k", value: pull, unit: "ms", goal: "<= 1500 ms", detail: "into an empty store, pages of 200"),
    ]
}

/// Fetches one full 200-record page of changes after `token` and returns the next token.
private func fetchPage(_ client: StatusClient, zoneID: StatusZoneID, token: String?) async throws -> String {
    let response = try await client.zoneChanges(StatusZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: token, resultsLimit: 200)]))
    guard case .success(let changes) = response.zones.first, changes.records.count == 200 else {
        throw StatusRequestFailure.unreadable(httpStatus: 200, "short changes page")
    }
    return changes.syncToken
}

/// Runs `requestsPerUser` requests (user index, round) for every user at once, each user's in
/// sequence, and returns throughput and p99 latency.
private func concurrentRun(
    users: Int, requestsPerUser: Int, request: @escaping @Sendable (Int, Int) async throws -> Void
) async throws -> (requestsPerSecond: Double, p99: Double) {
    var latencies: [Double] = []
    let wall = try await Measure.millis {
        latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for user in 0..<users {
                group.addTask {
                    var samples: [Double] = []
                    for round in 0..<requestsPerUser {
                        samples.append(try await Measure.millis { try await request(user, round) })
                    }
                    return samples
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }
    return (Double(latencies.count) / (wall / 1000), Measure.percentile(latencies, 99))
}
