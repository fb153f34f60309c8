import MeTubeAPI
import MeTubeCore

extension StatusSync {
    /// Positions to save after a push of records that carried `positions`: each one the server
    /// took becomes synced; from each record the server answered with instead (a conflict), its
    /// position, which the store keeps only when newer than ours.
    static func positionsAfterPush(_ videoIDs: [String], _ positions: [String: PlaybackPosition], _ results: [StatusRecordResult]) -> [PlaybackPosition] {
        zip(videoIDs, results).compactMap { videoID, result in
            switch result {
            case .success:
                guard var position = positions[videoID] else { return nil }
                position.syncState = .synced
                return position
            case .failure(let error):
                return error.serverRecord.flatMap(StatusReconciler.position)
            }
        }
    }

    /// Pushes positions whose mark is not pending, in records that keep the mark's status and
    /// change tag. A conflict never makes a status conflict: the server's status is adopted and
    /// the position is pushed again on it (counted as rebased).
    func pushPositions(_ batch: [PendingPosition]) async throws -> Report {
        let marks = batch.map { item in
            item.mark ?? Mark(videoID: item.position.videoID, status: .unwatched, hlc: item.position.hlc, deviceID: item.position.deviceID, syncState: .synced)
        }
        let request = StatusRecordsModifyRequest(
            operations: zip(marks, batch).map { StatusReconciler.operation(for: $0, position: $1.position) }, zoneID: zoneID, atomic: false)
        let response = try await modifyEnsuringZone(request)
        var outcome = Report()
        let videoIDs = batch.map(\.position.videoID)
        let positions = Dictionary(batch.map { ($0.position.videoID, $0.position) }, uniquingKeysWith: { _, last in last })
        try store.reconcileStatus(videoIDs: videoIDs, syncToken: nil, observed: nil, pullFinished: false) { current in
            outcome = Report()
            var updated: [Mark] = []
            for (videoID, result) in zip(videoIDs, response.records) {
                switch result {
                case .success(let record):
                    guard let version = StatusReconciler.serverVersion(of: record) else { continue }
                    if let mark = reconciler.adoptingServer(local: current[videoID], server: version, videoID: videoID) { updated.append(mark) }
                    outcome.pushed += 1
                case .failure(let error) where error.serverErrorCode == .conflict || error.serverErrorCode == .exists:
                    guard let version = error.serverRecord.flatMap(StatusReconciler.serverVersion) else { continue }
                    if let mark = reconciler.adoptingServer(local: current[videoID], server: version, videoID: videoID) { updated.append(mark) }
                    outcome.rebased += 1
                case .failure:
                    outcome.deferred += 1
                }
            }
            return StatusMarkUpdate(marks: updated, positions: Self.positionsAfterPush(videoIDs, positions, response.records))
        }
        return outcome
    }
}
