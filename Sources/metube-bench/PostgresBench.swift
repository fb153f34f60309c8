import Foundation
import AsyncHTTPClient
import Hummingbird
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
import MeTubeServer
import MeTubeSync
import Synchronization
import TestSupport

/// PostgreSQL figures, next to SQLite ones of the same run: real `metube-server` child
/// processes (the release binary beside this one) on a throw-away loopback cluster, loaded by
/// `wrk` — `videos/query` as `metube sync` sends it against one and two instances,
/// `records/modify` with 200 records for 50 users, 2,000 channels ingested by two instances
/// sharing the feed leases, and a 20-second outage under a write load (``postgresOutageFigures()``).
func postgresFigures() async throws -> [Figure] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-pg-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var figures: [Figure] = []
    figures += try await queryFigures(folder: folder)
    figures += try await modifyFigures(folder: folder)
    figures += try await ingestionFigures()
    figures += try await postgresOutageFigures()
    return figures
}

/// The options every child server of this suite gets: an ephemeral port, no throttles.
private let serveOptions = [
    "serve", "--port", "0", "--status-rate", "0", "--register-limit", "0", "--max-connections", "1000", "--log-level", "error",
]

/// `videos/query` (216 channel ids, `afterSeq` 0, 100-video pages) with 100 connections for 5 s:
/// SQLite, PostgreSQL with one instance, and PostgreSQL with two (two `wrk` runs at once, summed).
private func queryFigures(folder: URL) async throws -> [Figure] {
    let channelIDs = String(decoding: try JSONEncoder().encode(SyntheticLibrary(markCount: 0).channels().map(\.id)), as: UTF8.self)
    let script = folder.appendingPathComponent("query.lua")
    try wrkPostScript(body: "{\"channelIds\":\(channelIDs),\"afterSeq\":0,\"limit\":100}").write(to: script, atomically: true, encoding: .utf8)
    let demo = ["--poll-interval", "0", "--demo", "--demo-interval", "86400"]
    let detail = "216 channelIds, afterSeq 0, 100-video pages, wrk 100 connections, 5 s"
    var figures: [Figure] = []

    let sqlite = try await ServerProcess.start(serveOptions + demo + ["--database", folder.appendingPathComponent("query.sqlite").path])
    let sqliteResult = try await Wrk.run(url: sqlite.baseURL + HubAPI.videoQueryPath, script: script, connections: 100)
    sqlite.stop()
    figures += sqliteResult.figures("postgres.compare.sqlite.query.sync-216", detail: "\(detail), SQLite file, 1 instance")

    let url = try PostgresTestCluster.database()
    let first = try await ServerProcess.start(serveOptions + demo + ["--database", url])
    defer { first.stop() }
    let one = try await Wrk.run(url: first.baseURL + HubAPI.videoQueryPath, script: script, connections: 100)
    figures += one.figures("postgres.query.sync-216.1-instance", detail: "\(detail), PostgreSQL on loopback")
    let second = try await ServerProcess.start(serveOptions + ["--poll-interval", "0", "--database", url])
    defer { second.stop() }
    async let a = Wrk.run(url: first.baseURL + HubAPI.videoQueryPath, script: script, connections: 100)
    async let b = Wrk.run(url: second.baseURL + HubAPI.videoQueryPath, script: script, connections: 100)
    let both = Wrk.Result.sum(try await a, try await b)
    figures += both.figures("postgres.query.sync-216.2-instances", detail: "\(detail) per instance (two wrk runs at once, summed; p99 the worse), PostgreSQL on loopback")
    return figures
}

/// `records/modify` with 200 `forceReplace` records per request, 50 users (one `wrk`
/// connection each, each request as the next user): SQLite and PostgreSQL, one instance.
private func modifyFigures(folder: URL) async throws -> [Figure] {
    let detail = "200 records per request, 50 users, wrk 50 connections, 5 s"
    let sqlitePath = folder.appendingPathComponent("status.sqlite").path
    let sqlite = try await ServerProcess.start(serveOptions + ["--poll-interval", "0", "--database", sqlitePath])
    let sqliteResult = try await modifyLoad(server: sqlite, database: ["--database", sqlitePath], folder: folder, name: "sqlite")
    sqlite.stop()
    let url = try PostgresTestCluster.database()
    let postgres = try await ServerProcess.start(serveOptions + ["--poll-interval", "0", "--database", url])
    defer { postgres.stop() }
    let postgresResult = try await modifyLoad(server: postgres, database: ["--database", url], folder: folder, name: "postgres")
    return sqliteResult.figures("postgres.compare.sqlite.records-modify-200", detail: "\(detail), SQLite file")
        + postgresResult.figures("postgres.records-modify-200", detail: "\(detail), PostgreSQL on loopback")
}

