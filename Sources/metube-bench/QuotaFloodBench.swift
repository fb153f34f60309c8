import AsyncHTTPClient
import Foundation
import MeTubeAPI
import MeTubeServer
import NIOCore
import TestSupport

/// Memory-bound figures (issue 37, item 2) against a release `metube-server` child on an SQLite
/// file: what one user can make the server hold. A user at the default quota tries 1,000 zones;
/// then a user whose quota the operator raised to allow them floods the server as the probes did:
/// 200,000 zones, four concurrent `zones/list` passes through all of them, 100,000 queued
/// records in one zone (read back with `changes/zone`) and 10,000 tag records (read back with
/// `records/query`). The server's peak resident set (VmHWM) is read after each flood. Goal: it
/// stays ≤ 256 MiB. `METUBE_BENCH_SMALL=1` runs a hundredth of each flood (to check the suite).
func quotaFloodFigures() async throws -> [Figure] {
    let small = ProcessInfo.processInfo.environment["METUBE_BENCH_SMALL"] == "1"
    let scale = small ? 100 : 1
    let (zones, queued, tags) = (200_000 / scale, 100_000 / scale, 10_000 / scale)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-quota-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("server.sqlite").path
    let capped = try addBenchUser("capped", database: database)
    let flooder = try addBenchUser("flooder", database: database)
    let raised = try runProcess(ServerProcess.binary, ["users", "quota", "flooder", "--zones", "\(zones + 2)", "--records", "\(2 * (queued + tags))", "--database", database])
    guard raised.status == 0 else { throw BenchFailure("users quota: \(raised.stderr)") }
    let server = try await ServerProcess.start([
        "serve", "--database", database, "--port", "0", "--poll-interval", "0", "--status-rate", "0", "--register-limit", "0", "--log-level", "critical",
    ])
    defer { server.stop() }
    let markSync = MarkSyncBenchClient(baseURL: server.baseURL)
    let sizes = "\(zones) zones, \(queued) queued, \(tags) tags" + (small ? " (METUBE_BENCH_SMALL)" : "")

    let accepted = try await markSync.createZones((0..<1_000).map { "capped-\($0)" }, token: capped)
    try await markSync.createZones((0..<zones).map { String(format: "zone-%07d", $0) }, token: flooder)
    let afterZones = server.peakResidentMiB()
    let listed = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<4 { group.addTask { try await markSync.listAllZones(token: flooder) } }
        return try await group.reduce(0, +)
    }
    let afterList = server.peakResidentMiB()
    try await markSync.writeRecords(count: queued, zone: "QueueZone", type: "QueueEntry", token: flooder)
    let read = try await markSync.readAllChanges(zone: "QueueZone", token: flooder)
    let afterQueue = server.peakResidentMiB()
    try await markSync.writeRecords(count: tags, zone: "TagZone", type: "Tag", token: flooder)
    try await markSync.queryAll(zone: "TagZone", type: "Tag", token: flooder)
    let peak = server.peakResidentMiB()
    return [
        Figure(name: "quota.zones.default-quota-accepted", value: Double(accepted), unit: "zones", goal: "<= 100",
               detail: "of 1,000 zones/modify creates by a user at the default quota (the rest QUOTA_EXCEEDED)"),
        Figure(name: "quota.server.peak-rss", value: peak, unit: "MiB", goal: "<= 256",
               detail: String(format: "VmHWM after %@: zones %.0f, 4 × zones/list (%d zones listed) %.0f, queue (%d read back) %.0f, tags %.0f MiB",
                              sizes, afterZones, listed, afterList, read, afterQueue, peak)),
    ]
}

