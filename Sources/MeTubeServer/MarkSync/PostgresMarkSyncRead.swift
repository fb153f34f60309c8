/// One read of a status transaction on PostgreSQL, with its arguments: what
/// ``PostgresMarkSyncTransaction`` asks ``PostgresMarkSyncStatements`` to fetch.
enum PostgresMarkSyncRead: Hashable, Sendable {
    /// The zone, if it exists.
    case zone(MarkSyncZoneKey)
    /// A page of a database's zones, by name.
    case zones(MarkSyncDatabaseKey, after: String?, limit: Int)
    /// The stored records among `names`, their fields not yet decoded.
    case namedRecords([String], zone: MarkSyncZoneKey)
    /// The records changed after a sequence number.
    case changes(zone: MarkSyncZoneKey, after: Int64, includeDeleted: Bool, limit: Int)
    /// The live records of a type.
    case typedRecords(String, zone: MarkSyncZoneKey)
    /// The position of a database's latest zone change.
    case changePosition(MarkSyncDatabaseKey)
    /// The live records and stored bytes of a zone.
    case zoneUsage(MarkSyncZoneKey)
    /// What a user holds and the quota set for them.
    case userUsage(Int64)
    /// The zones changed after a position of their database's history.
    case zoneChanges(MarkSyncDatabaseKey, after: Int64, includeDeleted: Bool, limit: Int)

    /// A run of a body met a read not fetched yet.
    struct Missing: Error {
        /// The read to fetch before the body runs again.
        let read: PostgresMarkSyncRead
    }
}
