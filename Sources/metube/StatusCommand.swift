import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// `metube status`: the version, counts by status and sync state (pending marks count as offline while the
/// mark-sync service was last found unreachable), and when the syncs last ran.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show counts by status and sync state, and the last syncs.")

    @OptionGroup var store: StoreAccess

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let opened = try store.openStore()
        let library = opened.library()
        let sync = opened.syncSnapshot()
        let statusesKnown = try store.statusesKnown(opened)
        var statuses = Dictionary(uniqueKeysWithValues: DisplayStatus.allCases.map { ($0.rawValue, 0) })
        for video in library.videos {
            statuses[FeedQuery.status(of: library.marks[video.id], statusesKnown: statusesKnown).rawValue, default: 0] += 1
        }
        let inProgress = library.videos.count { video in
            FeedFilter.inProgress.admits(FeedQuery.status(of: library.marks[video.id], statusesKnown: true),
                                         hasProgress: FeedFilter.hasProgress(video.id, in: library))
        }
        let shownStates = [SyncState.synced, .pending, .conflict, .offline]
        var syncStates = Dictionary(uniqueKeysWithValues: shownStates.map { ($0.rawValue, 0) })
        let reachable = sync.markSyncOfflineSince == nil
        for mark in library.marks.values { syncStates[mark.syncState.displayed(serviceReachable: reachable).rawValue, default: 0] += 1 }
        let output = StatusOutput(
            version: MeTubeVersion.current, store: opened.directory.path, deviceId: sync.deviceID, readOnly: opened.readOnlyReason,
            channels: library.channels.count, videos: library.videos.count, marks: library.marks.count,
            statuses: statuses, syncStates: syncStates, lastHubSync: sync.lastHubSync, lastMarkSync: sync.lastMarkSync,
            markSyncOfflineSince: sync.markSyncOfflineSince, inProgress: inProgress
        )
        if json { return try printJSON(output) }
        print("metube     \(output.version)")
        print("store      \(output.store) (device \(DisplayText.line(output.deviceId, limit: 60)))")
        if let reason = output.readOnly { print("read-only  \(reason)") }
        print("library    \(output.channels) channels, \(output.videos) videos, \(output.marks) marks")
        print("statuses   " + DisplayStatus.allCases.map { "\($0.rawValue) \(statuses[$0.rawValue] ?? 0)" }.joined(separator: ", "))
        print("playback   \(inProgress) in progress")
        print("sync       " + shownStates.map { "\($0.rawValue) \(syncStates[$0.rawValue] ?? 0)" }.joined(separator: ", "))
        print("hub        " + (output.lastHubSync.map { "last synced \($0.formatted(date: .abbreviated, time: .shortened))" } ?? "never synced"))
        let offline = output.markSyncOfflineSince.map { "offline since \($0.formatted(date: .abbreviated, time: .shortened)); " } ?? ""
        print("status     " + offline + (output.lastMarkSync.map { "last synced \($0.formatted(date: .abbreviated, time: .shortened))" } ?? "never synced"))
    }
}

/// `metube status --json`.
struct StatusOutput: Encodable {
    var version: String
    var store: String
    var deviceId: String
    var readOnly: String?
    var channels: Int
    var videos: Int
    var marks: Int
    var statuses: [String: Int]
    var syncStates: [String: Int]
    var lastHubSync: Date?
    var lastMarkSync: Date?
    var markSyncOfflineSince: Date?
    /// Videos partly watched in mpv (a saved position, neither watched nor skipped).
    var inProgress: Int

    /// The keys of the JSON it is read from and written as: the mark-sync fields keep their older
    /// names (`status…`), which files and scripts already hold.
    enum CodingKeys: String, CodingKey {
        case version, store, deviceId, readOnly, channels, videos, marks, statuses, syncStates, lastHubSync, inProgress
        case lastMarkSync = "lastStatusSync", markSyncOfflineSince = "statusOfflineSince"
    }
}
