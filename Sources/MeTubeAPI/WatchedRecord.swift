/// The MeTube iOS app's watched-status record: zone `WatchedStatusZone`, type `WatchedStatus`,
/// recordName = video id, plus metube's optional `hlc`, `deviceId`, `positionHlc`, `queuedAt` and
/// `queueHlc` fields (clients that do not know them ignore them).
public struct WatchedRecord: Sendable, Hashable {
    /// The zone that holds every watched-status record.
    public static let zoneName = "WatchedStatusZone"
    /// The record type.
    public static let recordType = "WatchedStatus"

    /// The video id (also the record name).
    public var videoID: String
    /// `unwatched`, `watched` or `skipped`.
    public var status: String
    /// When the status was set, in milliseconds since 1970.
    public var lastModified: Int64
    /// Where playback stopped, in seconds, when known.
    public var playbackPosition: Double?
    /// The hybrid logical clock reading in the form `millis-counter`, when the writer sent one.
    public var hlc: String?
    /// The writing device, when it said.
    public var deviceID: String?
    /// metube's hybrid logical clock reading of ``playbackPosition`` (`millis-counter`), when the
    /// writer sent one; without it the position dates from `lastModified`.
    public var positionHLC: String?
    /// When the video was put in the watch-later queue, in milliseconds since 1970; `nil` when it
    /// is not queued (or the record says nothing of the queue).
    public var queuedAt: Int64?
    /// metube's hybrid logical clock reading of the queue fields (`millis-counter`); when set, the
    /// record says whether the video is queued: ``queuedAt`` present or not.
    public var queueHLC: String?

    /// Creates a watched-status record.
    public init(videoID: String, status: String, lastModified: Int64, playbackPosition: Double? = nil, hlc: String? = nil, deviceID: String? = nil) {
        self.videoID = videoID
        self.status = status
        self.lastModified = lastModified
        self.playbackPosition = playbackPosition
        self.hlc = hlc
        self.deviceID = deviceID
    }

    /// Reads the layout from a record dictionary; `nil` when a required field is missing.
    public init?(_ record: MarkSyncRecord) {
        let fields = record.fields ?? [:]
        guard let status = fields["status"]?.value.stringValue,
              let videoID = fields["videoId"]?.value.stringValue ?? record.recordName else { return nil }
        self.videoID = videoID
        self.status = status
        self.lastModified = fields["lastModified"]?.value.integerValue ?? 0
        self.playbackPosition = fields["playbackPosition"]?.value.doubleValue
        self.hlc = fields["hlc"]?.value.stringValue
        self.deviceID = fields["deviceId"]?.value.stringValue
        self.positionHLC = fields["positionHlc"]?.value.stringValue
        self.queuedAt = fields["queuedAt"]?.value.integerValue
        self.queueHLC = fields["queueHlc"]?.value.stringValue
    }

    /// The record's fields, every one tagged with its type.
    public var fields: [String: MarkSyncField] {
        var fields: [String: MarkSyncField] = [
            "videoId": .string(videoID), "status": .string(status), "lastModified": .timestamp(lastModified),
        ]
        if let playbackPosition { fields["playbackPosition"] = .double(playbackPosition) }
        if let hlc { fields["hlc"] = .string(hlc) }
        if let deviceID { fields["deviceId"] = .string(deviceID) }
        if let positionHLC { fields["positionHlc"] = .string(positionHLC) }
        if let queueHLC {
            // A null `queuedAt` clears the field on `update`: the video left the queue.
            fields["queueHlc"] = .string(queueHLC)
            fields["queuedAt"] = queuedAt.map(MarkSyncField.timestamp) ?? MarkSyncField(value: .null, type: "TIMESTAMP")
        }
        return fields
    }

    /// A record dictionary for this status, carrying `changeTag` when given.
    public func record(changeTag: String? = nil) -> MarkSyncRecord {
        MarkSyncRecord(recordName: videoID, recordType: Self.recordType, recordChangeTag: changeTag, fields: fields)
    }
}
