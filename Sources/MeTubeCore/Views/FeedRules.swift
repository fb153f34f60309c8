/// The `[[rules]]` of the config file, in the order written; the first rule that matches a video
/// decides for it.
public struct FeedRules: Sendable, Equatable {
    /// The rules, in order.
    public var rules: [FeedRule]

    /// The most rules a config file may hold.
    public static let maximumCount = 5_000

    /// Creates a rule list.
    public init(_ rules: [FeedRule] = []) {
        self.rules = rules
    }

    /// Whether any rule hides videos (views skip the work when none does).
    public var hidesAny: Bool { rules.contains { $0.action == .hide } }

    /// The first rule that matches `video`, if any.
    public func firstMatch(_ video: Video, in context: inout QueryContext) -> FeedRule? {
        rules.first { $0.query.matches(video, in: &context) }
    }

    /// Whether a `hide` rule decides for `video` (it matches, and no earlier rule does).
    public func hides(_ video: Video, in context: inout QueryContext) -> Bool {
        hidesAny && firstMatch(video, in: &context)?.action == .hide
    }
}
