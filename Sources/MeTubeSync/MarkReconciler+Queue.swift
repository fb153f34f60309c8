import MeTubeAPI
import MeTubeCore

extension MarkReconciler {
    /// The watch-later queue entry a record carries, range-checked, or `nil` when it says nothing
    /// of the queue or says it unreadably: a `queuedAt` that is not a whole number between 1970
    /// and 9999 (a string, a double, nanoseconds) leaves the local entry as it is. The entry is
    /// dated by `queueHlc` (metube's), else by `lastModified` when only `queuedAt` is there. A
    /// `queuedAt` later than that date (the year 9999, say) is taken as queued at that date, so a
    /// peer cannot pin a video behind every later addition.
    public static func queueEntry(of record: MarkSyncRecord) -> QueueEntry? {
        guard let layout = WatchedStatusRecord(record), PeerInput.isRecordName(layout.videoID) else { return nil }
        let sentQueuedAt = record.fields?["queuedAt"].flatMap { $0.value == .null ? nil : $0.value }
        if let sentQueuedAt, sentQueuedAt.integerValue.flatMap(QueueEntry.checked) == nil { return nil }
        let queueStamp = layout.queueHLC.flatMap(HybridTimestamp.init).flatMap { PeerInput.millis($0.millis) == nil ? nil : $0 }
        let stamp = queueStamp ?? (sentQueuedAt == nil ? nil : PeerInput.millis(layout.lastModified).map { HybridTimestamp(millis: $0) })
        guard let stamp else { return nil }
        let deviceID = layout.deviceID.flatMap { $0.utf8.count <= PeerInput.maxNameBytes ? $0 : nil } ?? ""
        return QueueEntry(videoID: layout.videoID, queuedAt: layout.queuedAt.map { min($0, stamp.millis) }, hlc: stamp,
                          deviceID: deviceID, syncState: .synced)
    }
}
