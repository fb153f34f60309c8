import Foundation

/// What a sync reports while it runs and when it ends, in order, through `SyncEngine.events`.
public enum SyncEvent: Sendable, Equatable {
    /// A run began.
    case started(SyncSource)
    /// A step finished: e.g. "registered 216 channels" or "page 3: 100 videos".
    case progress(SyncSource, String)
    /// A run ended.
    case finished(SyncReport)
    /// The mark-sync part of a run began.
    case markSyncStarted
    /// The health of a service changed.
    case health(RemoteService, ServiceHealth)
}
