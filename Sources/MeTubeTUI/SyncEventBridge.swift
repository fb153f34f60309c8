import Foundation
import MeTubeSync

/// Turns the sync engine's events into what the TUI's status line shows, remembering what it
/// needs across events (when the last runs succeeded, whether the services are offline).
public struct SyncEventBridge: Sendable {
    /// Whether the engine's runs also sync marks with the status service.
    public let hasStatusSync: Bool
    private var lastSynced: Date?
    private var offlineSince: Date?
    private var lastStatusSynced: Date?
    private var statusOfflineSince: Date?

    /// A bridge for an engine; `lastSynced` and `lastStatusSynced` are the store's last
    /// successful video and status syncs, `statusOfflineSince` when the status service was last
    /// found unreachable.
    public init(hasStatusSync: Bool, lastSynced: Date? = nil, lastStatusSynced: Date? = nil, statusOfflineSince: Date? = nil) {
        self.hasStatusSync = hasStatusSync
        self.lastSynced = lastSynced
        self.lastStatusSynced = lastStatusSynced
        self.statusOfflineSince = statusOfflineSince
    }

    /// The TUI events for one engine event that happened at `now`.
    public mutating func translate(_ event: SyncEvent, now: Date = Date()) -> [TUISyncEvent] {
        switch event {
        case .started:
            return [.service(.hub, .syncing(progress: "syncing"))]
        case .progress(_, let message):
            return [.service(.hub, .syncing(progress: message))]
        case .connectivity(.offline(let since)):
            offlineSince = since
            return [.service(.hub, .offline(since: since))]
        case .connectivity:
            offlineSince = nil
            return [.service(.hub, .idle(lastSynced: lastSynced))]
        case .statusStarted:
            return [.service(.status, .syncing(progress: "syncing"))]
        case .statusConnectivity(.offline(let since)):
            statusOfflineSince = since
            return [.service(.status, .offline(since: since))]
        case .statusConnectivity:
            statusOfflineSince = nil
            return [.service(.status, .idle(lastSynced: lastStatusSynced))]
        case .finished(let report):
            return finished(report, now: now)
        }
    }

    private mutating func finished(_ report: SyncReport, now: Date) -> [TUISyncEvent] {
        var events: [TUISyncEvent] = [.storeChanged]
        if report.includesVideos { events += videosFinished(report, now: now) }
        if hasStatusSync { events += statusFinished(report, now: now) }
        return events
    }

    private mutating func videosFinished(_ report: SyncReport, now: Date) -> [TUISyncEvent] {
        if let error = report.error {
            return [.service(.hub, offlineSince.map { .offline(since: $0) } ?? .idle(lastSynced: lastSynced)), .message("sync failed: \(error)", isError: true)]
        }
        lastSynced = now
        var events: [TUISyncEvent] = [.service(.hub, .idle(lastSynced: now))]
        if !report.failedChannels.isEmpty {
            events.append(.message("sync: \(report.failedChannels.count) channel(s) failed", isError: true))
        }
        return events
    }

    /// While the service is offline, a failed run keeps it offline without a message: the status
    /// line already says so.
    private mutating func statusFinished(_ report: SyncReport, now: Date) -> [TUISyncEvent] {
        if let error = report.statusError {
            if let since = statusOfflineSince { return [.service(.status, .offline(since: since))] }
            return [.service(.status, .idle(lastSynced: lastStatusSynced)), .message("status sync failed: \(error)", isError: true)]
        }
        guard report.status != nil else { return [] }
        lastStatusSynced = now
        return [.service(.status, .idle(lastSynced: now)), .statusesKnown(true)]
    }

    /// The TUI events of `engine`, translated by a bridge like this one.
    public func stream(of engine: SyncEngine) -> AsyncStream<TUISyncEvent> {
        let initial = self
        return AsyncStream { continuation in
            let task = Task {
                var bridge = initial
                for await event in engine.events {
                    for translated in bridge.translate(event) { continuation.yield(translated) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
