import AsyncHTTPClient
import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MeTubeCore
import MeTubeDemoServer
import MeTubeServer
import MeTubeStore
import MeTubeSync
import NIOCore
import TestSupport

/// Figures through a slow link (``ThrottlingProxy``), compressed beside uncompressed in the same
/// run: a first hub sync of the 10,000-video demo library through 10 Mbit/s, 50 ms RTT and
/// through 1 Mbit/s, 300 ms RTT (there also cut with kill -9 at half way and run again), the
/// bytes a first sync of 200,000 videos moves, and a direct sync of 216 feeds. "Uncompressed" is
/// the same hub with the client's `Accept-Encoding` hidden from it, as a hub before compression
/// answers; the client is the same. `METUBE_BENCH_SMALL=1` scales the libraries down, to check
/// the suite end to end on a debug build (its figures then mean nothing).
func networkFigures() async throws -> [Figure] {
    let small = ProcessInfo.processInfo.environment["METUBE_BENCH_SMALL"] == "1"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-network-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var logger = Logger(label: "network-bench")
    logger.logLevel = .critical
    let fast = ThrottlingProxy.Link(bitsPerSecond: 10_000_000, roundTrip: .milliseconds(50))
    let slow = ThrottlingProxy.Link(bitsPerSecond: 1_000_000, roundTrip: .milliseconds(300))

    let demo = try await NetworkHub.start(SyntheticLibrary(channelCount: 216, videoCount: small ? 1_000 : 10_000, markCount: 0, newest: Date()), in: folder, name: "demo", logger: logger)
    defer { demo.stop() }
    var figures: [Figure] = []
    let gzip = try await demo.firstSync(through: fast, compressed: true, folder: folder)
    let plain = try await demo.firstSync(through: fast, compressed: false, folder: folder)
    let videos = "\(demo.library.videoCount.formatted()) demo videos"
    figures.append(Figure(name: "network.hub.first.10mbit.gzip", value: gzip.millis, unit: "ms", goal: "<= 5000", detail: "\(videos) through \(fast), \(gzip.bytesDown.formatted()) bytes down"))
    figures.append(Figure(name: "network.hub.first.10mbit.plain", value: plain.millis, unit: "ms", detail: "the same uncompressed, \(plain.bytesDown.formatted()) bytes down"))
    figures.append(Figure(name: "network.hub.first.10mbit.speedup", value: plain.millis / max(gzip.millis, 1), unit: "x", goal: ">= 3", detail: "uncompressed time ÷ compressed time, same run"))

    let slowSync = try await demo.firstSync(through: slow, compressed: true, folder: folder)
    figures.append(Figure(name: "network.hub.first.1mbit.gzip", value: slowSync.millis, unit: "ms", goal: "<= 40000", detail: "\(videos) through \(slow), \(slowSync.bytesDown.formatted()) bytes down"))
    let resumed = try await demo.cutAndResume(through: slow, fullBytes: slowSync.bytesDown, folder: folder)
    figures.append(Figure(
        name: "network.hub.first.1mbit.resumed-bytes", value: Double(resumed.rerunBytes) / Double(max(slowSync.bytesDown, 1)), unit: "x", goal: "<= 0.6",
        detail: "metube-bench-probe sync killed (-9) after \(resumed.cutBytes.formatted()) of \(slowSync.bytesDown.formatted()) bytes; the rerun moved \(resumed.rerunBytes.formatted()) bytes and finished in \(Int(resumed.rerunMillis)) ms"))

    let scale = try await NetworkHub.start(SyntheticLibrary(channelCount: small ? 200 : 2_000, videoCount: small ? 4_000 : 200_000, markCount: 0, newest: Date()), in: folder, name: "scale", logger: logger)
    defer { scale.stop() }
    let unthrottled = ThrottlingProxy.Link(bitsPerSecond: 1e12, roundTrip: .zero)
    let scaleGzip = try await scale.firstSync(through: unthrottled, compressed: true, folder: folder)
    let scalePlain = try await scale.firstSync(through: unthrottled, compressed: false, folder: folder)
    let scaleVideos = "\(scale.library.videoCount.formatted()) videos of \(scale.library.channelCount.formatted()) channels, fields sized like real feeds'"
    figures.append(Figure(name: "network.hub.first.200k.bytes.gzip", value: Double(scaleGzip.bytesDown + scaleGzip.bytesUp) / 1_048_576, unit: "MiB", detail: "\(scaleVideos), both ways"))
    figures.append(Figure(name: "network.hub.first.200k.bytes.plain", value: Double(scalePlain.bytesDown + scalePlain.bytesUp) / 1_048_576, unit: "MiB", detail: "the same uncompressed"))
    figures.append(Figure(
        name: "network.hub.first.200k.bytes.ratio", value: Double(scaleGzip.bytesDown + scaleGzip.bytesUp) / Double(max(scalePlain.bytesDown + scalePlain.bytesUp, 1)), unit: "x",
        goal: "<= 0.25", detail: "compressed bytes ÷ uncompressed bytes, same run"))

    for compressed in [true, false] {
        let direct = try await directSync(demo.library, through: fast, compressed: compressed, folder: folder)
        figures.append(Figure(
            name: "network.direct.216-feeds.\(compressed ? "gzip" : "plain")", value: direct.millis, unit: "ms",
            detail: "216 feeds × 15 entries\(compressed ? " served gzipped" : ""), [hub] rate 1000, through \(fast), \(direct.bytesDown.formatted()) bytes down"))
    }
    return figures + (try await gzipThroughputFigures(folder: folder))
}

