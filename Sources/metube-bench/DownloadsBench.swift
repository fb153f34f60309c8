import Foundation
import MeTubeCore
import MeTubeDownloads
import MeTubePlayer
import MeTubeStore
import MeTubeTUI
import Synchronization
import TestSupport

/// Download figures: key → redrawn screen at 200k while two real yt-dlp downloads run (from a
/// loopback media server sending 4 KB/s, so they stay running), their reports
/// reaching the screen model between keys as the TUI's loop delivers them; and the offline start,
/// Enter on a video with a copy on disk until the real mpv plays the file, with no hub configured
/// and no network asked.
func downloadsFigures() async throws -> [Figure] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-downloads-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var figures: [Figure] = []
    let environment = ProcessInfo.processInfo.environment
    if PlayerSettings.isOnPath("yt-dlp", environment: environment) {
        figures += try await keysWhileDownloading(videos: 200_000, directory: directory)
    } else {
        FileHandle.standardError.write(Data("bench: yt-dlp is not on PATH (make deps installs it): no key figures while downloading\n".utf8))
    }
    if PlayerSettings.isOnPath("mpv", environment: environment) {
        figures.append(try offlineStartFigure(directory: directory))
    } else {
        FileHandle.standardError.write(Data("bench: mpv is not on PATH (make deps installs it): no offline start figure\n".utf8))
    }
    return figures
}

/// Move, mark (model only) and filter keys, model + render at `videos` videos, while two queued
/// videos download at once; every sample first applies the download reports queued before it.
private func keysWhileDownloading(videos: Int, directory: URL) async throws -> [Figure] {
    let library = SyntheticLibrary(channelCount: 216, videoCount: videos, markCount: videos / 2)
    let quiet = KeySamples(library: library.library(), reports: { [] })
    let queued = [library.video(10).id, library.video(20).id]
    let server = await MediaServer.start(serving: Set(queued))
    defer { server.stop() }
    server.throttle(bytesPerSecond: 4_000)
    let settings = DownloadSettings(command: "yt-dlp", directory: directory.appendingPathComponent("videos"), format: "b", concurrency: 2,
                                    urlTemplate: server.urlTemplate)
    try DownloadDirectory(url: settings.directory).create()
    let reports = Mutex<[DownloadEvent]>([])
    let progressing = Mutex<Set<String>>([])
    let bothRunning = DispatchSemaphore(value: 0)
    let downloader = Downloader(runner: YTDLPRun(settings: settings)) { id, state in
        reports.withLock { $0.append(.state(videoID: id, state)) }
        guard case .downloading(let report?) = state, report.downloadedBytes > 0 else { return }
        let (added, count) = progressing.withLock { ($0.insert(id).inserted, $0.count) }
        if added, count == 2 { bothRunning.signal() }
    }
    let downloads = Task.detached { await downloader.process(queue: queued, watched: []) }
    defer { downloads.cancel() }
    guard bothRunning.wait(timeout: .now() + 30) == .success else { throw BenchError("the two downloads did not both report progress within 30 s") }
    let busy = KeySamples(library: library.library()) { reports.withLock { events in defer { events.removeAll() }; return events } }
    let stillRunning = busy.model.downloads.active.count
    guard stillRunning == 2 else {
        throw BenchError("\(2 - stillRunning) of the two downloads ended while the keys were measured: \(queued.map { busy.model.downloads.stateText(of: $0) })")
    }
    return zip(busy.samples, quiet.samples).map { measured, without in
        Figure(
            name: "tui.key.\(measured.name).p99.two-downloads.\(videos / 1000)k", value: Measure.percentile(measured.samples, 99), unit: "ms", goal: "<= 16 ms",
            detail: "\(measured.samples.count) keys while two real yt-dlp downloads run (\(busy.applied) download reports applied in all); model + render, no terminal; median \(String(format: "%.2f", Measure.median(measured.samples))) ms; the same keys with no download: p99 \(String(format: "%.2f", Measure.percentile(without.samples, 99))) ms"
        )
    }
}

