import Foundation
import MeTubeSync

/// Turns the sync engine's events into what the TUI's status line shows, remembering what it
/// needs across events (when the last run succeeded, whether the source is offline).
public struct SyncEventBridge: Sendable {
    /// Whether the engine's runs also sync marks with the status service.
    public let hasStatusSync: Bool
    private var lastSynced: Date?
    private var offlineSince: Date?

    /// A bridge for an engine; `lastSynced` is the store's last successful video sync.
    public init(hasStatusSync: Bool, lastSynced: Date? = nil) {
        self.hasStatusSync = hasStatusSync
        self.lastSynced = lastSynced
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
        case .finished(let report):
            return finished(report, now: now)
        }
    }

    private mutating func finished(_ report: SyncReport, now: Date) -> [TUISyncEvent] {
        var events: [TUISyncEvent] = [.storeChanged]
        if let error = report.error {
            events.append(.service(.hub, offlineSince.map { .offline(since: $0) } ?? .idle(lastSynced: lastSynced)))
            events.append(.message("sync failed: \(error)", isError: true))
        } else {
            lastSynced = now
            events.append(.service(.hub, .idle(lastSynced: now)))
            if !report.failedChannels.isEmpty {
                events.append(.message("sync: \(report.failedChannels.count) channel(s) failed", isError: true))
            }
        }
        guard hasStatusSync else { return events }
        if let error = report.statusError {
            events.append(.message("status sync failed: \(error)", isError: true))
        } else if report.status != nil {
            events += [.service(.status, .idle(lastSynced: now)), .statusesKnown(true)]
        }
        return events
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