/// `videos/query` as `metube sync` sends it (the demo library's 216 channel ids, first page of
/// 100), accepting gzip, against a `metube-server` child loaded by `wrk`, beside nginx serving
/// the same gzipped bytes with `gzip_static`, in the same run.
private func gzipThroughputFigures(folder: URL) async throws -> [Figure] {
    guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile) else {
        throw BenchFailure("the network suite needs wrk (`make deps` installs it)")
    }
    let server = try await ServerProcess.start(databasePath: folder.appendingPathComponent("query.sqlite").path)
    defer { server.stop() }
    let channelIDs = String(decoding: try JSONEncoder().encode(SyntheticLibrary(markCount: 0).channels().map(\.id)), as: UTF8.self)
    let firstPage = "{\"channelIds\":\(channelIDs),\"afterSeq\":0,\"limit\":100}"
    let load = WrkLoad(wrk: wrk, folder: folder, baseURL: server.baseURL)
    let served = try load.run([.init(path: "/api/videos/query", body: firstPage, acceptsGzip: true)], connections: 100)
    var request = HTTPClientRequest(url: server.baseURL + "/api/videos/query")
    request.method = .POST
    request.headers.add(name: "Accept-Encoding", value: "gzip")
    request.body = .bytes(ByteBuffer(string: firstPage))
    // A client of its own: the shared one inflates answers, and the gzipped bytes are wanted.
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let response = try await client.execute(request, timeout: .seconds(30))
    let gzipped = try await response.body.collect(upTo: 16 << 20)
    try await client.shutdown()
    guard response.headers.first(name: "Content-Encoding") == "gzip" else { throw BenchFailure("videos/query did not answer gzipped") }
    var figures = [Figure(
        name: "network.query.gzip.throughput", value: served.requestsPerSecond, unit: "req/s",
        detail: "first page of 216 channelIds, gzipped (\(gzipped.readableBytes) bytes), wrk 100 connections, 5 s, \(served.errors) errors")]
    var copy = gzipped
    let page = try copy.decompress(with: .gzip())
    if let nginx = try await nginxFigure(serving: page, gzipped: gzipped, in: folder, load: load) {
        figures.append(Figure(name: "network.query.nginx-gzip-static.throughput", value: nginx.requestsPerSecond, unit: "req/s", detail: "the same gzipped bytes from nginx gzip_static"))
        figures.append(Figure(
            name: "network.query.gzip.server-to-nginx", value: served.requestsPerSecond / max(nginx.requestsPerSecond, 1), unit: "x", goal: ">= 0.25",
            detail: "metube-server req/s ÷ nginx req/s for the same gzipped bytes, same run"))
    }
    return figures
}

