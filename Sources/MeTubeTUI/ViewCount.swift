/// How many videos a view shows, and how many of those are unseen (neither watched nor skipped),
/// for the view picker.
public struct ViewCount: Sendable, Equatable {
    /// Videos not yet watched or skipped.
    public var unseen = 0
    /// All the view's videos.
    public var total = 0
}
