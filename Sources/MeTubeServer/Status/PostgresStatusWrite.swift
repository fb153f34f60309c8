/// One write of a status transaction on PostgreSQL, kept by ``PostgresStatusTransaction`` and
/// executed by ``PostgresStatusStatements`` once the transaction's body got through.
enum PostgresStatusWrite: Sendable {
    /// Creates or updates a zone.
    case saveZone(StoredStatusZone)
    /// Deletes a zone and its records.
    case deleteZone(StatusZoneKey)
    /// Creates or replaces records of a zone.
    case saveRecords([StoredStatusRecord], StatusZoneKey)

    /// The zone written.
    var zoneKey: StatusZoneKey {
        switch self {
        case .saveZone(let zone): zone.key
        case .deleteZone(let key): key
        case .saveRecords(_, let key): key
        }
    }
}
