import Foundation

/// The two remote services a ``SyncEngine`` talks to.
public enum RemoteService: Sendable, Hashable, CaseIterable {
    /// Where videos come from: the hub, or YouTube's feeds.
    case videoSource
    /// The status service that shares marks between devices.
    case statusService
}

/// How one remote service stands, as the engine judges it from request outcomes and health
/// probes. A cancelled request says nothing about the service and never changes its health.
public enum ServiceHealth: Sendable, Equatable {
    /// Nothing known yet.
    case unknown
    /// The last request or probe was answered.
    case online
    /// Requests fail to reach the service, since the given time.
    case offline(since: Date)
    /// Offline since the given time, and a health probe is asking the service right now.
    case probing(offlineSince: Date)

    /// Since when the service has been unreachable, while it is.
    public var offlineSince: Date? {
        switch self {
        case .offline(let since), .probing(let since): since
        case .unknown, .online: nil
        }
    }
}
