import MeTubeAPI
import MeTubeCore

extension MarkSync {
    /// Positions to save after a push of records that carried `positions`: each one the server
    /// took becomes synced; from each record the server answered with instead (a conflict), its
    /// position, which the store keeps only when newer than ours.
    static func positionsAfterPush(_ videoIDs: [String], _ positions: [String: PlaybackPosition], _ results: [MarkSyncRecordResult]) -> [PlaybackPosition] {
        afterPush(videoIDs, positions, results, server: MarkReconciler.position) { $0.syncState = .synced }
    }

    /// Queue entries to save after a push of records that carried `queue`, as for
    /// ``positionsAfterPush(_:_:_:)``.
    static func queueAfterPush(_ videoIDs: [String], _ queue: [String: QueueEntry], _ results: [MarkSyncRecordResult]) -> [QueueEntry] {
        afterPush(videoIDs, queue, results, server: { MarkReconciler.queueEntry(of: $0) }) { $0.syncState = .synced }
    }

    /// What a push of records that carried `sent` leaves of each value: the server took it
    /// (`markSynced`), or answered with its own record, whose value `server` reads.
    private static func afterPush<Value>(
        _ videoIDs: [String], _ sent: [String: Value], _ results: [MarkSyncRecordResult],
        server: (MarkSyncRecord) -> Value?, markSynced: (inout Value) -> Void
    ) -> [Value] {
        zip(videoIDs, results).compactMap { videoID, result in
            switch result {
            case .success:
                guard var value = sent[videoID] else { return nil }
                markSynced(&value)
                return value
            case .failure(let error):
                return error.serverRecord.flatMap(server)
            }
        }
    }

    /// Pushes positions and queue entries whose mark is not pending, in records that keep the
    /// mark's status and change tag. A conflict never makes a status conflict: the server's status
    /// is adopted and the fields are pushed again on it (counted as rebased).
    func pushRecordFields(positions pendingPositions: [PendingPosition], queue pendingQueue: [PendingQueueEntry]) async throws -> Report {
        var marks: [String: Mark] = [:]
        var oldest: [String: HybridTimestamp] = [:]
        for (videoID, mark, hlc) in pendingPositions.map({ ($0.position.videoID, $0.mark, $0.position.hlc) }) + pendingQueue.map({ ($0.entry.videoID, $0.mark, $0.entry.hlc) }) {
            marks[videoID] = mark
            oldest[videoID] = min(oldest[videoID] ?? hlc, hlc)
        }
        let videoIDs = oldest.keys.sorted { (oldest[$0]!, $0) < (oldest[$1]!, $1) }
        let positions = try store.playbackPositions(of: videoIDs)
        let queue = try store.queueEntries(of: videoIDs)
        var report = Report()
        for start in stride(from: 0, to: videoIDs.count, by: batchSize) {
            let batch = Array(videoIDs[start..<min(start + batchSize, videoIDs.count)])
            // A video without a mark goes as an unwatched record no one marked (clock reading 0),
            // which conflicts with no device's mark (see MarkReconciler).
            let batchMarks = batch.map { videoID in
                marks[videoID] ?? Mark(videoID: videoID, status: .unwatched, hlc: HybridTimestamp(millis: 0), deviceID: "", syncState: .synced)
            }
            report.add(try await pushRecordFields(batchMarks, positions: positions, queue: queue))
        }
        return report
    }

    /// Pushes one batch of records that carry `marks` unchanged with their positions and queue
    /// entries, and reconciles the answers.
    private func pushRecordFields(_ marks: [Mark], positions: [String: PlaybackPosition], queue: [String: QueueEntry]) async throws -> Report {
        let request = MarkSyncRecordsModifyRequest(
            operations: marks.map { MarkReconciler.operation(for: $0, position: positions[$0.videoID], queue: queue[$0.videoID]) },
            zoneID: zoneID, atomic: false)
        let response = try await modifyEnsuringZone(request)
        var outcome = Report()
        let videoIDs = marks.map(\.videoID)
        try store.reconcileMarks(videoIDs: videoIDs, syncToken: nil, observed: nil, pullFinished: false) { current in
            outcome = Report()
            var updated: [Mark] = []
            for (videoID, result) in zip(videoIDs, response.records) {
                switch result {
                case .success(let record):
                    guard let version = MarkReconciler.serverVersion(of: record) else { continue }
                    if let mark = reconciler.adoptingServer(local: current[videoID], server: version, videoID: videoID) { updated.append(mark) }
                    outcome.pushed += 1
                case .failure(let error) where error.serverErrorCode == .conflict || error.serverErrorCode == .exists:
                    guard let version = error.serverRecord.flatMap(MarkReconciler.serverVersion) else { continue }
                    if let mark = reconciler.adoptingServer(local: current[videoID], server: version, videoID: videoID) { updated.append(mark) }
                    outcome.rebased += 1
                case .failure:
                    outcome.deferred += 1
                }
            }
            return MarkSyncUpdate(marks: updated, positions: Self.positionsAfterPush(videoIDs, positions, response.records),
                                    queue: Self.queueAfterPush(videoIDs, queue, response.records))
        }
        return outcome
    }
}
