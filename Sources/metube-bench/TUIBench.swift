import Foundation
import TestSupport
import MeTubeCore
import MeTubeStore
import MeTubeTUI
import Synchronization

/// The TUI's figures: start to first complete frame, and key press to redrawn screen.
///
/// In-process figures drive the screen model and renderer without a terminal; end-to-end figures
/// run the real `metube` binary (next to this one) in tmux on a generated store, read its
/// `--timing` lines (which include the curses copy to the terminal) and time the screen from outside.
func tuiFigures() async throws -> [Figure] {
    var figures: [Figure] = []
    for count in benchSizes {
        figures.append(inProcessFirstFrame(videos: count))
    }
    figures += inProcessKeyFigures(videos: 50_000) + inProcessKeyFigures(videos: 200_000)
    figures.append(try markDuringCompactionFigure(videos: 200_000))
    figures += try endToEndFigures()
    return figures
}

/// A synthetic library of `videos` videos over 216 channels, half of them marked.
private func benchLibrary(videos: Int) -> Library {
    SyntheticLibrary(channelCount: 216, videoCount: videos, markCount: videos / 2).library()
}

private let benchSize = TerminalSize(width: 120, height: 40)

private func inProcessFirstFrame(videos: Int) -> Figure {
    let library = benchLibrary(videos: videos)
    let samples = (0..<9).map { _ in
        Measure.millis {
            let model = ScreenModel(library: library, size: benchSize)
            _ = ScreenRenderer.render(model)
        }
    }
    return Figure(
        name: "tui.first-frame.model+render.\(videos / 1000)k", value: Measure.median(samples), unit: "ms",
        goal: videos == 10_000 ? "<= 50 ms (whole start)" : "", detail: "median of 9, library already in memory, no terminal"
    )
}

private func inProcessKeyFigures(videos: Int) -> [Figure] {
    let library = benchLibrary(videos: videos)
    var model = ScreenModel(library: library, size: benchSize)
    model.prepareSearch()
    func timed(_ keys: [Key]) -> [Double] {
        keys.map { key in
            Measure.millis {
                _ = model.handle(key)
                _ = ScreenRenderer.render(model)
            }
        }
    }
    let moves = timed(Array(repeating: .character("j"), count: 300) + Array(repeating: .character("k"), count: 100))
    let marks = timed((0..<200).flatMap { _ in [Key.character("w"), .character("j")] }).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    let filters = timed(Array(repeating: .character("f"), count: 40))
    _ = model.handle(.character("/"))
    let searchKeys = "deep dive tutorial".map { Key.character($0) } + Array(repeating: .backspace, count: 18) + "東京の夜".map { Key.character($0) }
    let search = timed(searchKeys)
    var wholeSearches: [Double] = []
    for key in searchKeys {
        wholeSearches.append(Measure.millis {
            _ = model.handle(key)
            while model.isCountingMatches { model.continueSearch() }
            _ = ScreenRenderer.render(model)
        })
    }
    let keyFigures = [("move", moves), ("mark", marks), ("filter", filters), ("search", search)].map { name, samples in
        Figure(
            name: "tui.key.\(name).p99.model+render.\(videos / 1000)k", value: Measure.percentile(samples, 99), unit: "ms",
            goal: "<= 16 ms", detail: "\(samples.count) keys, no terminal, median \(String(format: "%.2f", Measure.median(samples))) ms\(name == "search" ? "; first results (the rest is counted between keys)" : "")"
        )
    }
    return keyFigures + [Figure(
        name: "tui.search.all-matches.p99.model+render.\(videos / 1000)k", value: Measure.percentile(wholeSearches, 99), unit: "ms", goal: "report",
        detail: "\(wholeSearches.count) keys, each until every row is scanned and counted; median \(String(format: "%.2f", Measure.median(wholeSearches))) ms"
    )]
}

