import Foundation
import MeTubeCore

/// What the syncs remember between runs. Saved with the data it describes, so an interrupted sync
/// resumes where it stopped. Fields are only ever added, with defaults.
public struct SyncSnapshot: Codable, Sendable, Equatable {
    /// This device's id, made once when the store is created.
    public var deviceID: String
    /// The hub's `seq` watermark: every row up to it has been merged.
    public var hubWatermark: Int64
    /// Channel ids the hub acknowledged registering.
    public var hubRegisteredChannelIDs: [String]
    /// When the last hub or direct sync finished successfully.
    public var lastHubSync: Date?
    /// The mark-sync service's sync token for `changes/zone`, once a pull has completed a page.
    public var markSyncToken: String?
    /// The mark-sync service's sync token for `changes/zone` of the subscriptions' zone.
    public var subscriptionsSyncToken: String?
    /// Whether the mark-sync zone is known to exist.
    public var markSyncZoneReady: Bool
    /// When the last mark sync finished successfully; statuses are known after the first.
    public var lastMarkSync: Date?
    /// Since when the mark-sync service cannot be reached; `nil` while it can (or nothing is known).
    public var markSyncOfflineSince: Date?
    /// Per-channel results of direct-mode fetches, by channel id.
    public var channelFetches: [String: ChannelFetchResult]

    /// The keys of the JSON it is read from and written as: the mark-sync fields keep their older
    /// names (`status…`), which files and scripts already hold.
    enum CodingKeys: String, CodingKey {
        case deviceID, hubWatermark, hubRegisteredChannelIDs, lastHubSync, subscriptionsSyncToken, channelFetches
        case markSyncToken = "statusSyncToken", markSyncZoneReady = "statusZoneReady", lastMarkSync = "lastStatusSync", markSyncOfflineSince = "statusOfflineSince"
    }

    /// Creates the sync state of a new store.
    public init(deviceID: String) {
        self.deviceID = deviceID
        hubWatermark = 0
        hubRegisteredChannelIDs = []
        markSyncZoneReady = false
        channelFetches = [:]
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deviceID = try container.decode(String.self, forKey: .deviceID)
        hubWatermark = try container.decodeIfPresent(Int64.self, forKey: .hubWatermark) ?? 0
        hubRegisteredChannelIDs = try container.decodeIfPresent([String].self, forKey: .hubRegisteredChannelIDs) ?? []
        lastHubSync = try container.decodeIfPresent(Date.self, forKey: .lastHubSync)
        markSyncToken = try container.decodeIfPresent(String.self, forKey: .markSyncToken)
        subscriptionsSyncToken = try container.decodeIfPresent(String.self, forKey: .subscriptionsSyncToken)
        markSyncZoneReady = try container.decodeIfPresent(Bool.self, forKey: .markSyncZoneReady) ?? false
        lastMarkSync = try container.decodeIfPresent(Date.self, forKey: .lastMarkSync)
        markSyncOfflineSince = try container.decodeIfPresent(Date.self, forKey: .markSyncOfflineSince)
        channelFetches = try container.decodeIfPresent([String: ChannelFetchResult].self, forKey: .channelFetches) ?? [:]
    }
}

/// The outcome of the last fetch of one channel's feed.
public struct ChannelFetchResult: Codable, Sendable, Equatable {
    /// When the channel was last fetched successfully.
    public var lastSuccess: Date?
    /// When the current run of failures began; `nil` while fetches succeed.
    public var failingSince: Date?
    /// Why the last fetch failed.
    public var lastError: String?
    /// The feed's ETag, for conditional GET.
    public var etag: String?
    /// The feed's Last-Modified, for conditional GET.
    public var lastModified: String?

    /// Creates a result.
    public init(lastSuccess: Date? = nil, failingSince: Date? = nil, lastError: String? = nil, etag: String? = nil, lastModified: String? = nil) {
        self.lastSuccess = lastSuccess
        self.failingSince = failingSince
        self.lastError = lastError
        self.etag = etag
        self.lastModified = lastModified
    }
}
