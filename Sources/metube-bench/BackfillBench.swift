import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import TestSupport

/// The backfill figure: 200 channels a client follows for the first time, on a `metube-server`
/// child whose feeds (a loopback server, 15 entries each) and yt-dlp (the stand-in, 50 uploads a
/// channel with lengths) are local: the time from the client's first sync until its store holds
/// all 10,000 videos, the client syncing every 200 ms meanwhile. Then direct mode's with a key
/// (``directDataAPIBackfillFigures(in:)``).
func backfillFigures() async throws -> [Figure] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-backfill-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let channelCount = 200
    let perChannel = 50
    let library = SyntheticLibrary(channelCount: channelCount, videoCount: channelCount * perChannel, markCount: 0, newest: Date())
    let channels = library.channels()
    let standIn = try YTDLPStandIn()
    defer { standIn.remove() }
    for (index, channel) in channels.enumerated() {
        let uploads = (0..<perChannel).map { library.video($0 * channelCount + index) }
        try standIn.setUploads(uploads.map { .init(id: $0.id, title: $0.title, duration: Double(60 + $0.id.utf8.count)) }, for: channel.id)
    }
    let (feeds, feedURL) = await serveSyntheticFeeds(library, channels: channels, entries: 15)
    defer { feeds.stop() }
    let server = try await ServerProcess.start([
        "serve", "--database", folder.appendingPathComponent("hub.sqlite").path, "--port", "0", "--poll-interval", "3600",
        "--feed-url-template", "\(feedURL)/feeds/{channelId}", "--feed-rate", "0", "--yt-dlp", standIn.executable.path,
        "--status-rate", "0", "--register-limit", "0", "--log-level", "critical",
    ])
    defer { server.stop() }

    let store = try Store.open(at: folder.appendingPathComponent("store", isDirectory: true))
    try store.apply(StoreChange(channels: channels.map { Channel(id: $0.id, title: $0.title) }))
    let engine = SyncEngine(store: store, configuration: SyncConfiguration(source: .hub, hubURL: server.baseURL, pageSize: 500))
    let expected = channelCount * perChannel
    let start = ContinuousClock.now
    var syncs = 0
    while store.library().videos.count < expected {
        guard ContinuousClock.now - start < .seconds(120) else {
            throw BenchError("backfill: the client holds \(store.library().videos.count) of \(expected) videos after 120 s")
        }
        if syncs > 0 { try await Task.sleep(for: .milliseconds(200)) }
        _ = await engine.sync()
        syncs += 1
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let withLength = store.library().videos.filter { $0.duration != nil }.count
    let hub = Figure(
        name: "backfill.hub.200x50", value: seconds, unit: "s", goal: "<= 10",
        detail: "200 new channels, 15-entry feeds + yt-dlp stand-in, until the client holds all 10,000 (\(withLength) with a length, \(syncs) syncs)")
    return [hub] + (try await directDataAPIBackfillFigures(in: folder))
}
