/// One read of a status transaction on PostgreSQL, with its arguments: what
/// ``PostgresStatusTransaction`` asks ``PostgresStatusStatements`` to fetch.
enum PostgresStatusRead: Hashable, Sendable {
    /// The zone, if it exists.
    case zone(StatusZoneKey)
    /// Every zone of a database.
    case zones(StatusDatabaseKey)
    /// The stored records among `names`, their fields not yet decoded.
    case namedRecords([String], zone: StatusZoneKey)
    /// The records changed after a sequence number.
    case changes(zone: StatusZoneKey, after: Int64, includeDeleted: Bool, limit: Int)
    /// The live records of a type.
    case typedRecords(String, zone: StatusZoneKey)
    /// The position of a database's latest zone change.
    case changePosition(StatusDatabaseKey)
    /// The zones changed after a position of their database's history.
    case zoneChanges(StatusDatabaseKey, after: Int64, includeDeleted: Bool, limit: Int)

    /// A run of a body met a read not fetched yet.
    struct Missing: Error {
        /// The read to fetch before the body runs again.
        let read: PostgresStatusRead
    }
}