/// Adds 50 users with `metube-server users add`, creates their zone, and loads `records/modify`.
private func modifyLoad(server: ServerProcess, database: [String], folder: URL, name: String) async throws -> Wrk.Result {
    let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
    var tokens: [String] = []
    for index in 0..<50 {
        let added = try runProcess(ServerProcess.binary, ["users", "add", "bench\(index)"] + database)
        guard added.status == 0 else { throw BenchFailure("users add failed: \(added.stderr)") }
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let client = MarkSyncClient(endpoint: MarkSyncEndpoint(serverURL: server.baseURL), userToken: token, httpClient: .shared)
        _ = try await client.modifyZones(MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID)]))
        tokens.append(token)
    }
    let operations = (0..<200).map { index in
        MarkSyncRecordsModifyRequest.Operation(.forceReplace, record: WatchedRecord(
            videoID: "video-\(index)", status: index % 3 == 0 ? "skipped" : "watched",
            lastModified: 1_765_650_000_000 + Int64(index), hlc: "1765650000000-\(index)", deviceID: "bench").record())
    }
    let body = String(decoding: try JSONEncoder().encode(MarkSyncRecordsModifyRequest(operations: operations, zoneID: zoneID, atomic: false)), as: UTF8.self)
    let path = "/database/1/\(MarkSyncEndpoint.defaultContainer)/production/private/records/modify?ckAPIToken=\(MarkSyncEndpoint.defaultAPIToken)"
    let script = folder.appendingPathComponent("modify-\(name).lua")
    try """
        local tokens = {\(tokens.map { "\"\($0)\"" }.joined(separator: ","))}
        local body = [==[\(body)]==]
        local next = 0
        request = function()
          next = next + 1
          local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. tokens[(next % #tokens) + 1]}
          return wrk.format("POST", "\(path)", headers, body)
        end

        """.write(to: script, atomically: true, encoding: .utf8)
    return try await Wrk.run(url: server.baseURL + path, script: script, connections: 50)
}

/// 2,000 channels registered in PostgreSQL, polled by two instances from a loopback feed server
/// (each instance through its own path, so the split is known): the wall time from starting
/// them until every channel was fetched, how many channels were fetched more than once, and each
/// instance's share of the fetches.
private func ingestionFigures() async throws -> [Figure] {
    let channelCount = 2_000
    let channelIDs = (0..<channelCount).map { DemoCatalog.channelID(100_000 + $0) }
    let url = try PostgresTestCluster.database()
    let database = try await PostgresServerDatabase(url: PostgresDatabaseURL(parsing: url), poolSize: 2)
    let repository = PostgresHubRepository(database: database)
    for start in stride(from: 0, to: channelCount, by: HubAPI.maxRegisterChannelIDs) {
        _ = try await repository.register(channelIDs: Array(channelIDs[start..<min(start + HubAPI.maxRegisterChannelIDs, channelCount)]))
    }

    let feeds = Dictionary(uniqueKeysWithValues: channelIDs.enumerated().map { index, channelID in
        (channelID, ByteBuffer(string: MinimalAtomFeed.text(channelID: channelID, videoID: DemoCatalog.videoID(100_000 + index))))
    })
    let counter = FetchCounter(expected: channelCount)
    let router = Router()
    router.get("/feeds/:instance/:channelId") { _, context -> Response in
        let channelID = try context.parameters.require("channelId")
        guard let feed = feeds[channelID] else { return Response(status: .notFound) }
        counter.count(channelID, instance: try context.parameters.require("instance"))
        return Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: feed))
    }
    let (feedServer, feedURL) = await BackgroundService.serve(router, label: "pg-bench-feeds")
    defer { feedServer.stop() }

    let started = ContinuousClock.now
    let options = serveOptions + ["--database", url, "--poll-interval", "120"]
    let first = try await ServerProcess.start(options + ["--feed-url-template", feedURL + "/feeds/a/{channelId}"])
    defer { first.stop() }
    let second = try await ServerProcess.start(options + ["--feed-url-template", feedURL + "/feeds/b/{channelId}"])
    defer { second.stop() }
    let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask { await counter.allFetched(); return true }
        group.addTask { try await Task.sleep(for: .seconds(100)); return false }
        let first = try await group.next() ?? false
        group.cancelAll()
        return first
    }
    let wall = (ContinuousClock.now - started).milliseconds
    // The lease lasts 0.9 of the 120 s interval: a second fetch within these seconds is a lost lease.
    try await Task.sleep(for: .seconds(2))
    let (twice, byInstance) = counter.summary()
    guard finished else { throw BenchFailure("only \(counter.distinct()) of \(channelCount) channels were fetched within 100 s") }
    let fetches = byInstance.values.reduce(0, +)
    return [
        Figure(name: "postgres.ingest.2000-channels.2-instances", value: wall, unit: "ms",
               detail: "from starting both servers (B once A listens) until every channel was fetched once; loopback feeds (1 entry each), poll interval 120 s"),
        Figure(name: "postgres.ingest.2000-channels.fetched-twice", value: Double(twice), unit: "channels", goal: "= 0",
               detail: "channels fetched more than once by the two instances in the first round (2 s after it ended)"),
    ] + ["a", "b"].map { instance in
        Figure(name: "postgres.ingest.2000-channels.share-\(instance)", value: 100 * Double(byInstance[instance, default: 0]) / Double(max(1, fetches)), unit: "%",
               detail: "of the \(fetches) fetches of the round, by instance \(instance.uppercased()) (\(byInstance[instance, default: 0]))")
    }
}

