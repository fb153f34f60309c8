import AsyncHTTPClient
import Foundation
import TestSupport
import Hummingbird
import Logging
import MeTubeCore
import MeTubeServer
import MeTubeStore
import MeTubeSync
import NIOCore

/// Hub server figures: `videos/query` as `metube sync` sends it (the 216 channel ids of the
/// store, `afterSeq` 0 and mid-way, 100-video pages) with 100 concurrent connections, against a
/// release `metube-server` application in this process holding the demo library (216 channels,
/// 10,000 videos) in an SQLite file; the same answer served as a static file by nginx on loopback
/// when nginx is installed, and the ratio; and this process's peak RSS. The load comes from
/// AsyncHTTPClient in a child process (this executable run again with `--child-hub-load`), so
/// client and server are separate processes, though they still share the same two cores.
func hubFigures() async throws -> [Figure] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-hub-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "hub-bench")
    logger.logLevel = .critical
    var configuration = ServerConfiguration(
        databasePath: folder.appendingPathComponent("hub.sqlite").path, pollInterval: nil, demo: true,
        demoInterval: .seconds(86_400), logger: logger, onListening: { _, port in portContinuation.yield(port) }
    )
    configuration.connectionLimits.maxConnections = 1_000
    let app = try await buildApplication(configuration: configuration)
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { server.cancel() }
    guard let port = await ports.first(where: { _ in true }) else { return [] }

    let url = "http://127.0.0.1:\(port)/api/videos/query"
    let channelIDs = String(decoding: try JSONEncoder().encode(SyntheticLibrary(markCount: 0).channels().map(\.id)), as: UTF8.self)
    let firstPage = "{\"channelIds\":\(channelIDs),\"afterSeq\":0,\"limit\":100}"
    var figures: [Figure] = []
    var served: Double = 0
    for (name, body) in [
        ("hub.query.sync-216.first", firstPage),
        ("hub.query.sync-216.mid-way", "{\"channelIds\":\(channelIDs),\"afterSeq\":5000,\"limit\":100}"),
        ("hub.query.sync-216.nothing-new", "{\"channelIds\":\(channelIDs),\"afterSeq\":10000,\"limit\":100}"),
    ] {
        let result = try await loadFromChild(url: url, body: body)
        if name.hasSuffix(".first") { served = result.requestsPerSecond }
        figures.append(Figure(name: "\(name).throughput", value: result.requestsPerSecond, unit: "req/s", goal: ">= 5000", detail: "216 channelIds, 100-video pages, 100 connections, 5 s, \(result.errors) errors"))
        figures.append(Figure(name: "\(name).p99", value: result.p99Millis, unit: "ms", goal: "<= 50", detail: "p50 \(String(format: "%.2f", result.p50Millis)) ms"))
    }
    if let nginx = try await nginxFigure(serving: try await answer(url: url, body: firstPage), in: folder) {
        figures.append(Figure(name: "hub.query.nginx-static.throughput", value: nginx.requestsPerSecond, unit: "req/s", detail: "the same first page as a static file from nginx, p99 \(String(format: "%.2f", nginx.p99Millis)) ms"))
        figures.append(Figure(name: "hub.query.server-to-nginx", value: served / max(nginx.requestsPerSecond, 1), unit: "ratio", detail: "metube-server req/s ÷ nginx req/s for the same bytes"))
    }
    figures.append(Figure(name: "hub.server.peak-rss", value: peakResidentMegabytes(), unit: "MiB", detail: "bench process holding the server (the load runs in a child)"))
    return figures
}

/// The answer `url` gives to `body`.
private func answer(url: String, body: String) async throws -> ByteBuffer {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.body = .bytes(ByteBuffer(string: body))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
    return try await response.body.collect(upTo: 4 << 20)
}

/// Serves `page` as a static file from nginx on a loopback port and loads it like the server;
/// nil when nginx is not installed.
private func nginxFigure(serving page: ByteBuffer, in folder: URL) async throws -> LoadResult? {
    guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile) else { return nil }
    let root = folder.appendingPathComponent("nginx", isDirectory: true)
    try FileManager.default.createDirectory(at: root.appendingPathComponent("logs"), withIntermediateDirectories: true)
    try Data(page.readableBytesView).write(to: root.appendingPathComponent("page.json"))
    let port = 20_000 + Int.random(in: 0..<20_000)
    try """
        worker_processes 2;
        daemon off;
        pid \(root.path)/nginx.pid;
        error_log \(root.path)/logs/error.log crit;
        events { worker_connections 1024; }
        http {
            access_log off;
            client_body_temp_path \(root.path)/body; proxy_temp_path \(root.path)/proxy;
            fastcgi_temp_path \(root.path)/fastcgi; uwsgi_temp_path \(root.path)/uwsgi; scgi_temp_path \(root.path)/scgi;
            default_type application/json;
            server { listen 127.0.0.1:\(port); root \(root.path); keepalive_requests 1000000; }
        }
        """.write(to: root.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: nginx)
    process.arguments = ["-p", root.path, "-c", root.appendingPathComponent("nginx.conf").path]
    try process.run()
    defer {
        process.terminate()
        process.waitUntilExit()
    }
    for _ in 0..<50 where (try? await answer(url: "http://127.0.0.1:\(port)/page.json", body: "")) == nil {
        try await Task.sleep(for: .milliseconds(100))
    }
    return try await loadFromChild(url: "http://127.0.0.1:\(port)/page.json", body: "")
}

