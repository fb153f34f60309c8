/// The body of `zones/modify`: `{"operations": [{"operationType", "zone"}]}`.
public struct StatusZonesModifyRequest: Codable, Sendable, Hashable {
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
        public var zone: StatusZone

        /// Creates a zone operation.
        public init(_ operationType: OperationType, zone: StatusZoneID) {
            self.operationType = operationType
            self.zone = StatusZone(zoneID: zone)
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
public struct StatusZonesLookupRequest: Codable, Sendable, Hashable {
    /// The zones to look up.
    public var zones: [StatusZoneID]

    /// Creates the request.
    public init(zones: [StatusZoneID]) {
        self.zones = zones
    }
}

/// The answer of `zones/modify`, `zones/list` and `zones/lookup`: `{"zones": […]}`.
public struct StatusZonesResponse: Codable, Sendable, Hashable {
    /// One entry per operation, per zone of the database, or per requested zone.
    public var zones: [StatusZoneResult]

    /// Creates the response.
    public init(zones: [StatusZoneResult]) {
        self.zones = zones
    }
}
