/// A record dictionary, as sent in requests and returned in responses.
public struct MarkSyncRecord: Codable, Sendable, Hashable {
    /// Unique within the zone; the server assigns one on `create` when absent.
    public var recordName: String?
    /// The record's type, e.g. `WatchedStatus`.
    public var recordType: String?
    /// The server's version tag; required for `update`, `replace` and `delete`.
    public var recordChangeTag: String?
    /// The record's fields by name.
    public var fields: [String: MarkSyncField]?
    /// When and by whom the record was created (responses only).
    public var created: MarkSyncRecordStamp?
    /// When and by whom the record was last modified (responses only).
    public var modified: MarkSyncRecordStamp?
    /// True for a deleted record (responses only).
    public var deleted: Bool?

    /// Creates a record dictionary.
    public init(
        recordName: String? = nil, recordType: String? = nil, recordChangeTag: String? = nil,
        fields: [String: MarkSyncField]? = nil, created: MarkSyncRecordStamp? = nil,
        modified: MarkSyncRecordStamp? = nil, deleted: Bool? = nil
    ) {
        self.recordName = recordName
        self.recordType = recordType
        self.recordChangeTag = recordChangeTag
        self.fields = fields
        self.created = created
        self.modified = modified
        self.deleted = deleted
    }
}

/// The `created` / `modified` dictionary of a record: `{timestamp, userRecordName, deviceID}`.
public struct MarkSyncRecordStamp: Codable, Sendable, Hashable {
    /// Milliseconds since 1970.
    public var timestamp: Int64
    /// The user who made the change.
    public var userRecordName: String?
    /// The device that made the change, when known.
    public var deviceID: String?

    /// Creates a stamp.
    public init(timestamp: Int64, userRecordName: String? = nil, deviceID: String? = nil) {
        self.timestamp = timestamp
        self.userRecordName = userRecordName
        self.deviceID = deviceID
    }
}