/// Runs the load child against `url` (POST `body`, or GET when it is empty).
private func loadFromChild(url: String, body: String) async throws -> LoadResult {
    let output = try await runSelfInBackground(["--child-hub-load", url, body])
    guard let result = LoadResult(line: output) else { throw BenchFailure("hub load child printed \(output)") }
    return result
}

/// The peak resident set size of this process, in MiB.
private func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// The child side of ``hubFigures()``: loads `url` with `body` (a GET when empty) from 100
/// connections for 5 s and prints the result as one line (see ``LoadResult/line``).
func runHubLoadChild(url: String, body: String) async throws {
    let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: .init(connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 100))
    )
    let result = try await load(client: client, url: url, body: body, connections: 100, duration: .seconds(5))
    try await client.shutdown()
    print(result.line)
}

/// Runs ``runSelf(_:)`` on its own thread, so waiting for the child blocks none of the threads the
/// server in this process needs.
private func runSelfInBackground(_ arguments: [String]) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try runSelf(arguments) }) }.start()
    }
}

/// The outcome of one load run.
private struct LoadResult {
    var requestsPerSecond: Double
    var p50Millis: Double
    var p99Millis: Double
    var errors: Int

    /// The result as "requestsPerSecond p50Millis p99Millis errors".
    var line: String { "\(requestsPerSecond) \(p50Millis) \(p99Millis) \(errors)" }

    init(requestsPerSecond: Double, p50Millis: Double, p99Millis: Double, errors: Int) {
        self.requestsPerSecond = requestsPerSecond
        self.p50Millis = p50Millis
        self.p99Millis = p99Millis
        self.errors = errors
    }

    /// Reads a result printed as ``line``; nil when `line` is not one.
    init?(line: String) {
        let values = line.split(separator: " ").compactMap { Double($0) }
        guard values.count == 4 else { return nil }
        self.init(requestsPerSecond: values[0], p50Millis: values[1], p99Millis: values[2], errors: Int(values[3]))
    }
}

/// Sends `body` to `url` from `connections` concurrent loops for `duration` (after a 1 s warm-up).
private func load(client: HTTPClient, url: String, body: String, connections: Int, duration: Duration) async throws -> LoadResult {
    let warmUpEnds = ContinuousClock.now + .seconds(1)
    let deadline = warmUpEnds + duration
    let (samples, errors) = await withTaskGroup(of: (latencies: [Double], errors: Int).self) { group in
        for _ in 0..<connections {
            group.addTask {
                var latencies: [Double] = []
                var errors = 0
                while ContinuousClock.now < deadline {
                    var request = HTTPClientRequest(url: url)
                    if !body.isEmpty {
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: body))
                    }
                    let start = ContinuousClock.now
                    do {
                        let response = try await client.execute(request, timeout: .seconds(10))
                        _ = try await response.body.collect(upTo: 4 << 20)
                        if response.status != .ok { errors += 1 }
                    } catch {
                        errors += 1
                    }
                    if start >= warmUpEnds { latencies.append((ContinuousClock.now - start).milliseconds) }
                }
                return (latencies, errors)
            }
        }
        var all: ([Double], Int) = ([], 0)
        for await part in group {
            all.0 += part.latencies
            all.1 += part.errors
        }
        return all
    }
    return LoadResult(
        requestsPerSecond: Double(samples.count) / (Double(duration.components.seconds)),
        p50Millis: Measure.percentile(samples, 50), p99Millis: Measure.percentile(samples, 99),
        errors: errors
    )
}