/// Move, mark (model only) and filter keys, model + render, each sample first applying the
/// download reports `reports` hands over (as the TUI's loop delivers them between keys).
private struct KeySamples {
    private(set) var model: ScreenModel
    private(set) var applied = 0
    private(set) var samples: [(name: String, samples: [Double])] = []

    init(library: Library, reports: () -> [DownloadEvent]) {
        model = ScreenModel(library: library, size: TerminalSize(width: 120, height: 40))
        let moves = (Array(repeating: Key.character("j"), count: 300) + Array(repeating: Key.character("k"), count: 100)).map { timed($0, reports) }
        let marks = (0..<200).map { _ in
            let sample = timed(.character("w"), reports)
            _ = model.handle(.character("j"))
            return sample
        }
        let filters = Array(repeating: Key.character("f"), count: 40).map { timed($0, reports) }
        samples = [("move", moves), ("mark", marks), ("filter", filters)]
    }

    private mutating func timed(_ key: Key, _ reports: () -> [DownloadEvent]) -> Double {
        Measure.millis {
            for event in reports() {
                _ = model.apply(.download(event))
                applied += 1
            }
            _ = model.handle(key)
            _ = ScreenRenderer.render(model)
        }
    }
}

/// Enter on a video whose copy is on disk, through the screen model's `.play` effect and the
/// recorder the TUI starts (the file from ``DownloadDirectory``), until mpv reports a position in
/// the file; no hub is configured, so nothing is asked of the network. Median of 5, each from a
/// fresh screen model (the last one still counts the video as playing).
private func offlineStartFigure(directory: URL) throws -> Figure {
    let store = try Store.open(at: directory.appendingPathComponent("store"))
    let generator = SyntheticLibrary(channelCount: 216, videoCount: 50_000, markCount: 25_000)
    try store.apply(StoreChange(marks: generator.marks(), videos: generator.videos(), channels: generator.channels()))
    let copies = DownloadDirectory(url: directory.appendingPathComponent("copies"))
    try copies.create()
    var settingsText = "[tui]\nplayer = \"mpv\"\nopen = \"mpv --no-config --vo=null --ao=null --ytdl=no {url}\"\nresume = \"never\"\n"
    settingsText += "[download]\ndir = \"\(copies.url.path)\"\n"
    let config = try TUIConfig(settings: Settings(parsing: settingsText))
    guard let player = config.player else { throw BenchError("the bench's [tui] settings give no tracked player") }
    let library = store.library()
    guard let videoID = ScreenModel(library: library, size: TerminalSize(width: 120, height: 40), config: config).selectedVideo?.id else {
        throw BenchError("the offline start bench's feed is empty")
    }
    try MediaServer.sampleVideo.write(to: copies.url.appendingPathComponent("\(videoID).mp4"))
    let samples = try (0..<5).map { _ in
        var model = ScreenModel(library: library, size: TerminalSize(width: 120, height: 40), config: config)
        let playing = DispatchSemaphore(value: 0)
        let reported = Atomic<Bool>(false)
        var recorder: PlaybackRecorder?
        let millis = try Measure.millis {
            for case let .play(id, start) in model.handle(.enter) {
                recorder = try PlaybackRecorder.start(
                    video: store.library().video(id) ?? Video(id: id, channelID: "", title: id, published: Date()), localFile: copies.copy(of: id)?.file,
                    store: store, policy: player.policy, command: player.command, startSeconds: start,
                    socketDirectory: PlayerSocketDirectory.url()
                ) { update in
                    if update.seconds != nil, !reported.exchange(true, ordering: .sequentiallyConsistent) { playing.signal() }
                }
            }
            guard recorder != nil else { throw BenchError("Enter did not start a tracked player") }
            guard playing.wait(timeout: .now() + 30) == .success else { throw BenchError("mpv reported no position in the local file within 30 s") }
        }
        _ = recorder?.stop(waitingAtMost: 10)
        return millis
    }
    return Figure(
        name: "playback.offline-start.enter-to-playing", value: Measure.median(samples), unit: "ms", goal: "<= 300 ms",
        detail: "median of 5 (max \(String(format: "%.0f", samples.max() ?? 0)) ms): Enter, model's play effect, real mpv started on the copy on disk, until its first position; no hub, 50k store"
    )
}
