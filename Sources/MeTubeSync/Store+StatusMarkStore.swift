import Foundation
import MeTubeCore
import MeTubeStore

extension Store: StatusMarkStore {
    public func pendingMarks() throws -> [Mark] {
        try refresh()
        return library().marks.values.filter { $0.syncState == .pending }.sorted { $0.hlc < $1.hlc }
    }

    public func statusSyncToken() throws -> String? {
        try refresh()
        return syncSnapshot().statusSyncToken
    }

    public func reconcileStatus(
        videoIDs: [String], syncToken: String?, observed: HybridTimestamp?, pullFinished: Bool,
        _ reconcile: ([String: Mark]) -> StatusMarkUpdate
    ) throws {
        try transaction { transaction in
            var current: [String: Mark] = [:]
            for id in videoIDs { current[id] = transaction.library.marks[id] }
            let update = reconcile(current)
            transaction.change.marks = update.marks
            transaction.change.removedMarkIDs = update.removedVideoIDs
            if let syncToken { transaction.sync.statusSyncToken = syncToken }
            if let observed { transaction.observe(observed) }
            if pullFinished { transaction.sync.lastStatusSync = Date() }
        }
    }
}
