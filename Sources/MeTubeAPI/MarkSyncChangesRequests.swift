/// The body of `changes/zone`.
public struct MarkSyncZoneChangesRequest: Codable, Sendable, Hashable {
    /// What to fetch from one zone; its keys override the request's top-level ones.
    public struct Zone: Codable, Sendable, Hashable {
        /// The zone.
        public var zoneID: MarkSyncZoneID
        /// Where the last fetch stopped; from the beginning when absent.
        public var syncToken: String?
        /// At most this many records.
        public var resultsLimit: Int?
        /// The fields to return; all when absent.
        public var desiredKeys: [String]?
        /// Only records of these types; all when absent.
        public var desiredRecordTypes: [String]?

        /// Creates a zone entry.
        public init(zoneID: MarkSyncZoneID, syncToken: String? = nil, resultsLimit: Int? = nil) {
            self.zoneID = zoneID
            self.syncToken = syncToken
            self.resultsLimit = resultsLimit
        }
    }

    /// The zones to fetch changes from.
    public var zones: [Zone]
    /// At most this many records per zone; the server's maximum when absent.
    public var resultsLimit: Int?
    /// The fields to return; all when absent.
    public var desiredKeys: [String]?
    /// Only records of these types; all when absent.
    public var desiredRecordTypes: [String]?

    /// Creates the request.
    public init(zones: [Zone], resultsLimit: Int? = nil) {
        self.zones = zones
        self.resultsLimit = resultsLimit
    }
}

/// The changes of one zone ("Zone Record Fetch Dictionary").
public struct MarkSyncZoneChanges: Codable, Sendable, Hashable {
    /// The zone.
    public var zoneID: MarkSyncZoneID
    /// The changed records, oldest change first; deletions as `{"recordName", "deleted": true}`.
    public var records: [MarkSyncRecord]
    /// The position after these changes; pass it to the next fetch.
    public var syncToken: String
    /// Whether more changes wait; fetch again with `syncToken` until false.
    public var moreComing: Bool

    /// Creates the zone's changes.
    public init(zoneID: MarkSyncZoneID, records: [MarkSyncRecord], syncToken: String, moreComing: Bool) {
        self.zoneID = zoneID
        self.records = records
        self.syncToken = syncToken
        self.moreComing = moreComing
    }
}

/// One entry of the `zones` array of `changes/zone`: the zone's changes, or its error.
public typealias MarkSyncZoneChangesResult = MarkSyncZoneOutcome<MarkSyncZoneChanges>

/// The answer of `changes/zone`: `{"zones": […]}`, one entry per requested zone.
public struct MarkSyncZoneChangesResponse: Codable, Sendable, Hashable {
    /// The results.
    public var zones: [MarkSyncZoneChangesResult]

    /// Creates the response.
    public init(zones: [MarkSyncZoneChangesResult]) {
        self.zones = zones
    }
}
