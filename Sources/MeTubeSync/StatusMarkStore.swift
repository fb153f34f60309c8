import MeTubeCore

/// What status sync needs from the local store: the pending marks, the saved sync token, and an
/// atomic read-modify-write of marks together with the token that goes with them.
public protocol StatusMarkStore: Sendable {
    /// Every mark waiting to be pushed (state `pending`), oldest first, other processes' marks
    /// included.
    func pendingMarks() throws -> [Mark]
    /// The saved `changes/zone` sync token, `nil` before the first complete pull.
    func statusSyncToken() throws -> String?
    /// Under the store's lock: hands `reconcile` the current marks of `videoIDs` (videos without
    /// a mark are absent), then saves the marks it returns and forgets those it removes,
    /// `syncToken` when given, and the clock reading `observed`, in one durable step.
    /// `pullFinished` records the time of the last complete status sync.
    func reconcileStatus(
        videoIDs: [String], syncToken: String?, observed: HybridTimestamp?, pullFinished: Bool,
        _ reconcile: ([String: Mark]) -> StatusMarkUpdate
    ) throws
}

/// What one status reconciliation changes in the store.
public struct StatusMarkUpdate: Sendable {
    /// Marks to save.
    public var marks: [Mark]
    /// Videos whose mark is forgotten: the server deleted a record this device had as synced.
    public var removedVideoIDs: [String]

    /// Creates an update.
    public init(marks: [Mark], removedVideoIDs: [String] = []) {
        self.marks = marks
        self.removedVideoIDs = removedVideoIDs
    }
}
