import Foundation
import MeTubeCore
import MeTubeStore

extension StoreTransaction {
    /// Stages the marks `rules` make for the videos a sync brings in: each video new to the
    /// library and without a mark, whose first matching rule is a `skip` rule, is marked skipped
    /// (pending, so it syncs like the user's own marks) with that rule's name. Videos already
    /// known or marked are never touched, so a rule runs at most once on a video and never
    /// overrides the user.
    /// - Returns: how many videos were marked.
    @discardableResult
    public mutating func applySkipRules(_ rules: FeedRules, toArriving videos: [Video], now: Date = Date()) -> Int {
        guard rules.rules.contains(where: { $0.action == .skip }) else { return 0 }
        var context = QueryContext(library: library, statusesKnown: true, now: now)
        var seen = Set<String>()
        var skips: [(videoID: String, rule: String)] = []
        for video in videos where library.video(video.id) == nil && library.marks[video.id] == nil && seen.insert(video.id).inserted {
            guard let rule = rules.firstMatch(video, in: &context), rule.action == .skip else { continue }
            skips.append((video.id, rule.name))
        }
        skip(skips)
        return skips.count
    }

    /// Stages skipped marks made by rules: each video with the name of the rule that skips it
    /// (pending, like the user's marks, and saying which rule made them), in linear time.
    public mutating func skip(_ skips: [(videoID: String, rule: String)]) {
        let first = change.marks.count
        mark(skips.map(\.videoID), as: .skipped)
        for (offset, skip) in skips.enumerated() { change.marks[first + offset].rule = skip.rule }
    }
}
