/// A followed (or unfollowed) channel: zone `SubscriptionsZone`, type `Subscription`, recordName =
/// channel id. `followed` is an INT64 0 or 1 (CloudKit has no boolean; a JSON boolean is read
/// too), `tags` a STRING_LIST, `hlc` metube's clock reading `millis-counter`.
public struct SubscriptionRecord: Sendable, Hashable {
    /// The zone that holds every subscription record.
    public static let zoneName = "SubscriptionsZone"
    /// The record type.
    public static let recordType = "Subscription"

    /// The channel id (also the record name).
    public var channelID: String
    /// The channel's title, when the writer knew it.
    public var title: String?
    /// Whether the channel is followed; `false` is an unfollow kept as a tombstone.
    public var followed: Bool
    /// The tags, `nil` when the record has no `tags` field.
    public var tags: [MarkSyncValue]?
    /// When the follow or unfollow was made, in milliseconds since 1970.
    public var lastModified: Int64
    /// The hybrid logical clock reading in the form `millis-counter`, when the writer sent one.
    public var hlc: String?
    /// The writing device, when it said.
    public var deviceID: String?

    /// Creates a subscription record.
    public init(channelID: String, title: String?, followed: Bool, tags: [String], lastModified: Int64, hlc: String?, deviceID: String?) {
        self.channelID = channelID
        self.title = title
        self.followed = followed
        self.tags = tags.map(MarkSyncValue.string)
        self.lastModified = lastModified
        self.hlc = hlc
        self.deviceID = deviceID
    }

    /// Reads the layout from a record dictionary; `nil` when `followed` is missing or is not a
    /// boolean (0, 1, `true` or `false`), or there is no channel id. A `tags` field that is not a
    /// list reads as no tags field.
    public init?(_ record: MarkSyncRecord) {
        let fields = record.fields ?? [:]
        guard let channelID = fields["channelId"]?.value.stringValue ?? record.recordName else { return nil }
        switch fields["followed"]?.value {
        case .integer(0)?, .bool(false)?: followed = false
        case .integer(1)?, .bool(true)?: followed = true
        default: return nil
        }
        self.channelID = channelID
        title = fields["title"]?.value.stringValue
        if case .list(let values)? = fields["tags"]?.value { tags = values } else { tags = nil }
        lastModified = fields["lastModified"]?.value.integerValue ?? 0
        hlc = fields["hlc"]?.value.stringValue
        deviceID = fields["deviceId"]?.value.stringValue
    }

    /// The record's fields, every one tagged with its type.
    public var fields: [String: MarkSyncField] {
        var fields: [String: MarkSyncField] = [
            "channelId": .string(channelID), "followed": .int64(followed ? 1 : 0), "lastModified": .timestamp(lastModified),
            "tags": MarkSyncField(value: .list(tags ?? []), type: "STRING_LIST"),
        ]
        if let title { fields["title"] = .string(title) }
        if let hlc { fields["hlc"] = .string(hlc) }
        if let deviceID { fields["deviceId"] = .string(deviceID) }
        return fields
    }

    /// A record dictionary for this subscription, carrying `changeTag` when given.
    public func record(changeTag: String? = nil) -> MarkSyncRecord {
        MarkSyncRecord(recordName: channelID, recordType: Self.recordType, recordChangeTag: changeTag, fields: fields)
    }
}
