import Foundation

/// The two remote services a ``SyncEngine`` talks to.
public enum RemoteService: Sendable, Hashable, CaseIterable {
    /// Where videos come from: the hub, or YouTube's feeds.
    case videoSource
    /// The mark-sync service that shares marks between devices.
    case markSyncService
}

/// How one remote service stands, as the engine judges it from request outcomes and health
/// probes. A cancelled request says nothing about the service and never changes its health.
/// The TUI's status line shows an offline service's ``Offline`` as it is.
public enum ServiceHealth: Sendable, Equatable {
    /// Nothing known yet.
    case unknown
    /// The last request or probe was answered.
    case online
    /// Requests fail to reach the service.
    case offline(Offline)

    /// A service that cannot be reached: since when, and whether it is being probed.
    public struct Offline: Sendable, Equatable {
        /// When the service was first found unreachable.
        public var since: Date
        /// Whether a health probe is asking the service right now.
        public var probing: Bool

        /// The service has been unreachable since `since`; `probing` when a health probe is
        /// asking it now.
        public init(since: Date, probing: Bool = false) {
            self.since = since
            self.probing = probing
        }
    }

    /// Since when the service has been unreachable, while it is.
    public var offlineSince: Date? {
        switch self {
        case .offline(let offline): offline.since
        case .unknown, .online: nil
        }
    }
}
