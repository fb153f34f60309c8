/// The body of `zones/modify`: `{"operations": [{"operationType", "zone"}]}`.
public struct MarkSyncZonesModifyRequest: Codable, Sendable, Hashable {
    /// One zone operation.
    public struct Operation: Codable, Sendable, Hashable {
        /// `create` or `delete`.
        public enum OperationType: String, Codable, Sendable, Hashable {
            case create
            case delete
        }

        /// What to do with the zone.
        public var operationType: OperationType
        /// The zone to act on.
        public var zone: MarkSyncZone

        /// Creates a zone operation.
        public init(_ operationType: OperationType, zone: MarkSyncZoneID) {
            self.operationType = operationType
            self.zone = MarkSyncZone(zoneID: zone)
        }
    }

    /// The operations, attempted in order; one per zone.
    public var operations: [Operation]

    /// Creates the request.
    public init(operations: [Operation]) {
        self.operations = operations
    }
}

/// The body of `zones/lookup`: `{"zones": [ZoneID, …]}`.
public struct MarkSyncZonesLookupRequest: Codable, Sendable, Hashable {
    /// The zones to look up.
    public var zones: [MarkSyncZoneID]

    /// Creates the request.
    public init(zones: [MarkSyncZoneID]) {
        self.zones = zones
    }
}

/// The answer of `zones/modify`, `zones/list` and `zones/lookup`: `{"zones": […]}`, and for a
/// page of `zones/list` that more zones follow, `"continuationMarker"` (metube's addition).
public struct MarkSyncZonesResponse: Codable, Sendable, Hashable {
    /// One entry per operation, per zone of the page, or per requested zone.
    public var zones: [MarkSyncZoneResult]
    /// Where the next page of `zones/list` starts, while more zones follow.
    public var continuationMarker: String?

    /// Creates the response.
    public init(zones: [MarkSyncZoneResult], continuationMarker: String? = nil) {
        self.zones = zones
        self.continuationMarker = continuationMarker
    }
}
