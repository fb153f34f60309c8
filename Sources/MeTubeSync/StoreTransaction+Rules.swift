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
        var marked = 0
        for video in videos where library.video(video.id) == nil && library.marks[video.id] == nil && seen.insert(video.id).inserted {
            guard let rule = rules.firstMatch(video, in: &context), rule.action == .skip else { continue }
            skip(video.id, byRule: rule.name)
            marked += 1
        }
        return marked
    }

    /// Stages a skipped mark of `videoID` made by the rule called `rule` (pending, like a mark of
    /// the user's, and saying which rule made it).
    public mutating func skip(_ videoID: String, byRule rule: String) {
        var made = mark(videoID, as: .skipped)
        made.rule = rule
        change.marks[change.marks.count - 1] = made
    }
}
