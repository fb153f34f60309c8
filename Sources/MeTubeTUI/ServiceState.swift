import Foundation

/// The two background syncs the status line reports on.
public enum SyncService: String, CaseIterable, Sendable {
    /// The hub that aggregates channel uploads.
    case hub
    /// The status service that shares marks between devices.
    case status
}

/// Where one background sync stands, as the status line shows it.
public enum ServiceState: Sendable, Equatable {
    /// No server is configured for this service.
    case notConfigured
    /// Idle; `lastSynced` is when the last run finished, when there was one.
    case idle(lastSynced: Date?)
    /// A run is under way; `progress` says how far, e.g. "page 3, 1,200 new".
    case syncing(progress: String)
    /// The service cannot be reached, since `since`.
    case offline(since: Date)

    /// Whether marks can reach this service now (anything but offline).
    public var isReachable: Bool {
        if case .offline = self { return false }
        return true
    }
}

/// Something the sync side tells the TUI while it runs.
public enum TUISyncEvent: Sendable, Equatable {
    /// A service changed state.
    case service(SyncService, ServiceState)
    /// The store changed (videos merged, marks pulled): the TUI reloads its view of it.
    case storeChanged
    /// Whether every video's status is known (the first status pull finished), so a video without
    /// a mark shows as unwatched rather than unknown.
    case statusesKnown(Bool)
    /// A message for the user, e.g. a failure; `isError` shows it as an error.
    case message(String, isError: Bool)
}
