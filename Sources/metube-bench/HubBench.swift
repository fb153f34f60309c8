import Foundation
import AsyncHTTPClient
import Hummingbird
import Logging
import MeTubeCore
import MeTubeDemoServer
import MeTubeFeeds
import MeTubeServer
import MeTubeStore
import MeTubeSync
import NIOCore
import TestSupport

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
    let (server, hubURL) = try await serveHub(over: database, logger: logger)
    defer { server.stop() }

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

    let (feedServer, feedURL) = await serveSyntheticFeeds(library, channels: library.channels(), entries: 50)
    defer { feedServer.stop() }
    var directs: [Double] = []
    for run in 0..<3 {
        let store = try Store.open(at: folder.appendingPathComponent("direct-\(run)", isDirectory: true))
        try store.apply(StoreChange(channels: library.channels().map { MeTubeCore.Channel(id: $0.id) }))
        var configuration = SyncConfiguration(source: .direct, feedURLTemplate: "\(feedURL)/feeds/{channelId}")
        configuration.directRate = 1_000  // the sync's own speed, not the pacing toward YouTube (`[hub] rate`, default 100/s)
        let engine = SyncEngine(store: store, configuration: configuration)
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

/// Runs the whole server (hub and mark-sync routes, no feed polling) over `database` on an
/// ephemeral loopback port; returns the service and its base URL.
func serveHub(over database: ServerDatabase, logger: Logger) async throws -> (service: BackgroundService, url: String) {
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = try await buildApplication(
        configuration: ServerConfiguration(pollInterval: nil, logger: logger, onListening: { _, port in portContinuation.yield(port) }),
        database: database
    )
    let service = BackgroundService(app, logger: logger)
    var iterator = ports.makeAsyncIterator()
    return (service, "http://127.0.0.1:\(await iterator.next() ?? 0)")
}

/// Serves `GET /feeds/{channelId}` on loopback: for the `index`-th of `channels`, an Atom feed of
/// `library`'s videos `index`, `index + channels.count`, … (`entries` of them). Returns the service
/// and its base URL.
func serveSyntheticFeeds(_ library: SyntheticLibrary, channels: [MeTubeCore.Channel], entries: Int) async -> (service: BackgroundService, url: String) {
    let feeds = Dictionary(uniqueKeysWithValues: channels.enumerated().map { index, channel in
        (channel.id, ByteBuffer(string: syntheticAtomFeed(channel: channel, videos: (0..<entries).map { library.video($0 * channels.count + index) })))
    })
    let router = Router()
    router.get("/feeds/:channelId") { _, context -> Response in
        guard let feed = feeds[try context.parameters.require("channelId")] else { return Response(status: .notFound) }
        return Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: feed))
    }
    return await BackgroundService.serve(router, label: "bench-feeds")
}

/// `text` escaped for an XML text node or a double-quoted attribute.
func xmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
}

/// A YouTube-shaped Atom feed of `videos` for `channel`.
func syntheticAtomFeed(channel: MeTubeCore.Channel, videos: [Video]) -> String {
    var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
         <link rel="self" href="http://www.youtube.com/feeds/videos.xml?channel_id=\(channel.id)"/>
         <id>yt:channel:\(channel.id.dropFirst(2))</id>
         <yt:channelId>\(channel.id.dropFirst(2))</yt:channelId>
         <title>\(xmlEscaped(channel.title ?? channel.id))</title>
         <author><name>\(xmlEscaped(channel.title ?? channel.id))</name><uri>https://www.youtube.com/channel/\(channel.id)</uri></author>

        """
    for video in videos {
        let published = ISO8601Timestamp.format(video.published).replacingOccurrences(of: "Z", with: "+00:00")
        xml += """
             <entry>
              <id>yt:video:\(video.id)</id>
              <yt:videoId>\(video.id)</yt:videoId>
              <yt:channelId>\(channel.id)</yt:channelId>
              <title>\(xmlEscaped(video.title))</title>
              <link rel="alternate" href="https://www.youtube.com/\(video.isShortLink ? "shorts/" : "watch?v=")\(video.id)"/>
              <author><name>\(xmlEscaped(channel.title ?? channel.id))</name><uri>https://www.youtube.com/channel/\(channel.id)</uri></author>
              <published>\(published)</published>
              <updated>\(published)</updated>
              <media:group>
               <media:title>\(xmlEscaped(video.title))</media:title>
               <media:thumbnail url="https://i1.ytimg.com/vi/\(video.id)/hqdefault.jpg" width="480" height="360"/>
               <media:description>\(xmlEscaped(video.description ?? ""))</media:description>
               <media:community><media:starRating count="12" average="5.00" min="1" max="5"/><media:statistics views="1234"/></media:community>
              </media:group>
             </entry>

            """
    }
    return xml + "</feed>\n"
}
