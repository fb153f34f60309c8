import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import TestSupport

/// `metube-bench-probe`: the work `metube-bench` measures in a process of its own, so the process's
/// peak memory belongs to that work alone. It prints its figures as numbers on one line.
///
/// - `store-memory STORE`: opens the store, marks one video, compacts; prints
///   "loadedPeakMiB compactMillis peakMiB residentAfterOpenMiB".
/// - `sync direct|hub STORE URL`: one sync the way `metube sync` runs it (direct mode from a feed
///   URL template at `[hub] rate = 1000`, or a hub with 500-video pages), then the compaction
///   `metube sync` would run; prints "millis peakMiB videos compactMillis".
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "store-memory" where arguments.count == 2:
        try probeStoreMemory(URL(fileURLWithPath: arguments[1]))
    case "sync" where arguments.count == 4 && ["direct", "hub"].contains(arguments[1]):
        try await probeSync(direct: arguments[1] == "direct", store: URL(fileURLWithPath: arguments[2]), url: arguments[3])
    default:
        FileHandle.standardError.write(Data("usage: metube-bench-probe store-memory STORE | sync direct|hub STORE URL\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("metube-bench-probe: \(error)\n".utf8))
    exit(1)
}

private func probeStoreMemory(_ directory: URL) throws {
    let store = try Store.open(at: directory)
    let loaded = ProcessMemory.peakResidentMiB()
    let resident = ProcessMemory.residentMiB()
    try store.mark(store.library().videos[0].id, as: .watched)
    let start = ContinuousClock.now
    try store.compact()
    print(loaded, (ContinuousClock.now - start).milliseconds, ProcessMemory.peakResidentMiB(), resident)
}

private func probeSync(direct: Bool, store directory: URL, url: String) async throws {
    let store = try Store.open(at: directory)
    var configuration = direct
        ? SyncConfiguration(source: .direct, feedURLTemplate: url)
        : SyncConfiguration(source: .hub, hubURL: url, pageSize: 500)
    configuration.directRate = directRate
    let start = ContinuousClock.now
    let report = await SyncEngine(store: store, configuration: configuration).sync()
    let millis = (ContinuousClock.now - start).milliseconds
    guard report.failedChannels.isEmpty, report.error == nil else {
        FileHandle.standardError.write(Data("metube-bench-probe: sync failed: \(report)\n".utf8))
        exit(1)
    }
    FileHandle.standardError.write(Data("bench: sync: peak before its compaction \(String(format: "%.1f", ProcessMemory.peakResidentMiB())) MiB\n".utf8))
    let compactStart = ContinuousClock.now
    if store.needsCompaction { try store.compact() }
    print(millis, ProcessMemory.peakResidentMiB(), store.library().videos.count, (ContinuousClock.now - compactStart).milliseconds)
}

/// The direct-mode figures measure the sync, not the pacing toward YouTube: `[hub] rate` at its
/// highest (at the default 100 a second, 2,000 feeds take 20 s by design).
let directRate = 1_000.0
