import Foundation

/// What each rule would do to a library, for `metube rules test`: how many videos it matches,
/// how many of those it decides (no earlier rule matched them), which earlier rules took the rest,
/// and how many of its decided videos already carry a mark (which a rule never changes).
public struct RuleDryRun: Sendable, Equatable {
    /// One rule's outcome.
    public struct Outcome: Sendable, Equatable {
        /// The rule.
        public var rule: FeedRule
        /// Videos its query matches.
        public var matched = 0
        /// Of those, videos an earlier rule decides, by that rule's index.
        public var takenByEarlier: [Int: Int] = [:]
        /// Of those it decides, videos already marked (left alone by `skip`).
        public var alreadyMarked = 0
        /// Up to ``exampleLimit`` of the videos it decides, newest first.
        public var examples: [Video] = []

        /// Videos this rule decides: matched, and no earlier rule matched them.
        public var decided: Int { matched - takenByEarlier.values.reduce(0, +) }
    }

    /// How many example videos each outcome holds.
    public static let exampleLimit = 3

    /// The outcomes, one per rule, in the rules' order.
    public var outcomes: [Outcome]
    /// Title regex evaluations stopped by their limit.
    public var stoppedRegexes: Int

    /// Runs `rules` over every video of `library`.
    public init(_ rules: FeedRules, over library: Library, now: Date = Date()) {
        var outcomes = rules.rules.map { Outcome(rule: $0) }
        var context = QueryContext(library: library, statusesKnown: true, now: now)
        for video in library.videos {
            var decider: Int?
            for (index, rule) in rules.rules.enumerated() where rule.query.matches(video, in: &context) {
                outcomes[index].matched += 1
                if let decider {
                    outcomes[index].takenByEarlier[decider, default: 0] += 1
                    continue
                }
                decider = index
                if library.marks[video.id] != nil { outcomes[index].alreadyMarked += 1 }
                if outcomes[index].examples.count < Self.exampleLimit { outcomes[index].examples.append(video) }
            }
        }
        self.outcomes = outcomes
        stoppedRegexes = context.stoppedRegexes
    }

    /// The videos `rules` would skip in `library` now: unmarked ones whose first matching rule is
    /// a `skip` rule, with that rule's name (what `metube rules apply --all` marks).
    public static func skips(_ rules: FeedRules, in library: Library, now: Date = Date()) -> [(videoID: String, rule: String)] {
        var context = QueryContext(library: library, statusesKnown: true, now: now)
        return library.videos.compactMap { video in
            guard library.marks[video.id] == nil, let rule = rules.firstMatch(video, in: &context), rule.action == .skip else { return nil }
            return (video.id, rule.name)
        }
    }
}
