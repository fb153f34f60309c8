/// One write of a status transaction on PostgreSQL, kept by ``PostgresMarkSyncTransaction`` and
/// executed by ``PostgresMarkSyncStatements`` once the transaction's body got through.
enum PostgresMarkSyncWrite: Sendable {
    /// Creates or updates a zone.
    case saveZone(StoredMarkSyncZone)
    /// Deletes a zone and its records.
    case deleteZone(MarkSyncZoneKey)
    /// Creates or replaces records of a zone.
    case saveRecords([StoredMarkSyncRecord], MarkSyncZoneKey)
    /// Adds to what a user holds.
    case addUsage(MarkSyncUsage, userID: Int64)

    /// The zone written, if the write is of one.
    var zoneKey: MarkSyncZoneKey? {
        switch self {
        case .saveZone(let zone): zone.key
        case .deleteZone(let key): key
        case .saveRecords(_, let key): key
        case .addUsage: nil
        }
    }
}
