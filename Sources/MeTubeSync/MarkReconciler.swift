import MeTubeAPI
import MeTubeCore
import MeTubeTransfer

/// The conflict rules of mark sync, as pure functions over marks: what a push result or a
/// pulled record does to this device's mark (DESIGN.md "Marks and sync states").
public struct MarkReconciler: Sendable {
    /// How a conflict with a different value is settled.
    public var policy: ConflictPolicy

    /// Creates a reconciler applying `policy`.
    public init(policy: ConflictPolicy = .ask) {
        self.policy = policy
    }

    /// The server version a record dictionary describes, or `nil` when it is not a readable
    /// watched-status record (or its change tag is empty or too long to keep).
    ///
    /// Another client wrote the record, so its clock fields are range-checked (``PeerInput``): an
    /// `hlc` or `lastModified` outside 1970…9999 (nanoseconds, say) is ignored, and a version with
    /// neither carries no clock reading; an oversized device id is left out.
    public static func serverVersion(of record: MarkSyncRecord) -> ServerVersion? {
        guard let tag = record.recordChangeTag, (1...PeerInput.maxNameBytes).contains(tag.utf8.count),
              let layout = WatchedRecord(record), let status = WatchStatus(rawValue: layout.status) else { return nil }
        let hlc = layout.hlc.flatMap(HybridTimestamp.init).flatMap { PeerInput.millis($0.millis) == nil ? nil : $0 }
            ?? PeerInput.millis(layout.lastModified).map { HybridTimestamp(millis: $0) }
        let deviceID = layout.deviceID.flatMap { $0.utf8.count <= PeerInput.maxNameBytes ? $0 : nil }
        return ServerVersion(changeTag: tag, status: status, hlc: hlc, deviceID: deviceID)
    }

    /// The `records/modify` operation that pushes `mark`: an `update` carrying the change tag
    /// of the version it replaces, or a `create` when it replaces none. The video's playback
    /// position and queue entry travel in the same record.
    public static func operation(for mark: Mark, position: PlaybackPosition? = nil, queue: QueueEntry? = nil) -> MarkSyncRecordsModifyRequest.Operation {
        var record = WatchedRecord(
            videoID: mark.videoID, status: mark.status.rawValue, lastModified: mark.hlc.millis, playbackPosition: position?.seconds,
            hlc: mark.hlc.description, deviceID: mark.deviceID)
        record.positionHLC = position?.hlc.description
        record.queuedAt = queue?.queuedAt
        record.queueHLC = queue?.hlc.description
        guard let tag = (mark.theirs ?? mark.base)?.changeTag else { return .init(.create, record: record.record()) }
        return .init(.update, record: record.record(changeTag: tag))
    }

    /// The mark after the server answered the push of `pushed`; `current` is the mark as it is
    /// now (re-marked meanwhile when its clock reading differs). `nil` when the answer changes
    /// nothing (a retryable or unexpected failure: the mark stays pending).
    public func afterPush(pushed: Mark, current: Mark, result: MarkSyncRecordResult) -> Mark? {
        let isUnchanged = current.hlc == pushed.hlc && current.deviceID == pushed.deviceID
        switch result {
        case .success(let record):
            guard let version = Self.serverVersion(of: record) else { return nil }
            var mark = current
            mark.base = version
            mark.theirs = nil
            if isUnchanged { mark.syncState = .synced }
            return mark
        case .failure(let error) where error.serverErrorCode == .conflict || error.serverErrorCode == .exists:
            guard let server = error.serverRecord.flatMap(Self.serverVersion) else { return nil }
            return isUnchanged ? settle(current, against: server) : rebase(current, on: server)
        case .failure:
            return nil
        }
    }

    /// The mark after pulling `server` for `videoID`, given the local mark; `nil` when the local
    /// mark stays as it is. A pending local mark is never silently overwritten.
    public func afterPull(local: Mark?, server: ServerVersion, videoID: String) -> Mark? {
        guard let local else {
            return Mark(videoID: videoID, status: server.status, hlc: server.hlc ?? HybridTimestamp(millis: 0),
                        deviceID: server.deviceID ?? "", syncState: .synced, base: server)
        }
        if local.base?.changeTag == server.changeTag, local.theirs == nil { return nil }
        switch local.syncState {
        case .synced:
            return Mark(videoID: videoID, status: server.status, hlc: server.hlc ?? local.hlc,
                        deviceID: server.deviceID ?? local.deviceID, syncState: .synced, base: server)
        case .pending, .offline, .conflict:
            if local.theirs?.changeTag == server.changeTag { return nil }
            return settle(local, against: server)
        }
    }

    /// What a pulled deletion of `videoID`'s record does to the local mark: a synced mark is
    /// forgotten; a pending or conflicting one stays, pending again as a fresh record (the server
    /// has nothing left to conflict with), so it is never silently dropped.
    public func afterDeletion(local: Mark?) -> PulledDeletion {
        guard let local else { return .unchanged }
        switch local.syncState {
        case .synced:
            return .forget
        case .pending, .offline, .conflict:
            var mark = local
            mark.syncState = .pending
            mark.base = nil
            mark.theirs = nil
            return .keep(mark)
        }
    }

    /// Settles `local` (not yet on the server) against a different server version: equal values
    /// are synced; otherwise the policy decides. Under `newest`, an equal value with a newer
    /// clock reading is pushed again, so the server keeps the newest reading and a later
    /// comparison cannot let an older mark win.
    private func settle(_ local: Mark, against server: ServerVersion) -> Mark {
        let localIsNewer = (local.hlc, local.deviceID) > (server.hlc ?? HybridTimestamp(millis: 0), server.deviceID ?? "")
        // Only the playback position changed since our base: no status conflict, push ours on it.
        if let base = local.base, base.changeTag != server.changeTag, base.status == server.status, base.hlc == server.hlc,
           base.deviceID == server.deviceID, server.status != local.status {
            return rebase(local, on: server)
        }
        // A record no one marked (written only to carry a position or a queue entry by a device
        // without a mark, at clock reading 0): no conflict, push ours on it.
        if server.status == .unwatched, server.status != local.status, (server.hlc ?? HybridTimestamp(millis: 0)).millis == 0 {
            return rebase(local, on: server)
        }
        if server.status == local.status {
            if policy == .newest, localIsNewer { return rebase(local, on: server) }
            var mark = local
            mark.syncState = .synced
            mark.base = server
            mark.theirs = nil
            return mark
        }
        let localWins: Bool? = switch policy {
        case .ask: nil
        case .local: true
        case .server: false
        case .newest: localIsNewer
        }
        switch localWins {
        case nil:
            var mark = local
            mark.syncState = .conflict
            mark.theirs = server
            return mark
        case true?:
            return rebase(local, on: server)
        case false?:
            return Mark(videoID: local.videoID, status: server.status, hlc: server.hlc ?? local.hlc,
                        deviceID: server.deviceID ?? local.deviceID, syncState: .synced, base: server)
        }
    }

    /// `local` kept pending, its next push carrying `server`'s change tag.
    private func rebase(_ local: Mark, on server: ServerVersion) -> Mark {
        var mark = local
        mark.syncState = .pending
        mark.base = server
        mark.theirs = nil
        return mark
    }
}

/// What a pulled deletion does to a local mark.
public enum PulledDeletion: Sendable, Equatable {
    /// There was no local mark.
    case unchanged
    /// The synced local mark is forgotten.
    case forget
    /// The local mark stays, as this (pending) mark.
    case keep(Mark)
}
