import Foundation

/// What the database answered to one ``PostgresMarkSyncRead``.
enum PostgresMarkSyncAnswer: Sendable {
    /// A zone, or nil when it does not exist.
    case zone(StoredMarkSyncZone?)
    /// Zones, in the order of their names.
    case zones([StoredMarkSyncZone])
    /// Records without their fields, each beside its stored fields, decoded only when the body
    /// needs them.
    case storedRecords([(StoredMarkSyncRecord, Data)])
    /// Records with their fields.
    case records([StoredMarkSyncRecord])
    /// A position of a database's change history.
    case position(Int64)
    /// The records and bytes of a zone.
    case usage(MarkSyncUsage)
    /// A user's usage row.
    case userUsage(MarkSyncUserUsage)
    /// Zone changes, oldest first.
    case zoneChanges([MarkSyncZoneChange])
}
