import Foundation
import MeTubeCore
import MeTubeStore

extension Store: MarkSyncStore {
    public func pendingMarks() throws -> [Mark] {
        try refresh()
        return library().marks.values.filter { $0.syncState == .pending }.sorted { $0.hlc < $1.hlc }
    }

    public func pendingPositions() throws -> [PendingPosition] {
        try refresh()
        let library = library()
        return Self.awaitingPush(library.playbackPositions.values, in: library, \.videoID, \.syncState, \.hlc)
            .map { PendingPosition(position: $0, mark: library.marks[$0.videoID]) }
    }

    public func playbackPositions(of videoIDs: [String]) throws -> [String: PlaybackPosition] {
        let positions = library().playbackPositions
        var found: [String: PlaybackPosition] = [:]
        for id in videoIDs { found[id] = positions[id] }
        return found
    }

    public func pendingQueueEntries() throws -> [PendingQueueEntry] {
        try refresh()
        let library = library()
        return Self.awaitingPush(library.queue.values, in: library, \.videoID, \.syncState, \.hlc)
            .map { PendingQueueEntry(entry: $0, mark: library.marks[$0.videoID]) }
    }

    /// The values not yet synced whose video has no mark or a synced one, oldest first: a pending
    /// mark's push carries its video's fields, and one in conflict waits until it is settled.
    private static func awaitingPush<Value>(
        _ values: some Sequence<Value>, in library: Library, _ videoID: KeyPath<Value, String>, _ syncState: KeyPath<Value, SyncState>,
        _ hlc: KeyPath<Value, HybridTimestamp>
    ) -> [Value] {
        values.filter { value in
            value[keyPath: syncState] != .synced && (library.marks[value[keyPath: videoID]].map { $0.syncState == .synced } ?? true)
        }.sorted { $0[keyPath: hlc] < $1[keyPath: hlc] }
    }

    public func queueEntries(of videoIDs: [String]) throws -> [String: QueueEntry] {
        let queue = library().queue
        var found: [String: QueueEntry] = [:]
        for id in videoIDs { found[id] = queue[id] }
        return found
    }

    public func markSyncToken() throws -> String? {
        try refresh()
        return syncSnapshot().markSyncToken
    }

    public func reconcileMarks(
        videoIDs: [String], syncToken: String?, observed: HybridTimestamp?, pullFinished: Bool,
        _ reconcile: ([String: Mark]) -> MarkSyncUpdate
    ) throws {
        try transaction { transaction in
            var current: [String: Mark] = [:]
            for id in videoIDs { current[id] = transaction.library.marks[id] }
            let update = reconcile(current)
            transaction.change.marks = update.marks
            transaction.change.removedMarkIDs = update.removedVideoIDs
            transaction.change.positions = update.positions
            transaction.change.queue = update.queue
            if let syncToken { transaction.sync.markSyncToken = syncToken }
            if let observed { transaction.observe(observed) }
            if pullFinished { transaction.sync.lastMarkSync = Date() }
        }
    }
}