/// Key to redrawn screen for `w` (screen model, durable mark through the real store, render) while
/// compactions of the same store of `videos` videos run back to back on another thread, as the TUI
/// runs them in the background. Only keys that both started and ended during a compaction count.
private func markDuringCompactionFigure(videos: Int) throws -> Figure {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try Store.open(at: directory)
    try SyntheticLibrary(channelCount: 216, videoCount: videos, markCount: videos / 2).fill(store)
    let compactions = Atomic<Int>(0)
    let running = Atomic<Bool>(false)
    let stop = Atomic<Bool>(false)
    let stopped = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        while !stop.load(ordering: .sequentiallyConsistent) {
            running.store(true, ordering: .sequentiallyConsistent)
            try? store.compact()
            running.store(false, ordering: .sequentiallyConsistent)
            compactions.add(1, ordering: .sequentiallyConsistent)
        }
        stopped.signal()
    }
    var model = ScreenModel(library: store.library(), size: benchSize)
    var samples: [Double] = []
    while samples.count < 200 {
        let before = compactions.load(ordering: .sequentiallyConsistent)
        guard running.load(ordering: .sequentiallyConsistent) else { continue }
        let millis = try Measure.millis {
            for case let .mark(videoID, status) in model.handle(.character("w")) {
                _ = model.apply(.marked(try store.mark(videoID, as: status)))
            }
            _ = ScreenRenderer.render(model)
        }
        _ = model.handle(.character("j"))
        if running.load(ordering: .sequentiallyConsistent), compactions.load(ordering: .sequentiallyConsistent) == before { samples.append(millis) }
    }
    stop.store(true, ordering: .sequentiallyConsistent)
    stopped.wait()
    return Figure(
        name: "tui.key.mark.p99.during-compaction.\(videos / 1000)k", value: Measure.percentile(samples, 99), unit: "ms", goal: "<= 16 ms",
        detail: "\(samples.count) `w` keys during \(compactions.load(ordering: .sequentiallyConsistent)) compactions of \(videos) videos on another thread; model + journal append + fsync + render, no terminal; median \(String(format: "%.2f", Measure.median(samples))) ms"
    )
}

/// The `metube` binary next to this benchmark.
var metubeBinary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("metube")
}

/// What tmux alone costs in the screen-seen figures: a new session running a shell that prints the
/// line the figures wait for, until capture-pane shows it.
private func tmuxBaselineFigure() throws -> Figure {
    let samples = try (0..<5).map { _ in
        try Measure.millis {
            let tmux = try TmuxSession(command: ["/bin/sh", "-c", "echo 'hub: baseline'; exec sleep 30"], width: 120, height: 40)
            defer { tmux.close() }
            try tmux.waitFor(timeout: .seconds(30)) { $0.contains("hub: ") }
        }
    }
    return Figure(name: "tui.start.screen-seen.tmux-baseline", value: Measure.median(samples), unit: "ms", detail: "median of 5, tmux new-session running `echo` to its line on capture-pane: subtract from the screen-seen figures")
}

/// Runs `metube --timing` in tmux on generated stores: start to first frame (the program's own
/// figure and the screen seen from outside) at each bench size, then key to redrawn screen at 50k
/// and 200k (once the whole library has loaded) from the program's per-key timing lines.
private func endToEndFigures() throws -> [Figure] {
    guard FileManager.default.isExecutableFile(atPath: metubeBinary.path) else {
        FileHandle.standardError.write(Data("bench: tui: no metube binary at \(metubeBinary.path); skipping the tmux figures\n".utf8))
        return []
    }
    var figures = [try tmuxBaselineFigure()]
    for count in benchSizes {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-tui-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try SyntheticLibrary(channelCount: 216, videoCount: count, markCount: count / 2).fill(Store.open(at: directory.appendingPathComponent("data")))
        var inProgram: [Double] = []
        var outside: [Double] = []
        for _ in 0..<5 {
            let run = try TimedTUIRun(directory: directory, keys: [])
            inProgram.append(run.firstFrame)
            outside.append(run.screenSeen)
        }
        let goal = "<= 50 ms"
        figures.append(Figure(name: "tui.start.first-frame.\(count / 1000)k", value: Measure.median(inProgram), unit: "ms", goal: goal, detail: "median of 5, in-program (--timing), store open included"))
        figures.append(Figure(name: "tui.start.screen-seen.tmux.\(count / 1000)k", value: Measure.median(outside), unit: "ms", goal: goal, detail: "median of 5, tmux new-session to status line on capture-pane"))
        guard count >= 50_000 else { continue }
        let keys: [(String, [String])] = [
            ("move", Array(repeating: "j", count: 200)),
            ("mark", (0..<100).flatMap { _ in ["w", "j"] }),
            ("filter", Array(repeating: "f", count: 40)),
            ("search", ["/"] + "deep dive tutorial".map { String($0) } + Array(repeating: "BSpace", count: 18) + ["Escape"]),
        ]
        let run = try TimedTUIRun(directory: directory, keys: keys.flatMap(\.1))
        let memoryGoal = count <= 50_000 ? "<= 60 MiB" : "<= 120 MiB"
        figures.append(Figure(name: "tui.memory.resident.\(count / 1000)k", value: run.quitMemory.resident, unit: "MiB", goal: memoryGoal,
                              detail: "VmRSS of `metube` at quit: whole library loaded, search index built, after the key figures"))
        figures.append(Figure(name: "tui.memory.peak.\(count / 1000)k", value: run.quitMemory.peak, unit: "MiB", goal: "report",
                              detail: "VmHWM of `metube` at quit (the background open's parsing included)"))
        var offset = 0
        for (name, sent) in keys {
            let samples = Array(run.keyTimes[offset..<min(offset + sent.count, run.keyTimes.count)])
            offset += sent.count
            let measured = name == "mark" ? samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) : samples
            figures.append(Figure(
                name: "tui.key.\(name).p99.\(count / 1000)k", value: Measure.percentile(measured, 99), unit: "ms", goal: "<= 16 ms",
                detail: "\(measured.count) keys via tmux, in-program key read to screen refreshed, median \(String(format: "%.2f", Measure.median(measured))) ms"
            ))
        }
        // Last, as it grows the store and leaves a journal past the compaction threshold, which
        // the key and memory figures above must not start with.
        if count == benchSizes.last { figures.append(try steadyStateFirstFrameFigure(directory: directory, videos: count)) }
    }
    return figures
}