/// What one sync through a proxy took and moved.
private struct LinkSync {
    var millis: Double
    var bytesDown: Int
    var bytesUp: Int
}

/// A hub in this process over an SQLite file seeded with `library`, served twice: as it is, and
/// with every request's `Accept-Encoding` hidden from it (a hub that does not compress).
private final class NetworkHub: Sendable {
    let library: SyntheticLibrary
    private let compressing: (service: BackgroundService, url: String)
    private let plain: (service: BackgroundService, url: String)

    private init(library: SyntheticLibrary, compressing: (BackgroundService, String), plain: (BackgroundService, String)) {
        self.library = library
        self.compressing = compressing
        self.plain = plain
    }

    static func start(_ library: SyntheticLibrary, in folder: URL, name: String, logger: Logger) async throws -> NetworkHub {
        let database = try ServerDatabase(path: folder.appendingPathComponent("\(name).sqlite").path)
        let repository = try SQLiteHubRepository(database: database)
        try await DemoPublisher(repository: repository, library: library.catalog, logger: logger).seedIfEmpty()
        return NetworkHub(
            library: library,
            compressing: await BackgroundService.serve(buildRouter(hubRepository: repository, firstMiddleware: AcceptEncodingFilter(hides: false)), label: "bench-hub-gzip"),
            plain: await BackgroundService.serve(buildRouter(hubRepository: repository, firstMiddleware: AcceptEncodingFilter(hides: true)), label: "bench-hub-plain"))
    }

    func stop() {
        compressing.service.stop()
        plain.service.stop()
    }

    /// A first sync of the whole library into a new store, through a proxy playing `link`.
    func firstSync(through link: ThrottlingProxy.Link, compressed: Bool, folder: URL) async throws -> LinkSync {
        let proxy = try await ThrottlingProxy.start(upstreamPort: port(compressed ? compressing.url : plain.url), link: link)
        let store = try newStore(folder)
        let engine = SyncEngine(store: store, configuration: SyncConfiguration(source: .hub, hubURL: proxy.url, pageSize: 500, requestTimeout: .seconds(120)))
        var report = SyncReport(source: .hub)
        let millis = await Measure.millis { report = await engine.sync() }
        await proxy.stop()
        guard report.error == nil, store.library().videos.count == library.videoCount else {
            throw BenchFailure("hub sync through \(link): \(store.library().videos.count) videos, \(String(describing: report.error))")
        }
        return LinkSync(millis: millis, bytesDown: proxy.bytesDown, bytesUp: proxy.bytesUp)
    }

    /// A first sync in `metube-bench-probe` killed with SIGKILL once about half of `fullBytes`
    /// came down, then run again to the end: the bytes before the cut, and the bytes and time of
    /// the rerun.
    func cutAndResume(through link: ThrottlingProxy.Link, fullBytes: Int, folder: URL) async throws -> (cutBytes: Int, rerunBytes: Int, rerunMillis: Double) {
        let proxy = try await ThrottlingProxy.start(upstreamPort: port(compressing.url), link: link)
        let storeURL = folder.appendingPathComponent("store-\(UUID().uuidString)", isDirectory: true)
        try Store.open(at: storeURL).apply(StoreChange(channels: library.channels()))
        let probe = try probeProcess(["sync", "hub", storeURL.path, proxy.url])
        try probe.run()
        let deadline = ContinuousClock.now + .seconds(300)
        while proxy.bytesDown < fullBytes / 2, probe.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard probe.isRunning else { throw BenchFailure("the probe's sync ended before half way") }
        kill(probe.processIdentifier, SIGKILL)
        probe.waitUntilExit()
        let cutBytes = proxy.bytesDown
        proxy.resetCounts()
        let rerun = try probeProcess(["sync", "hub", storeURL.path, proxy.url])
        let millis = try await Measure.millis {
            try rerun.run()
            while rerun.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        }
        let rerunBytes = proxy.bytesDown
        await proxy.stop()
        let videos = try Store.open(at: storeURL).library().videos.count
        guard rerun.terminationStatus == 0, videos == library.videoCount else {
            throw BenchFailure("the rerun exited \(rerun.terminationStatus) with \(videos) of \(library.videoCount) videos")
        }
        return (cutBytes, rerunBytes, millis)
    }

