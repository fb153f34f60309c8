import Foundation
import MeTubeCore
import MeTubeTUI

/// The TUI's figures: start to first complete frame, and key press to redrawn screen.
///
/// In-process figures drive the screen model and renderer without a terminal; end-to-end figures
/// run the real `metube` binary (next to this one) in tmux on a generated store, read its
/// `--timing` lines (which include the curses copy to the terminal) and time the screen from outside.
func tuiFigures() async throws -> [Figure] {
    var figures: [Figure] = []
    for count in [10_000, 50_000] {
        figures.append(inProcessFirstFrame(videos: count))
    }
    figures += inProcessKeyFigures(videos: 50_000)
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
    let search = timed("deep dive tutorial".map { Key.character($0) } + Array(repeating: .backspace, count: 18) + "東京の夜".map { Key.character($0) })
    return [("move", moves), ("mark", marks), ("filter", filters), ("search", search)].map { name, samples in
        Figure(
            name: "tui.key.\(name).p99.model+render.\(videos / 1000)k", value: Measure.percentile(samples, 99), unit: "ms",
            goal: "<= 16 ms", detail: "\(samples.count) keys, no terminal, median \(String(format: "%.2f", Measure.median(samples))) ms"
        )
    }
}
