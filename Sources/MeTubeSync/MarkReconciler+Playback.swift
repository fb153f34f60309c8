import MeTubeAPI
import MeTubeCore
import MeTubeTransfer

extension MarkReconciler {
    /// The playback position a record carries, range-checked: finite seconds in range, dated by
    /// the later of its `positionHlc` (metube's) and `lastModified` (all the iOS layout writes, and
    /// an iOS save after metube's leaves metube's `positionHlc` behind); `nil` when it has none or
    /// a value is out of range.
    public static func position(of record: MarkSyncRecord) -> PlaybackPosition? {
        guard let layout = WatchedRecord(record), let seconds = layout.playbackPosition.flatMap(PlaybackPosition.checked),
              PeerInput.isRecordName(layout.videoID) else { return nil }
        let stamps = [layout.positionHLC.flatMap(HybridTimestamp.init).flatMap { PeerInput.millis($0.millis) == nil ? nil : $0 },
                      PeerInput.millis(layout.lastModified).map { HybridTimestamp(millis: $0) }]
        guard let stamp = stamps.compactMap({ $0 }).max() else { return nil }
        let deviceID = layout.deviceID.flatMap { $0.utf8.count <= PeerInput.maxNameBytes ? $0 : nil } ?? ""
        return PlaybackPosition(videoID: layout.videoID, seconds: seconds, hlc: stamp, deviceID: deviceID, syncState: .synced)
    }

    /// After a position-only push answered with a conflict: the server's status is taken as it is
    /// (a position never makes a status conflict), and the position is pushed again on its base.
    public func adoptingServer(local: Mark?, server: ServerVersion, videoID: String) -> Mark? {
        if let local, local.syncState != .synced { return nil }
        return Mark(videoID: videoID, status: server.status, hlc: server.hlc ?? local?.hlc ?? HybridTimestamp(millis: 0),
                    deviceID: server.deviceID ?? local?.deviceID ?? "", syncState: .synced, base: server)
    }
}
