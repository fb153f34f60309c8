import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeSync

/// Turns the sync engine's events into what the TUI's status line shows, remembering what it
/// needs across events (when each service last answered, whether it is offline).
public struct SyncEventBridge: Sendable {
    /// Whether the engine's runs also sync marks with the mark-sync service.
    public let hasMarkSync: Bool
    private var lastSynced: Date?
    private var offlineSince: Date?
    private var lastMarkSynced: Date?
    private var markSyncOfflineSince: Date?
    /// The feed source's outage the last run reported, until it ends.
    private var outage: SourceOutage?

    /// A bridge for an engine; `lastSynced` and `lastMarkSynced` are the store's last
    /// successful video and mark syncs, `markSyncOfflineSince` when the mark-sync service was last
    /// found unreachable.
    public init(hasMarkSync: Bool, lastSynced: Date? = nil, lastMarkSynced: Date? = nil, markSyncOfflineSince: Date? = nil) {
        self.hasMarkSync = hasMarkSync
        self.lastSynced = lastSynced
        self.lastMarkSynced = lastMarkSynced
        self.markSyncOfflineSince = markSyncOfflineSince
    }

    /// The TUI events for one engine event that happened at `now`.
    public mutating func translate(_ event: SyncEvent, now: Date = Date()) -> [TUISyncEvent] {
        switch event {
        case .started:
            return [.service(.videoSource, .syncing(progress: "syncing"))]
        case .progress(_, let message):
            return [.service(.videoSource, .syncing(progress: message))]
        case .markSyncStarted:
            return [.service(.markSyncService, .syncing(progress: "syncing"))]
        case .health(.videoSource, let health):
            offlineSince = health.offlineSince
            if let outage, health.offlineSince != nil { return [.service(.videoSource, .outage(outage))] }
            return [.service(.videoSource, Self.state(health, lastSynced: lastSynced))]
        case .health(.markSyncService, let health):
            markSyncOfflineSince = health.offlineSince
            return [.service(.markSyncService, Self.state(health, lastSynced: lastMarkSynced))]
        case .finished(let report):
            var events: [TUISyncEvent] = [.storeChanged]
            if report.backfilledVideos > 0 { events.append(.backfilled(report.backfilledVideos)) }
            if report.includesVideos { events += videosFinished(report, now: now) }
            if hasMarkSync { events += markSyncFinished(report, now: now) }
            return events
        }
    }

    private static func state(_ health: ServiceHealth, lastSynced: Date?) -> ServiceState {
        switch health {
        case .offline(let offline): .offline(offline)
        case .unknown, .online: .idle(lastSynced: lastSynced)
        }
    }

    /// The video source's line after a run. Only a run the source answered counts as synced;
    /// failing channels are counted on the line and named in a message.
    private mutating func videosFinished(_ report: SyncReport, now: Date) -> [TUISyncEvent] {
        if let outage = report.sourceOutage {
            self.outage = outage
            let message = TUISyncEvent.message(outage.message(now: now), isError: true)
            return [.service(.videoSource, .outage(outage))] + (report.outageBegan ? [message] : [])
        }
        if let ended = report.outageEnded {
            outage = nil
            return videosFinished(report, after: ended, now: now)
        }
        let resting: ServiceState = offlineSince.map { .offline(.init(since: $0)) } ?? .idle(lastSynced: lastSynced)
        if let error = report.error {
            return [.service(.videoSource, resting), .message("\(report.source.displayName) sync failed: \(error)", isError: true)]
        }
        if report.sourceAnswered { lastSynced = now }
        guard !report.failedChannels.isEmpty, !report.cancelled else {
            return [.service(.videoSource, report.sourceAnswered ? .idle(lastSynced: now) : resting)]
        }
        let failing = report.failedChannels.count
        let channels = report.requests + report.backingOff
        let state: ServiceState = offlineSince.map { .offline(.init(since: $0)) } ?? .failing(failing: failing, channels: channels, lastSynced: lastSynced)
        let text = failing == channels
            ? "\(report.source.displayName) sync: all \(Formatting.count(channels, "channel")) failing"
            : "\(report.source.displayName) sync: \(Formatting.count(failing)) of \(Formatting.count(channels, "channel")) failing"
        return [.service(.videoSource, state), .message(text, isError: true)]
    }

    /// The video source's line after the run that followed the end of `outage`, and one
    /// message saying the feeds answer again.
    private mutating func videosFinished(_ report: SyncReport, after outage: SourceOutage, now: Date) -> [TUISyncEvent] {
        var withoutEnd = report
        withoutEnd.outageEnded = nil
        return videosFinished(withoutEnd, now: now) + [.message(outage.endMessage(now: now), isError: false)]
    }

    /// The mark-sync service's line after a run. While the service is offline, a failed run keeps
    /// it offline without a message: the status line already says so.
    private mutating func markSyncFinished(_ report: SyncReport, now: Date) -> [TUISyncEvent] {
        let resting: ServiceState = markSyncOfflineSince.map { .offline(.init(since: $0)) } ?? .idle(lastSynced: lastMarkSynced)
        if let error = report.markSyncError {
            if markSyncOfflineSince != nil { return [.service(.markSyncService, resting)] }
            return [.service(.markSyncService, resting), .message("status sync failed: \(error)", isError: true)]
        }
        guard report.markSync != nil else { return [.service(.markSyncService, resting)] }
        lastMarkSynced = now
        return [.service(.markSyncService, .idle(lastSynced: now)), .statusesKnown(true)]
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
