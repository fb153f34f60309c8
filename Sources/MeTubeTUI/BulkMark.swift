import MeTubeCore

/// A mark of every video of a view (`A`, `W`), waiting for the user's `y`.
public struct BulkMark: Sendable, Equatable {
    /// The status every video gets.
    public var status: WatchStatus
    /// The videos that change, as indices into `library.videos` (those already so marked are left out).
    public var indices: [Int]
    /// The view's name, for the question and the undo step.
    public var viewName: String
}
