/// What the user decided about a video.
public enum WatchStatus: String, Codable, Sendable, CaseIterable {
    case unwatched
    case watched
    case skipped
}

/// Where a mark stands relative to the mark-sync service.
///
/// The store persists `synced`, `pending` and `conflict`; `offline` is how a pending mark is shown
/// while the mark-sync service cannot be reached (see ``SyncState/displayed(serviceReachable:)``).
public enum SyncState: String, Codable, Sendable, CaseIterable {
    case synced
    case pending
    case conflict
    case offline

    /// The state to show, given whether the mark-sync service is reachable right now.
    public func displayed(serviceReachable: Bool) -> SyncState {
        self == .pending && !serviceReachable ? .offline : self
    }

    /// The badge shown beside a mark: UTF-8 when the terminal can show it, ASCII otherwise.
    public func badge(unicode: Bool) -> String {
        switch self {
        case .synced: unicode ? "✓" : "="
        case .pending: unicode ? "↻" : "~"
        case .conflict: unicode ? "⚠" : "!"
        case .offline: unicode ? "✗" : "x"
        }
    }
}