/// Feed requests per channel, and a signal once every expected channel was fetched.
private final class FetchCounter: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var byInstance: [String: Int] = [:]
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let expected: Int
    private let state = Mutex(State())

    init(expected: Int) { self.expected = expected }

    /// Counts one request for `channelID` from `instance` (`a` or `b`).
    func count(_ channelID: String, instance: String) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.counts[channelID, default: 0] += 1
            state.byInstance[instance, default: 0] += 1
            guard state.counts.count >= expected else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once every expected channel was fetched.
    func allFetched() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.counts.count >= expected { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// How many channels were fetched at all.
    func distinct() -> Int { state.withLock { $0.counts.count } }

    /// How many channels were fetched more than once, and how many requests each instance made.
    func summary() -> (twice: Int, byInstance: [String: Int]) {
        state.withLock { state in (state.counts.values.filter { $0 > 1 }.count, state.byInstance) }
    }
}

/// `wrk` runs and what they print.
private enum Wrk {
    /// Requests per second, p99 latency and errors of one (or several summed) `wrk` runs.
    struct Result: Sendable {
        var requestsPerSecond: Double
        var p99Millis: Double
        var errors: Int

        /// Several runs at once: their rates and errors summed, the worst p99.
        static func sum(_ results: Result...) -> Result {
            Result(requestsPerSecond: results.map(\.requestsPerSecond).reduce(0, +), p99Millis: results.map(\.p99Millis).max() ?? .nan,
                   errors: results.map(\.errors).reduce(0, +))
        }

        /// `NAME.throughput` and `NAME.p99`.
        func figures(_ name: String, detail: String) -> [Figure] {
            [
                Figure(name: "\(name).throughput", value: requestsPerSecond, unit: "req/s", detail: "\(detail), \(errors) errors"),
                Figure(name: "\(name).p99", value: p99Millis, unit: "ms", detail: detail),
            ]
        }
    }

    /// Runs `wrk` with `script` against `url` for 5 s (a request counts as an error after 10 s,
    /// not wrk's 2 s, so slow answers stay in the latency figures) and parses its report.
    static func run(url: String, script: URL, connections: Int) async throws -> Result {
        let outcome = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result_ { try runProcess(URL(fileURLWithPath: "/usr/bin/wrk"), [
                    "-t", "2", "-c", String(connections), "-d", "5s", "--timeout", "10s", "--latency", "-s", script.path, url,
                ]) })
            }
        }
        guard outcome.status == 0 else { throw BenchFailure("wrk failed: \(outcome.stderr)") }
        return try parse(outcome.stdout)
    }

    /// The figures of a `wrk --latency` report.
    static func parse(_ report: String) throws -> Result {
        var result = Result(requestsPerSecond: .nan, p99Millis: .nan, errors: 0)
        for line in report.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "Requests/sec:", let value = words.last.flatMap(Double.init) {
                result.requestsPerSecond = value
            } else if words.first == "99%", words.count == 2 {
                result.p99Millis = millis(words[1])
            } else if line.contains("Non-2xx or 3xx responses:"), let value = words.last.flatMap(Int.init) {
                result.errors += value
            } else if words.first == "Socket" {
                result.errors += words.compactMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }.reduce(0, +)
            }
        }
        guard result.requestsPerSecond.isFinite else { throw BenchFailure("unreadable wrk report: \(report)") }
        return result
    }

    /// `12.3ms`, `850.00us` or `1.20s` in milliseconds.
    private static func millis(_ text: String) -> Double {
        for (suffix, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(suffix) {
            return (Double(text.dropLast(suffix.count)) ?? .nan) * factor
        }
        return .nan
    }
}

/// `Swift.Result` (the name `Result` is taken by ``Wrk/Result`` inside `Wrk`).
private typealias Result_ = Swift.Result<ProcessOutcome, any Error>

/// A Lua script that makes `wrk` POST `body` as JSON.
private func wrkPostScript(body: String) -> String {
    """
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
    wrk.body = [==[\(body)]==]

    """
}
