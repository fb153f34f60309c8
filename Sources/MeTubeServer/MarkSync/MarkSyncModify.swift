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
    /// ``StoredMarkSyncRecord/storedBytes``, with fields where the reads asked for them.
    public var records: [String: StoredMarkSyncRecord]
    /// What the user holds and the quota set for them.
    public var usage: MarkSyncUserUsage

    /// A state of a zone's records and its user's usage.
    public init(zone: StoredMarkSyncZone?, records: [String: StoredMarkSyncRecord], usage: MarkSyncUserUsage) {
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

extension MarkSyncTransaction {
    /// Reads what `reads` names, decides with `decide` and writes what it returns: one
    /// `records/modify` inside this (write) transaction, for repositories whose transactions run
    /// synchronously.
    func modify<T>(_ reads: MarkSyncModifyReads, deciding decide: (MarkSyncModifyState) throws -> (T, MarkSyncModifyWrites?)) throws -> T {
        let zone = try self.zone(reads.zone)
        let records = try zone.map { zone in try self.records(named: reads.names, in: reads.zone) { reads.readsFields($0, zone) } } ?? [:]
        let (answer, writes) = try decide(MarkSyncModifyState(zone: zone, records: records, usage: try usage(ofUser: reads.userID)))
        if let writes {
            try saveZone(writes.zone)
            try saveRecords(writes.records, in: writes.zone.key)
            try addUsage(writes.usage, ofUser: writes.userID)
        }
        return answer
    }
}
