import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import TestSupport

/// Figures of views and rules at 200,000 videos: 50 rules run on a sync's 10,000 new videos, a
/// saved view's rows, switching views in the TUI, and `A` and `U` on a 50,000-video view.
func viewsFigures() async throws -> [Figure] {
    var figures: [Figure] = []
    let directory = try makeBenchStore(videos: 200_000)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try Store.open(at: directory)
    let library = store.library()
    let rules = FeedRules(try fiftyRules(channels: Array(library.channels.keys.sorted().prefix(20))))

    // A sync's 10,000 new videos: the same shapes as the library's, new ids (new in each
    // sample, so the rules see them as new), published now. An id's last character is its
    // number's highest digit, so changing it (not the first) gives ids no 200k library holds.
    let shapes = SyntheticLibrary(channelCount: 216, videoCount: 10_000, markCount: 0, seed: 99, newest: Date()).videos()
    var skipped = 0
    let ruleSamples = try ["n", "p", "q", "r", "s"].map { prefix in
        let arrivals = shapes.map { video in
            var fresh = video
            fresh.id = String(video.id.dropLast()) + prefix
            return fresh
        }
        return try Measure.millis { skipped = try store.transaction { $0.applySkipRules(rules, toArriving: arrivals) } }
    }
    figures.append(Figure(name: "views.rules.50-rules-on-10k-new.200k", value: Measure.median(ruleSamples), unit: "ms", goal: "<= 100 ms",
                          detail: "median of 5, 50 rules (tag, channel, title~, duration, age, short) on 10,000 new videos in one store transaction, their skipped marks written; \(skipped) skipped (\(skipped * 100 / shapes.count)%)"))

    var context = QueryContext(library: library, statusesKnown: true)
    var viewQuery = FeedQuery(filter: .all)
    viewQuery.query = try VideoQuery(parsing: "unwatched and (tag:music or duration>20m) and !short and not title~\"trailer|teaser\"")
    let viewSamples = (0..<5).map { _ in Measure.millis { _ = viewQuery.rows(in: &context) } }
    figures.append(Figure(name: "views.saved-view-all-rows.200k", value: Measure.median(viewSamples), unit: "ms", goal: "report",
                          detail: "median of 5, every row of a saved view with a title~ term (what list --view computes)"))

    figures += try viewSwitchFigures(library)
    figures += try markAllAndUndoFigures(store)
    return figures
}

/// 50 rules shaped like a user's: channel and tag rules, title patterns, lengths and ages.
private func fiftyRules(channels: [String]) throws -> [FeedRule] {
    var texts: [String] = []
    for channel in channels.prefix(10) { texts.append("channel:\(channel)") }
    for index in 0..<10 { texts.append("tag:topic\(index) and duration<2m") }
    for word in ["trailer", "teaser", "live stream", "premiere", "unboxing", "reaction", "#shorts", "podcast ep", "sponsored", "giveaway"] {
        texts.append("title~\"\\\\b\(word)\\\\b\"")
    }
    for minutes in stride(from: 60, through: 240, by: 20) { texts.append("duration>\(minutes)m and age>30d") }
    for channel in channels.dropFirst(10).prefix(10) { texts.append("channel:\(channel) and title~\"(?-i)LIVE\"") }
    return try texts.enumerated().map { index, text in
        FeedRule(name: "rule \(index + 1)", query: try VideoQuery(parsing: text), action: index % 5 == 4 ? .hide : .skip)
    }
}
