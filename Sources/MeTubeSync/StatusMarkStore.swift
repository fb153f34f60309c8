import MeTubeCore

/// What status sync needs from the local store: the marks, the saved sync token, and one atomic
/// write of reconciled marks together with the token that goes with them.
public protocol StatusMarkStore: Sendable {
    /// Every mark waiting to be pushed (state `pending`), oldest first.
    func pendingMarks() throws -> [Mark]
    /// The current marks of `videoIDs`, by video id; videos without a mark are absent.
    func marks(for videoIDs: [String]) throws -> [String: Mark]
    /// The saved `changes/zone` sync token, `nil` before the first complete pull.
    func statusSyncToken() throws -> String?
    /// Saves `marks` and, when given, `syncToken` in one durable step, and lets the clock
    /// observe `observed` so later local marks order after what was pulled.
    func applyStatus(marks: [Mark], syncToken: String?, observed: HybridTimestamp?) throws
}
