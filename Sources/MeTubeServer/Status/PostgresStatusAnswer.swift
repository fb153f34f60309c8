import Foundation

/// What the database answered to one ``PostgresStatusRead``.
enum PostgresStatusAnswer: Sendable {
    /// A zone, or nil when it does not exist.
    case zone(StoredStatusZone?)
    /// Zones, in the order of their names.
    case zones([StoredStatusZone])
    /// Records without their fields, each beside its stored fields, decoded only when the body
    /// needs them.
    case storedRecords([(StoredStatusRecord, Data)])
    /// Records with their fields.
    case records([StoredStatusRecord])
    /// A position of a database's change history.
    case position(Int64)
    /// Zone changes, oldest first.
    case zoneChanges([StatusZoneChange])
}
