import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeTUI

/// The TUI's view figures: a key that switches views to the redrawn screen, and `A` and `U` on a
/// 50,000-video view from the key to the marks on disk and back on screen.
private let benchSize = TerminalSize(width: 120, height: 40)

/// The built-in views and four saved ones like a user's: a channel, long unwatched videos, a
/// title pattern, the last month's unwatched.
private func viewsConfig(_ library: Library) throws -> TUIConfig {
    let channelName = library.channels.values.sorted { $0.id < $1.id }[3].displayName
    var config = TUIConfig()
    config.views = SavedView.builtIn + [
        SavedView(name: "channel", query: try VideoQuery(parsing: "channel:\"\(channelName)\"")),
        SavedView(name: "long", query: try VideoQuery(parsing: "unwatched and duration>20m")),
        SavedView(name: "reviews", query: try VideoQuery(parsing: "title~\"\\\\breview\\\\b\" and !short")),
        SavedView(name: "month", query: try VideoQuery(parsing: "age<30d and unwatched")),
    ]
    return config
}

/// Keys `1`–`9` pressed in turn 50 times over: each handled and the screen drawn.
func viewSwitchFigures(_ library: Library) throws -> [Figure] {
    var model = ScreenModel(library: library, size: benchSize, config: try viewsConfig(library), statusesKnown: true)
    let keys = (0..<50).flatMap { _ in (1...9).map { Key.character(Character(String($0))) } }
    let samples = keys.map { key in
        Measure.millis {
            _ = model.handle(key)
            _ = ScreenRenderer.render(model)
        }
    }
    let detail = "\(samples.count) switches over 5 built-in and 4 saved views (channel name, duration, title~, age), key handled and screen drawn in process, no terminal"
    return [
        Figure(name: "views.switch.key-to-screen.p99.200k", value: Measure.percentile(samples, 99), unit: "ms", goal: "<= 16 ms", detail: detail),
        Figure(name: "views.switch.key-to-screen.median.200k", value: Measure.median(samples), unit: "ms", goal: "report", detail: detail),
    ]
}

/// `A` then `y` on a saved view of a quarter of the channels (about 50,000 videos), and `U`:
/// each from the key to the batch written to the store and the model given the store's library.
func markAllAndUndoFigures(_ store: Store) throws -> [Figure] {
    let library = store.library()
    let quarter = library.channels.keys.sorted().prefix(54).map { "channel:\($0)" }.joined(separator: " or ")
    var config = try viewsConfig(library)
    config.views.append(SavedView(name: "quarter", query: try VideoQuery(parsing: quarter)))
    var model = ScreenModel(library: library, size: benchSize, config: config, statusesKnown: true)
    _ = model.perform(.views)
    _ = model.perform(.moveLast)
    _ = model.perform(.open)
    var scanned = model
    while scanned.continueViewScan() {}
    let viewSize = scanned.rows.count
    var written = 0
    func run(_ keys: [Key]) throws -> Double {
        try Measure.millis {
            for key in keys {
                for case .markBatch(let batch) in model.handle(key) { written = try store.mark(batch) }
            }
            _ = model.apply(.libraryChanged(store.library()))
            _ = ScreenRenderer.render(model)
        }
    }
    let markMillis = try run([.character("A"), .character("y")])
    let marked = written
    let undoMillis = try run([.character("U")])
    return [
        Figure(name: "views.mark-all.A.50k-view.200k", value: markMillis, unit: "ms", goal: "<= 1000 ms",
               detail: "A, y on a \(viewSize)-video view: \(marked) marks (those not yet skipped) written as one journal line and fsync'd, the screen redrawn"),
        Figure(name: "views.mark-all.U.50k-view.200k", value: undoMillis, unit: "ms", goal: "<= 1000 ms",
               detail: "U of it: \(written) videos given back their previous status in one journal line, the screen redrawn"),
    ]
}
