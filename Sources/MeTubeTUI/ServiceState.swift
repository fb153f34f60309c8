import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeSync

/// Where one background sync stands, as the status line shows it: the engine's
/// ``ServiceHealth`` while the service is offline, and what the runs report otherwise.
public enum ServiceState: Sendable, Equatable {
    /// No server is configured for this service.
    case notConfigured
    /// Idle; `lastSynced` is when the service last answered a run, when it has.
    case idle(lastSynced: Date?)
    /// A run is under way; `progress` says how far, e.g. "page 3, 1,200 new".
    case syncing(progress: String)
    /// The service cannot be reached: the engine's ``ServiceHealth/Offline``, or, before the
    /// engine has judged, the store's last record of it.
    case offline(ServiceHealth.Offline)
    /// The last run reached the source, but the feeds of `failing` of its `channels` channels
    /// failed; `lastSynced` is when the source last answered (nil when every feed failed and
    /// it never has).
    case failing(failing: Int, channels: Int, lastSynced: Date?)
    /// The feed source is failing for every channel (direct mode), and is probed until it
    /// answers again.
    case outage(SourceOutage)

    /// Whether marks can reach this service now (anything but offline).
    public var isReachable: Bool {
        switch self {
        case .offline: false
        default: true
        }
    }

    /// The status line's text for this state at `now`, e.g. "synced 2 min ago" or
    /// "3 of 216 channels failing, synced just now".
    public func text(now: Date, timeZone: TimeZone) -> String {
        switch self {
        case .notConfigured: "not configured"
        case .idle(let last?): "synced \(Formatting.ago(last, now: now))"
        case .idle(nil): "idle"
        case .syncing(let progress): progress.isEmpty ? "syncing" : progress
        case .offline(let offline): "offline since \(Formatting.clock(offline.since, timeZone: timeZone))" + (offline.probing ? ", checking" : "")
        case .failing(let failing, let channels, let last):
            "\(Formatting.count(failing)) of \(Formatting.count(channels, "channel")) failing" + (last.map { ", synced \(Formatting.ago($0, now: now))" } ?? "")
        case .outage(let outage): outage.state(now: now, timeZone: timeZone)
        }
    }
}

/// Something the sync side tells the TUI while it runs.
public enum TUISyncEvent: Sendable, Equatable {
    /// A service changed state.
    case service(RemoteService, ServiceState)
    /// The store changed (videos merged, marks pulled): the TUI reloads its view of it.
    case storeChanged
    /// This many of the videos that run brought were backfilled (a channel's older uploads,
    /// not new ones): taken back off the "N new" count the reload raised.
    case backfilled(Int)
    /// Whether every video's status is known (the first mark-sync pull finished), so a video without
    /// a mark shows as unwatched rather than unknown.
    case statusesKnown(Bool)
    /// A message for the user, e.g. a failure; `isError` shows it as an error.
    case message(String, isError: Bool)
}
