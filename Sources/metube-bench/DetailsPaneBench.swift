import Foundation
import MeTubeCore
import MeTubeDemo
import MeTubeStore
import MeTubeTUI
import MeTubeThumbnails
import TestSupport

/// The details pane's figures of issue 22, from the real `metube` in tmux on a 200k library whose
/// first rows' thumbnails are cached: key to redrawn screen moving with the pane open and for
/// `Tab` (with the same moves with the pane closed beside them), and the resident memory with the
/// pane open against a run without it.
func detailsPaneFigures() async throws -> [Figure] {
    guard FileManager.default.isExecutableFile(atPath: metubeBinary.path) else {
        FileHandle.standardError.write(Data("bench: thumbnails: no metube binary at \(metubeBinary.path); skipping the details pane figures\n".utf8))
        return []
    }
    let count = 200_000
    let inProcess = try inProcessMoveFigure(videos: count)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-pane-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try fillStoreWithUnreachableThumbnails(count: count, at: directory.appendingPathComponent("data"))
    let cache = ThumbnailCache(directory: directory.appendingPathComponent("cache/metube/thumbnails"), byteLimit: 100 << 20)
    let pictures = try (0..<8).map { try JPEGEncoder.encode(benchThumbnail(seed: UInt32($0 + 100))) }
    for index in 0..<400 { try await cache.store(CachedThumbnail(bytes: pictures[index % pictures.count]), for: DemoCatalog.videoID(index)) }
    let environment = ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]

    let moves = Array(repeating: "j", count: 200)
    let tabs = Array(repeating: "Tab", count: 40)
    let without = try TimedTUIRun(directory: directory, keys: moves, environment: environment)
    let with = try TimedTUIRun(directory: directory, keys: ["Tab"] + moves + tabs, environment: environment)
    let moveTimes = Array(with.keyTimes.dropFirst().prefix(moves.count))
    let tabTimes = [with.keyTimes.first].compactMap { $0 } + Array(with.keyTimes.dropFirst(1 + moves.count))
    let size = "\(count / 1000)k"
    return [
        inProcess,
        Figure(name: "tui.details.key.move.p99.\(size)", value: Measure.percentile(moveTimes, 99), unit: "ms", goal: "<= 16 ms",
               detail: "\(moveTimes.count) `j` keys via tmux with the pane open (first 400 thumbnails cached, fetches refused), median \(String(format: "%.2f", Measure.median(moveTimes))) ms"),
        Figure(name: "tui.details.key.move.p99.\(size).pane-closed", value: Measure.percentile(without.keyTimes, 99), unit: "ms", goal: "report",
               detail: "the same \(without.keyTimes.count) `j` keys with the pane closed, median \(String(format: "%.2f", Measure.median(without.keyTimes))) ms: what the pane adds is the difference"),
        Figure(name: "tui.details.key.tab.p99.\(size)", value: Measure.percentile(tabTimes, 99), unit: "ms", goal: "<= 16 ms",
               detail: "\(tabTimes.count) `Tab` keys via tmux, opening and closing the pane, median \(String(format: "%.2f", Measure.median(tabTimes))) ms"),
        Figure(name: "tui.details.memory.extra.\(size)", value: with.quitMemory.resident - without.quitMemory.resident, unit: "MiB", goal: "<= 20 MiB",
               detail: "VmRSS at quit with the pane open (\(String(format: "%.1f", with.quitMemory.resident)) MiB) less a run without it (\(String(format: "%.1f", without.quitMemory.resident)) MiB), same moves"),
    ]
}

/// A store of `count` synthetic videos whose thumbnails live at a loopback port nothing listens
/// on, so a fetch is refused at once and only the cache shows pictures (no internet in a bench).
private func fillStoreWithUnreachableThumbnails(count: Int, at url: URL) throws {
    let library = SyntheticLibrary(channelCount: 216, videoCount: count, markCount: count / 2)
    let store = try Store.open(at: url)
    try store.apply(StoreChange(marks: library.marks(), channels: library.channels()))
    for start in stride(from: 0, to: count, by: 10_000) {
        let videos = (start..<min(start + 10_000, count)).map { index -> Video in
            var video = library.video(index)
            video.thumbnailURL = "http://127.0.0.1:9/vi/\(video.id)/mqdefault.jpg"
            return video
        }
        try store.apply(StoreChange(videos: videos))
    }
    try store.compact()
}

/// `j` with the pane open, in process: the screen model and renderer only (no store, no terminal,
/// no background decode), each move given the new row's real-sized description and a drawn
/// picture as the loader would; what the tmux figure adds beyond this is the loop's own work.
private func inProcessMoveFigure(videos: Int) throws -> Figure {
    let library = SyntheticLibrary(channelCount: 216, videoCount: videos, markCount: videos / 2)
    var model = ScreenModel(library: library.library(), size: TerminalSize(width: 120, height: 40))
    _ = model.handle(.tab)
    guard let layout = model.detailsLayout else { return Figure(name: "tui.details.key.move.p99.model+render.\(videos / 1000)k", value: .nan, unit: "ms", detail: "the pane did not open") }
    let picture = try SymbolRenderer(colors: .indexed256).render(
        try JPEGDecoder().decode(try JPEGEncoder.encode(benchThumbnail(seed: 7))), columns: layout.pictureColumns, rows: layout.pictureRows)
    let samples = (1...300).map { row in
        Measure.millis {
            _ = model.handle(.character("j"))
            guard let video = model.selectedVideo else { return }
            let text = library.video(row).description
            _ = model.apply(.details(.description(videoID: video.id, text: text)))
            _ = model.apply(.details(.picture(DetailsPicture(videoID: video.id, columns: layout.pictureColumns, rows: layout.pictureRows, state: .ready(picture)))))
            _ = ScreenRenderer.render(model)
        }
    }
    return Figure(name: "tui.details.key.move.p99.model+render.\(videos / 1000)k", value: Measure.percentile(samples, 99), unit: "ms", goal: "<= 16 ms",
                  detail: "\(samples.count) `j` keys with the pane open, description and picture applied, no terminal; median \(String(format: "%.2f", Measure.median(samples))) ms")
}