/// The TUI's first frame on the store of `videos` videos in `directory/data` in daily use
/// (``SteadyStateWrites`` since its last compaction, which kept every channel's fetch state). A
/// run quits before the background compaction it starts (the journal is past the threshold) can
/// finish, so each run gets a compaction and the writes anew.
private func steadyStateFirstFrameFigure(directory: URL, videos: Int) throws -> Figure {
    let data = directory.appendingPathComponent("data")
    let library = SyntheticLibrary(channelCount: 216, videoCount: videos, markCount: videos / 2)
    try SteadyStateWrites(syncs: 1, marks: 0).apply(to: data, library: library)
    let writes = SteadyStateWrites()
    var journal = 0
    var samples: [Double] = []
    for run in 0..<5 {
        try Store.open(at: data).compact()
        journal = try writes.apply(to: data, library: library, first: 1 + run * writes.syncs)
        samples.append(try TimedTUIRun(directory: directory, keys: []).firstFrame)
    }
    return Figure(name: "tui.start.first-frame.steady.\(videos / 1000)k", value: Measure.median(samples), unit: "ms", goal: "<= 50 ms",
                  detail: "median of 5, in-program (--timing), a \(journal / 1024) KiB journal \(writes.summary)")
}

/// One run of `metube --timing` in tmux: starts it, waits for the first screen, sends `keys`,
/// quits, and reads the timing lines.
struct TimedTUIRun {
    /// The program's start-to-first-frame figure, in ms.
    var firstFrame = 0.0
    /// From starting tmux to the status line showing on capture-pane, in ms.
    var screenSeen = 0.0
    /// Each key's read-to-refresh time, in ms, in the order sent.
    var keyTimes: [Double] = []
    /// The program's resident and peak resident memory when it quit, in MiB.
    var quitMemory = (resident: Double.nan, peak: Double.nan)

    /// A run on the store in `directory/data`, with `environment` added to the program's.
    init(directory: URL, keys: [String], environment: [String: String] = [:]) throws {
        let timingPath = directory.appendingPathComponent("timing-\(UUID().uuidString).jsonl").path
        let started = ContinuousClock.now
        let tmux = try TmuxSession(
            command: [metubeBinary.path, "--timing", timingPath],
            environment: ["METUBE_DATA_DIR": directory.appendingPathComponent("data").path, "METUBE_CONFIG": directory.appendingPathComponent("none.toml").path]
                .merging(environment) { $1 },
            width: 120, height: 40
        )
        defer { tmux.close() }
        try tmux.waitFor(timeout: .seconds(30)) { $0.contains("hub: ") }
        screenSeen = (ContinuousClock.now - started).milliseconds
        if !keys.isEmpty { try tmux.waitFor(timeout: .seconds(60)) { !$0.contains("· loading") } }
        for key in keys { try tmux.send(key) }
        try tmux.send("q")
        let deadline = ContinuousClock.now + .seconds(60)
        while try tmux.exitStatus() == nil, ContinuousClock.now < deadline { usleep(10_000) }
        let text = (try? String(contentsOfFile: timingPath, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let event = object["event"] as? String, let ms = object["ms"] as? Double else { continue }
            if event == "first-frame" { firstFrame = ms } else if event == "key", object["key"] as? String != "q" { keyTimes.append(ms) }
        }
        for line in text.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], object["event"] as? String == "quit",
                  let resident = object["rssMiB"] as? Double, let peak = object["peakMiB"] as? Double else { continue }
            quitMemory = (resident, peak)
        }
    }
}