    private func newStore(_ folder: URL) throws -> Store {
        let store = try Store.open(at: folder.appendingPathComponent("store-\(UUID().uuidString)", isDirectory: true))
        try store.apply(StoreChange(channels: library.channels()))
        return store
    }
}

/// A direct sync of `library`'s 216 channels, 15 entries a feed (as YouTube's feeds hold), from
/// a loopback feed server through a proxy playing `link`, its feeds gzipped when `compressed`.
private func directSync(_ library: SyntheticLibrary, through link: ThrottlingProxy.Link, compressed: Bool, folder: URL) async throws -> LinkSync {
    let channels = library.channels()
    var feeds: [String: ByteBuffer] = [:]
    for (index, channel) in channels.enumerated() {
        var feed = ByteBuffer(string: syntheticAtomFeed(channel: channel, videos: (0..<15).map { library.video($0 * channels.count + index) }))
        feeds[channel.id] = compressed ? try feed.compress(with: .gzip()) : feed
    }
    let router = Router()
    router.get("/feeds/:channelId") { [feeds] _, context -> Response in
        guard let feed = feeds[try context.parameters.require("channelId")] else { return Response(status: .notFound) }
        var headers: HTTPFields = [.contentType: "application/atom+xml"]
        if compressed { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: feed))
    }
    let (server, url) = await BackgroundService.serve(router, label: "bench-network-feeds")
    defer { server.stop() }
    let proxy = try await ThrottlingProxy.start(upstreamPort: port(url), link: link)
    let store = try Store.open(at: folder.appendingPathComponent("direct-\(UUID().uuidString)", isDirectory: true))
    try store.apply(StoreChange(channels: channels.map { MeTubeCore.Channel(id: $0.id) }))
    var configuration = SyncConfiguration(source: .direct, feedURLTemplate: "\(proxy.url)/feeds/{channelId}", requestTimeout: .seconds(60))
    configuration.directRate = 1_000
    var report = SyncReport(source: .direct)
    let millis = await Measure.millis { report = await SyncEngine(store: store, configuration: configuration).sync() }
    await proxy.stop()
    guard report.failedChannels.isEmpty, report.error == nil else { throw BenchFailure("direct sync through \(link): \(report)") }
    return LinkSync(millis: millis, bytesDown: proxy.bytesDown, bytesUp: proxy.bytesUp)
}

/// The port of `http://127.0.0.1:PORT`.
private func port(_ url: String) throws -> Int {
    guard let port = URL(string: url)?.port else { throw BenchFailure("no port in \(url)") }
    return port
}

/// `metube-bench-probe` (beside this executable) with `arguments`, not yet started.
private func probeProcess(_ arguments: [String]) throws -> Process {
    let probe = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("metube-bench-probe")
    guard FileManager.default.isExecutableFile(atPath: probe.path) else { throw BenchFailure("no metube-bench-probe beside metube-bench") }
    let process = Process()
    process.executableURL = probe
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    return process
}

/// Passes requests on, hiding their `Accept-Encoding` from the hub when `hides`.
private struct AcceptEncodingFilter: RouterMiddleware {
    typealias Context = BasicRequestContext
    let hides: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard hides else { return try await next(request, context) }
        var head = request.head
        head.headerFields[.acceptEncoding] = nil
        return try await next(Request(head: head, body: request.body), context)
    }
}
