import Synchronization

/// Decides when a user's "last seen" time is worth writing: at most once a minute per user, so
/// authenticated requests cost no extra write in the common case.
final class MarkSyncLastSeenRecorder: Sendable {
    /// The least time between two writes for one user, in milliseconds.
    static let intervalMillis: Int64 = 60_000
    private let recorded = Mutex<[Int64: Int64]>([:])

    /// Whether the request of `userID` at `millis` should be written, noting it when so.
    func shouldRecord(_ userID: Int64, atMillis millis: Int64) -> Bool {
        recorded.withLock { recorded in
            if let last = recorded[userID], millis - last < Self.intervalMillis, millis >= last { return false }
            recorded[userID] = millis
            return true
        }
    }
}
