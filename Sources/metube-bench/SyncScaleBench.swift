import Foundation
import Hummingbird
import Logging
import MeTubeCore
import MeTubeDemoServer
import MeTubeServer
import MeTubeStore
import MeTubeSync
import NIOCore
import TestSupport

/// How many channels and entries per feed the large sync figures use: a user with 2,000
/// subscriptions, each feed full (the hub keeps about 100 videos per channel).
private let scaleChannels = 2_000
private let scaleEntries = 100

/// Sync at library scale: a direct sync of 2,000 Atom feeds × 100 entries from a loopback feed
/// server into an empty store, and a first hub sync of 200,000 videos from a loopback
/// metube-server. Each sync runs in `metube-bench-probe`, a process of its own, so its peak resident
/// memory is the sync's own; the servers stay in this process.
func syncScaleFigures() async throws -> [Figure] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-sync-scale-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var logger = Logger(label: "sync-scale-bench")
    logger.logLevel = .critical
    let library = SyntheticLibrary(channelCount: scaleChannels, videoCount: scaleChannels * scaleEntries, markCount: 0, newest: Date())
    var figures = try await directScaleFigures(library: library, folder: folder)
    figures.append(try await noOpDirectSyncFigure(library: library, folder: folder, entries: 15))
    figures += try await hubScaleFigures(library: library, folder: folder, logger: logger)
    return figures
}

private func directScaleFigures(library: SyntheticLibrary, folder: URL) async throws -> [Figure] {
    let channels = library.channels()
    let (feedServer, feedURL) = await serveSyntheticFeeds(library, channels: channels, entries: scaleEntries)
    defer { feedServer.stop() }
    var samples: [[Double]] = []
    for run in 0..<3 {
        let store = folder.appendingPathComponent("direct-\(run)", isDirectory: true)
        try Store.open(at: store).apply(StoreChange(channels: channels.map { MeTubeCore.Channel(id: $0.id) }))
        let output = try await runProbeOnThread(["sync", "direct", store.path, "\(feedURL)/feeds/{channelId}"])
        samples.append(try probeValues(output, store: store, expectedVideos: library.videoCount))
        try? FileManager.default.removeItem(at: store)
    }
    return syncFigures(name: "sync.direct.2000-feeds", samples: samples, detail: "2,000 Atom feeds × 100 entries from loopback, concurrency 8, [hub] rate 1000/s (the default 100/s paces them over 20 s), into an empty store")
}

private func hubScaleFigures(library: SyntheticLibrary, folder: URL, logger: Logger) async throws -> [Figure] {
    let database = try ServerDatabase(path: folder.appendingPathComponent("hub.sqlite").path)
    let seedMillis = try await Measure.millis {
        try await DemoPublisher(repository: SQLiteHubRepository(database: database), library: library.catalog, logger: logger).seedIfEmpty()
    }
    FileHandle.standardError.write(Data("bench: sync: hub seeded with \(library.videoCount) videos in \(Int(seedMillis)) ms\n".utf8))
    let (server, hubURL) = try await serveHub(over: database, logger: logger)
    defer { server.stop() }
    var samples: [[Double]] = []
    var noOp: Figure?
    for run in 0..<3 {
        let store = folder.appendingPathComponent("hub-\(run)", isDirectory: true)
        try Store.open(at: store).apply(StoreChange(channels: library.channels()))
        let output = try await runProbeOnThread(["sync", "hub", store.path, hubURL])
        samples.append(try probeValues(output, store: store, expectedVideos: library.videoCount))
        if run == 0 {
            let bytes = try await bytesWritten(to: store) { _ = try await runProbeOnThread(["sync", "hub", store.path, hubURL]) }
            noOp = noOpFigure(mode: "hub", channels: scaleChannels, bytes: bytes, detail: "second hub sync, the hub holding nothing new")
        }
        try? FileManager.default.removeItem(at: store)
    }
    return syncFigures(name: "sync.hub.first.200k", samples: samples, detail: "first hub sync of 2,000 channels / 200,000 videos, 500-video pages") + [noOp].compactMap { $0 }
}

/// The figures of three child runs (each "millis peakMiB videos diskBytes snapshotBytes compactMillis").
private func syncFigures(name: String, samples: [[Double]], detail: String) -> [Figure] {
    let best = samples.min { $0[0] < $1[0] } ?? []
    return [
        Figure(name: "\(name).time", value: Measure.median(samples.map { $0[0] }), unit: "ms", goal: "<= 5000", detail: "median of 3; \(detail)"),
        Figure(name: "\(name).peak-memory", value: samples.map { $0[1] }.max() ?? .nan, unit: "MiB", goal: "<= 200 MiB",
               detail: "highest VmHWM of the sync process over 3 runs (store open + sync + compaction)"),
        Figure(name: "\(name).compaction-after", value: Measure.median(samples.map { $0[5] }), unit: "ms", goal: "report",
               detail: "median of 3, the compaction `metube sync` runs after it when the journal has grown"),
        Figure(name: "\(name).disk-after", value: best.count == 6 ? best[3] / 1_048_576 : .nan, unit: "MiB", goal: "report",
               detail: String(format: "store files after the sync (backups excluded); snapshots %.1f MiB", best.count == 6 ? best[4] / 1_048_576 : .nan)),
    ]
}

/// The probe's "millis peakMiB videos compactMillis" with the store's disk use, as
/// "millis peakMiB videos diskBytes snapshotBytes compactMillis".
private func probeValues(_ output: String, store: URL, expectedVideos: Int) throws -> [Double] {
    let values = output.split(separator: " ").compactMap { Double($0) }
    guard values.count == 4 else { throw BenchFailure("metube-bench-probe sync printed \(output)") }
    guard Int(values[2]) == expectedVideos else { throw BenchFailure("the sync stored \(Int(values[2])) of \(expectedVideos) videos") }
    let (live, snapshots) = storeDiskUse(store)
    return [values[0], values[1], values[2], live, snapshots, values[3]]
}

/// The bytes of the store's live files (snapshots, journals, head; backups excluded) and of its
/// three snapshots.
func storeDiskUse(_ directory: URL) -> (live: Double, snapshots: Double) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    func size(_ name: String) -> Double {
        Double((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
    }
    let snapshots = ["library.json", "marks.json", "sync.json"].map(size).reduce(0, +)
    let live = names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") }.map(size).reduce(0, +)
    return (live, snapshots)
}

/// Runs ``runProbe(_:)`` on a thread of its own, so waiting for the probe blocks none of the
/// threads the servers in this process need.
func runProbeOnThread(_ arguments: [String]) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try runProbe(arguments) }) }.start()
    }
}
