/// What a `records/modify` reads of its zone before it is decided (see
/// ``MarkSyncRepository/modify(_:deciding:)``).
public struct MarkSyncModifyReads: Sendable {
    /// The zone written.
    public var zone: MarkSyncZoneKey
    /// The records the request names.
    public var names: [String]
    /// The user whose usage the request changes.
    public var userID: Int64
    /// Whether the decision needs the fields of a stored record (given without them), in the zone
    /// as stored; tombstones and records written as sent do not.
    public var readsFields: @Sendable (StoredMarkSyncRecord, StoredMarkSyncZone) -> Bool

    /// Reads of `names` in `zone` and of the usage of `userID`.
    public init(zone: MarkSyncZoneKey, names: [String], userID: Int64, readsFields: @escaping @Sendable (StoredMarkSyncRecord, StoredMarkSyncZone) -> Bool) {
        self.zone = zone
        self.names = names
        self.userID = userID
        self.readsFields = readsFields
    }
}

/// What a `records/modify` found, read in its write transaction.
public struct MarkSyncModifyState: Sendable {
    /// The zone, or nil when it does not exist.
    public var zone: StoredMarkSyncZone?
    /// The stored records (tombstones included) among the names read, by name, each with its
    /// ``StoredMarkSyncRecord/storedBytes``, with fields where the reads asked for them; keyed by
    /// their bytes, as the stores tell names apart.
    public var records: [MarkSyncExactName: StoredMarkSyncRecord]
    /// What the user holds and the quota set for them.
    public var usage: MarkSyncUserUsage

    /// A state of a zone's records and its user's usage.
    public init(zone: StoredMarkSyncZone?, records: [MarkSyncExactName: StoredMarkSyncRecord], usage: MarkSyncUserUsage) {
        self.zone = zone
        self.records = records
        self.usage = usage
    }
}

/// What a decided `records/modify` writes: the repository stores it as it is.
public struct MarkSyncModifyWrites: Sendable {
    /// The zone as it is afterwards: created when it was missing, its ``StoredMarkSyncZone/lastSequence``
    /// that of the last record written.
    public var zone: StoredMarkSyncZone
    /// The records (or tombstones) to create or replace, whose names are all different.
    public var records: [StoredMarkSyncRecord]
    /// What the records add to (or free of) their user's usage.
    public var usage: MarkSyncUsage
    /// The user.
    public var userID: Int64

    /// Writes of `records` in `zone`, changing the usage of `userID` by `usage`.
    public init(zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord], usage: MarkSyncUsage, userID: Int64) {
        self.zone = zone
        self.records = records
        self.usage = usage
        self.userID = userID
    }
}

/// What a `zones/modify` reads before it is decided (see
/// ``MarkSyncRepository/modifyZones(_:deciding:)``).
public struct MarkSyncZonesReads: Sendable {
    /// The zones the request names.
    public var zones: [MarkSyncZoneKey]
    /// Those of them it may delete, whose records and bytes are read too.
    public var deleting: [MarkSyncZoneKey]
    /// The user whose usage the request changes.
    public var userID: Int64

    /// Reads of `zones`, of what those of `deleting` hold and of the usage of `userID`.
    public init(zones: [MarkSyncZoneKey], deleting: [MarkSyncZoneKey], userID: Int64) {
        self.zones = zones
        self.deleting = deleting
        self.userID = userID
    }
}

/// What a `zones/modify` found, read in its write transaction.
public struct MarkSyncZonesState: Sendable {
    /// The zones read that exist.
    public var zones: [MarkSyncZoneKey: StoredMarkSyncZone]
    /// The live records and stored bytes of each zone it may delete that exists.
    public var holdings: [MarkSyncZoneKey: MarkSyncUsage]
    /// What the user holds and the quota set for them.
    public var usage: MarkSyncUserUsage

    /// A state of some zones and their user's usage.
    public init(zones: [MarkSyncZoneKey: StoredMarkSyncZone], holdings: [MarkSyncZoneKey: MarkSyncUsage], usage: MarkSyncUserUsage) {
        self.zones = zones
        self.holdings = holdings
        self.usage = usage
    }
}

/// What a decided `zones/modify` writes: the repository stores it as it is.
public struct MarkSyncZonesWrites: Sendable {
    /// The zones to create, in order.
    public var created: [StoredMarkSyncZone]
    /// The zones to delete with their records, in order.
    public var deleted: [MarkSyncZoneKey]
    /// What the request adds to (or frees of) its user's usage.
    public var usage: MarkSyncUsage
    /// The user.
    public var userID: Int64

    /// Creation of `created`, deletion of `deleted`, and `usage` added to what `userID` holds.
    public init(created: [StoredMarkSyncZone], deleted: [MarkSyncZoneKey], usage: MarkSyncUsage, userID: Int64) {
        self.created = created
        self.deleted = deleted
        self.usage = usage
        self.userID = userID
    }
}