/// Hub sync figures: a first hub sync of 216 channels / 10,800 videos into an empty store, an
/// incremental sync with nothing new, and a direct-mode sync of 216 Atom feeds (50 entries each)
/// from a loopback server, all in this process against release builds.
func hubSyncFigures() async throws -> [Figure] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-sync-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var logger = Logger(label: "sync-bench")
    logger.logLevel = .critical
    let library = SyntheticLibrary(channelCount: 216, videoCount: 10_800, markCount: 0, newest: Date())

    let database = try ServerDatabase(path: folder.appendingPathComponent("hub.sqlite").path)
    try await DemoPublisher(repository: SQLiteHubRepository(database: database), library: library.catalog, logger: logger).seedIfEmpty()
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = try await buildApplication(
        configuration: ServerConfiguration(pollInterval: nil, logger: logger, onListening: { _, port in portContinuation.yield(port) }),
        database: database
    )
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { server.cancel() }
    guard let port = await ports.first(where: { _ in true }) else { return [] }
    let hubURL = "http://127.0.0.1:\(port)"

    var figures: [Figure] = []
    for pageSize in [100, 500] {
        var firsts: [Double] = []
        var incrementals: [Double] = []
        for run in 0..<3 {
            let store = try Store.open(at: folder.appendingPathComponent("store-\(pageSize)-\(run)", isDirectory: true))
            try store.apply(StoreChange(channels: library.channels()))
            let engine = SyncEngine(store: store, configuration: SyncConfiguration(source: .hub, hubURL: hubURL, pageSize: pageSize))
            firsts.append(await Measure.millis { await engine.sync() })
            for _ in 0..<5 { incrementals.append(await Measure.millis { await engine.sync() }) }
            guard store.library().videos.count == 10_800 else { throw BenchError("first hub sync stored \(store.library().videos.count) videos") }
        }
        figures.append(Figure(name: "sync.hub.first.page\(pageSize)", value: Measure.median(firsts), unit: "ms", goal: "<= 1000", detail: "216 channels, 10,800 videos, median of 3"))
        figures.append(Figure(name: "sync.hub.incremental.page\(pageSize)", value: Measure.median(incrementals), unit: "ms", goal: "<= 50", detail: "nothing new, median of 15"))
    }

    let feeds = Dictionary(uniqueKeysWithValues: library.channels().enumerated().map { index, channel in
        (channel.id, ByteBuffer(string: syntheticAtomFeed(channel: channel, videos: (0..<50).map { library.video($0 * 216 + index) })))
    })
    let feedRouter = Router()
    feedRouter.get("/feeds/:channelId") { _, context -> Response in
        guard let feed = feeds[try context.parameters.require("channelId")] else { return Response(status: .notFound) }
        return Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: feed))
    }
    let (feedPorts, feedPortContinuation) = AsyncStream.makeStream(of: Int.self)
    let feedApp = Application(
        router: feedRouter, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in feedPortContinuation.yield(channel.localAddress?.port ?? 0) }, logger: logger
    )
    let feedServer = Task { try await feedApp.runService(gracefulShutdownSignals: []) }
    defer { feedServer.cancel() }
    guard let feedPort = await feedPorts.first(where: { _ in true }) else { return figures }
    var directs: [Double] = []
    for run in 0..<3 {
        let store = try Store.open(at: folder.appendingPathComponent("direct-\(run)", isDirectory: true))
        try store.apply(StoreChange(channels: library.channels().map { MeTubeCore.Channel(id: $0.id) }))
        let engine = SyncEngine(store: store, configuration: SyncConfiguration(source: .direct, feedURLTemplate: "http://127.0.0.1:\(feedPort)/feeds/{channelId}"))
        var report = SyncReport(source: .direct)
        directs.append(await Measure.millis { report = await engine.sync() })
        guard report.newVideos == 10_800, report.failedChannels.isEmpty else { throw BenchError("direct sync: \(report)") }
    }
    figures.append(Figure(name: "sync.direct.216-feeds", value: Measure.median(directs), unit: "ms", goal: "<= 1000", detail: "50 entries each, concurrency 8, median of 3 (newsboat 2.21: 2050 ms)"))
    return figures
}

/// A failed benchmark precondition.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A YouTube-shaped Atom feed of `videos` for `channel`.
func syntheticAtomFeed(channel: MeTubeCore.Channel, videos: [Video]) -> String {
    func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
         <link rel="self" href="http://www.youtube.com/feeds/videos.xml?channel_id=\(channel.id)"/>
         <id>yt:channel:\(channel.id.dropFirst(2))</id>
         <yt:channelId>\(channel.id.dropFirst(2))</yt:channelId>
         <title>\(escape(channel.title ?? channel.id))</title>
         <author><name>\(escape(channel.title ?? channel.id))</name><uri>https://www.youtube.com/channel/\(channel.id)</uri></author>

        """
    for video in videos {
        let published = ISO8601Timestamp.format(video.published).replacingOccurrences(of: "Z", with: "+00:00")
        xml += """
             <entry>
              <id>yt:video:\(video.id)</id>
              <yt:videoId>\(video.id)</yt:videoId>
              <yt:channelId>\(channel.id)</yt:channelId>
              <title>\(escape(video.title))</title>
              <link rel="alternate" href="https://www.youtube.com/\(video.isShortLink ? "shorts/" : "watch?v=")\(video.id)"/>
              <author><name>\(escape(channel.title ?? channel.id))</name><uri>https://www.youtube.com/channel/\(channel.id)</uri></author>
              <published>\(published)</published>
              <updated>\(published)</updated>
              <media:group>
               <media:title>\(escape(video.title))</media:title>
               <media:thumbnail url="https://i1.ytimg.com/vi/\(video.id)/hqdefault.jpg" width="480" height="360"/>
               <media:description>A description of \(escape(video.title)).\nSecond line: https://example.com/\(video.id)</media:description>
               <media:community><media:starRating count="12" average="5.00" min="1" max="5"/><media:statistics views="1234"/></media:community>
              </media:group>
             </entry>

            """
    }
    return xml + "</feed>\n"
}
