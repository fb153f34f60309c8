/// A value of a mark as the status service holds it: the change tag that names the version, and
/// what it says.
public struct ServerVersion: Codable, Sendable, Hashable {
    /// The server's change tag for this version of the record.
    public var changeTag: String
    /// The status the record holds.
    public var status: WatchStatus
    /// The hybrid logical clock reading stored with the record, when the writer sent one.
    public var hlc: HybridTimestamp?
    /// The device that wrote this version, when it said.
    public var deviceID: String?

    /// Creates a server version.
    public init(changeTag: String, status: WatchStatus, hlc: HybridTimestamp? = nil, deviceID: String? = nil) {
        self.changeTag = changeTag
        self.status = status
        self.hlc = hlc
        self.deviceID = deviceID
    }
}

/// The user's decision about one video, with what the sync knows of it.
public struct Mark: Codable, Sendable, Hashable {
    /// The video this mark is about.
    public var videoID: String
    /// What the user decided.
    public var status: WatchStatus
    /// When the decision was made, on the hybrid logical clock.
    public var hlc: HybridTimestamp
    /// The device that made the decision.
    public var deviceID: String
    /// Whether the status service holds this value.
    public var syncState: SyncState
    /// The last server version this device knew; `nil` before the first push or pull.
    public var base: ServerVersion?
    /// The server's competing version while ``syncState`` is `conflict`.
    public var theirs: ServerVersion?

    /// Creates a mark.
    public init(
        videoID: String, status: WatchStatus, hlc: HybridTimestamp, deviceID: String,
        syncState: SyncState = .pending, base: ServerVersion? = nil, theirs: ServerVersion? = nil
    ) {
        self.videoID = videoID
        self.status = status
        self.hlc = hlc
        self.deviceID = deviceID
        self.syncState = syncState
        self.base = base
        self.theirs = theirs
    }

    /// Whether this mark was made after `other`: by clock reading, ties broken by device id.
    public func isNewer(than other: Mark) -> Bool {
        (hlc, deviceID) > (other.hlc, other.deviceID)
    }
}

/// What a video's row shows: a mark's status, or `unknown` before any mark or status pull.
public enum DisplayStatus: String, Codable, Sendable, CaseIterable {
    case unknown
    case unwatched
    case watched
    case skipped

    /// The display form of a mark's status, `unknown` when there is no mark.
    public init(_ status: WatchStatus?) {
        switch status {
        case nil: self = .unknown
        case .unwatched?: self = .unwatched
        case .watched?: self = .watched
        case .skipped?: self = .skipped
        }
    }
}

/// How a conflict between this device's mark and another device's is settled.
public enum ConflictPolicy: String, Codable, Sendable, CaseIterable {
    /// Keep both and let the user choose (the default).
    case ask
    /// The mark with the newer hybrid logical clock reading wins.
    case newest
    /// The server's value wins.
    case server
    /// This device's value wins.
    case local
}