/// Adds the mark-sync user `name` to the database file at `database` and returns their token.
private func addBenchUser(_ name: String, database: String) throws -> String {
    let added = try runProcess(ServerProcess.binary, ["users", "add", name, "--database", database])
    guard added.status == 0 else { throw BenchFailure("users add \(name): \(added.stderr)") }
    return added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The mark-sync requests of the memory floods, as one user's device sends them.
private struct MarkSyncBenchClient: Sendable {
    let baseURL: String

    /// Creates `names` 200 a request; returns how many were created.
    @discardableResult
    func createZones(_ names: [String], token: String) async throws -> Int {
        var created = 0
        for start in stride(from: 0, to: names.count, by: 200) {
            let request = MarkSyncZonesModifyRequest(operations: names[start..<min(start + 200, names.count)].map { .init(.create, zone: MarkSyncZoneID(zoneName: $0)) })
            let answer: MarkSyncZonesResponse = try await send("zones/modify", body: request, token: token)
            created += answer.zones.filter { if case .success = $0 { true } else { false } }.count
        }
        return created
    }

    /// Pages through every zone; returns how many came.
    func listAllZones(token: String) async throws -> Int {
        var (count, marker) = (0, nil as String?)
        repeat {
            let page: MarkSyncZonesResponse = try await send("zones/list", query: marker.map { "&continuationMarker=\($0)" } ?? "", body: nil as String?, token: token)
            count += page.zones.count
            marker = page.continuationMarker
        } while marker != nil
        return count
    }

    /// Writes `count` records of `type` into `zone` (created first), 200 a request.
    func writeRecords(count: Int, zone: String, type: String, token: String) async throws {
        try await createZones([zone], token: token)
        for start in stride(from: 0, to: count, by: 200) {
            let operations = (start..<min(start + 200, count)).map { index in
                MarkSyncRecordsModifyRequest.Operation(.forceReplace, record: MarkSyncRecord(
                    recordName: "\(type)-\(index)", recordType: type,
                    fields: ["videoId": MarkSyncField(value: .string(String(format: "vid%08d", index)), type: "STRING"),
                             "position": MarkSyncField(value: .integer(Int64(index)), type: "INT64")]))
            }
            let _: MarkSyncRecordsResponse = try await send("records/modify", body: MarkSyncRecordsModifyRequest(operations: operations, zoneID: MarkSyncZoneID(zoneName: zone), atomic: false), token: token)
        }
    }

    /// Reads every change of `zone` from the start; returns how many records came.
    func readAllChanges(zone: String, token: String) async throws -> Int {
        var (count, syncToken, more) = (0, nil as String?, true)
        while more {
            let answer: MarkSyncZoneChangesResponse = try await send(
                "changes/zone", body: MarkSyncZoneChangesRequest(zones: [.init(zoneID: MarkSyncZoneID(zoneName: zone), syncToken: syncToken)]), token: token)
            guard case .success(let page)? = answer.zones.first else { throw BenchFailure("changes/zone of \(zone) failed") }
            (count, syncToken, more) = (count + page.records.count, page.syncToken, page.moreComing)
        }
        return count
    }

    /// Pages through every record of `type` in `zone` with `records/query`.
    func queryAll(zone: String, type: String, token: String) async throws {
        var marker: String?
        repeat {
            let request = MarkSyncRecordsQueryRequest(query: .init(recordType: type), zoneID: MarkSyncZoneID(zoneName: zone), continuationMarker: marker)
            let answer: MarkSyncRecordsQueryResponse = try await send("records/query", body: request, token: token)
            marker = answer.continuationMarker
        } while marker != nil
    }

    /// Sends one request (GET without a body) and decodes its 200 answer.
    private func send<Body: Encodable, Answer: Decodable>(_ operation: String, query: String = "", body: Body?, token: String) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + "/database/1/\(MarkSyncConfiguration.defaultContainer)/production/private/\(operation)?ckAPIToken=metube" + query)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let answer = try await response.body.collect(upTo: 32 << 20)
        guard response.status == .ok else { throw BenchFailure("\(operation) answered \(response.status): \(String(buffer: answer).prefix(300))") }
        return try JSONDecoder().decode(Answer.self, from: Data(answer.readableBytesView))
    }
}
