import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeTransfer

extension MarkReconciler {
    /// The watch-later queue entry a record carries, range-checked, or `nil` when it says nothing
    /// of the queue or says it unreadably: a `queuedAt` that is not a whole number between 1970
    /// and 9999 (a string, a double, nanoseconds) leaves the local entry as it is. The entry is
    /// dated by `queueHlc` (metube's), else by `lastModified` when only `queuedAt` is there. A
    /// `queuedAt` later than that date (the year 9999, say) is taken as queued at that date, so a
    /// peer cannot pin a video behind every later addition. A `queueHlc` dated before 2005 or
    /// more than a day after `now` (in milliseconds) is not a date and counts as absent; a
    /// `queuedAt` before 2005 is unreadable, so no peer can date a video to 1970 and sort it first.
    public static func queueEntry(of record: MarkSyncRecord, now: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) -> QueueEntry? {
        guard let layout = WatchedRecord(record), PeerInput.isRecordName(layout.videoID) else { return nil }
        let sentQueuedAt = record.fields?["queuedAt"].flatMap { $0.value == .null ? nil : $0.value }
        if let sentQueuedAt, sentQueuedAt.integerValue.flatMap(QueueEntry.checked).flatMap({ $0 >= PeerInput.earliestQueueMillis ? $0 : nil }) == nil {
            return nil
        }
        let queueStamp = layout.queueHLC.flatMap(HybridTimestamp.init).flatMap { PeerInput.queueMillis($0.millis, now: now) == nil ? nil : $0 }
        let sentStamp = PeerInput.queueMillis(layout.lastModified, now: now).map { HybridTimestamp(millis: $0) }
        let stamp = queueStamp ?? (sentQueuedAt == nil ? nil : sentStamp)
        guard let stamp else { return nil }
        let deviceID = layout.deviceID.flatMap { $0.utf8.count <= PeerInput.maxNameBytes ? $0 : nil } ?? ""
        return QueueEntry(videoID: layout.videoID, queuedAt: layout.queuedAt.map { min($0, stamp.millis) }, hlc: stamp,
                          deviceID: deviceID, syncState: .synced)
    }
}
