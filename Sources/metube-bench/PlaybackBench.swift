import Foundation
import TestSupport
import MeTubeCore
import MeTubeStore
import MeTubePlayer
import MeTubeTUI
import Synchronization

/// Figures of playback tracking on a 50,000-video store: one durable position save, and keys
/// pressed while a real mpv (`--vo=null --ao=null` on a generated source) is tracked, its
/// positions reaching the screen model between keys as the TUI's loop delivers them.
func playbackFigures() async throws -> [Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let generator = SyntheticLibrary(channelCount: 216, videoCount: 50_000, markCount: 25_000)
    let store = try Store.open(at: directory.appendingPathComponent("store"))
    try store.apply(StoreChange(marks: generator.marks(), videos: generator.videos(), channels: generator.channels()))
    try store.compact()
    let videos = store.library().videos
    let saves = try (0..<200).map { index in
        try Measure.millis {
            _ = try store.transaction { $0.savePosition(videos[index].id, seconds: Double(index) + 0.5, duration: 600) }
        }
    }
    var figures = [Figure(
        name: "playback.position_save_durable.50k", value: Measure.median(saves), unit: "ms", goal: "report",
        detail: "median of 200 journal append + fsync of one position; p99 \(String(format: "%.2f", Measure.percentile(saves, 99))) ms"
    )]
    if let keys = try trackedPlayerKeyFigures(store: store, video: videos[300], socketDirectory: directory.appendingPathComponent("run")) {
        figures += keys
    } else {
        FileHandle.standardError.write(Data("bench: mpv is not on PATH (make deps installs it): no key figures with a tracked player\n".utf8))
    }
    figures += try sponsorSkipFigures(directory: directory) ?? []
    return figures
}

/// Key → redrawn screen at 50k for move, mark (durable) and filter while a real mpv plays and is
/// recorded into the same store; each sample also applies the player updates queued before it.
/// `nil` when mpv is not installed.
private func trackedPlayerKeyFigures(store: Store, video: Video, socketDirectory: URL) throws -> [Figure]? {
    guard PlayerSettings.isOnPath("mpv", environment: ProcessInfo.processInfo.environment) else { return nil }
    let queued = Mutex<[PlaybackUpdate]>([])
    let firstPosition = DispatchSemaphore(value: 0)
    let command = MPVCommand(template: "mpv --no-config --vo=null --ao=null --ytdl=no --title={url} av://lavfi:testsrc=duration=600:rate=10")
    let recorder = try PlaybackRecorder.start(
        video: video, store: store, policy: PlaybackPolicy(), command: command, startSeconds: nil, socketDirectory: socketDirectory
    ) { update in
        let isFirst = queued.withLock { updates in
            updates.append(update)
            return update.seconds != nil && updates.count(where: { $0.seconds != nil }) == 1
        }
        if isFirst { firstPosition.signal() }
    }
    defer { recorder.stop(waitingAtMost: 10) }
    guard firstPosition.wait(timeout: .now() + 30) == .success else { throw BenchError("mpv reported no position within 30 s") }

    var model = ScreenModel(library: store.library(), size: TerminalSize(width: 120, height: 40))
    var applied = 0
    func timed(_ key: Key) throws -> Double {
        try Measure.millis {
            for update in queued.withLock({ updates in defer { updates.removeAll() }; return updates }) {
                _ = model.apply(.playback(update))
                applied += 1
            }
            for case let .mark(videoID, status) in model.handle(key) {
                _ = model.apply(.marked(try store.mark(videoID, as: status)))
            }
            _ = ScreenRenderer.render(model)
        }
    }
    let moves = try (Array(repeating: Key.character("j"), count: 300) + Array(repeating: Key.character("k"), count: 100)).map(timed)
    let marks = try (0..<200).map { _ in
        let sample = try timed(.character("w"))
        _ = model.handle(.character("j"))
        return sample
    }
    let filters = try Array(repeating: Key.character("f"), count: 40).map(timed)
    guard recorder.result == nil else { throw BenchError("mpv ended while the keys were measured: \(String(describing: recorder.result))") }
    return [("move", moves), ("mark", marks), ("filter", filters)].map { name, samples in
        Figure(
            name: "tui.key.\(name).p99.player-tracked.50k", value: Measure.percentile(samples, 99), unit: "ms", goal: "<= 16 ms",
            detail: "\(samples.count) keys while a real mpv is recorded into the same store (\(applied) player updates applied in all); model + render, no terminal; median \(String(format: "%.2f", Measure.median(samples))) ms"
        )
    }
}
