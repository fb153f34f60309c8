import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import TestSupport

/// The backfill figures of direct mode with a Data API key: 200 channels followed for the first
/// time, their feeds (15 entries each) and the Data API (the loopback stub, 50 uploads a channel)
/// local: how long the first direct sync takes to bring all 10,000 videos with their lengths, and
/// the quota units it spends on lengths (`videos.list`) and in all (with `playlistItems.list`).
func directDataAPIBackfillFigures(in folder: URL) async throws -> [Figure] {
    let channelCount = 200
    let perChannel = 50
    let library = SyntheticLibrary(channelCount: channelCount, videoCount: channelCount * perChannel, markCount: 0, newest: Date())
    let channels = library.channels()
    let uploads = Dictionary(uniqueKeysWithValues: channels.enumerated().map { index, channel in
        (channel.id, (0..<perChannel).map { number in
            let video = library.video(number * channelCount + index)
            return YouTubeStub.Upload(id: video.id, title: video.title, duration: "PT\(4 + number % 20)M\(number)S")
        })
    })
    let stub = await YouTubeStub.start(override: YouTubeStub.uploads(uploads))
    defer { stub.stop() }
    let (feeds, feedURL) = await serveSyntheticFeeds(library, channels: channels, entries: 15)
    defer { feeds.stop() }

    let store = try Store.open(at: folder.appendingPathComponent("direct-key-store", isDirectory: true))
    try store.apply(StoreChange(channels: channels.map { Channel(id: $0.id, title: $0.title) }))
    var configuration = SyncConfiguration(source: .direct, feedURLTemplate: "\(feedURL)/feeds/{channelId}")
    configuration.directRate = 1_000  // the sync's own speed, not the pacing toward YouTube
    configuration.backfill = perChannel
    configuration.youTubeAPIKey = "bench-key"
    configuration.youTubeAPIURL = stub.url
    let engine = SyncEngine(store: store, configuration: configuration)
    var report = SyncReport(source: .direct)
    let millis = await Measure.millis { report = await engine.sync() }
    let expected = channelCount * perChannel
    let withLength = store.library().videos.filter { $0.duration != nil }.count
    guard report.isComplete, report.notes.isEmpty, withLength == expected else {
        throw BenchError("backfill.direct-key: \(withLength) of \(expected) videos with a length; \(report)")
    }
    let lengthUnits = stub.requests.filter { $0.path == "/videos" }.count
    let units = lengthUnits + stub.requests.filter { $0.path == "/playlistItems" }.count
    let detail = "200 new channels, 15-entry feeds, backfill 50 from the Data API stub, first direct sync"
    return [
        Figure(name: "backfill.direct-key.200x50", value: millis / 1000, unit: "s", goal: "<= 10", detail: "\(detail): all 10,000 with a length"),
        Figure(name: "backfill.direct-key.200x50.length-units", value: Double(lengthUnits), unit: "units", goal: "<= 200",
               detail: "\(detail): videos.list calls, 50 ids each at most, 1 unit each"),
        Figure(name: "backfill.direct-key.200x50.units", value: Double(units), unit: "units", goal: "<= 400",
               detail: "\(detail): with playlistItems.list (daily quota 10,000)"),
    ]
}
