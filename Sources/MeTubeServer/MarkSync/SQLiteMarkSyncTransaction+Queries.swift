import GRDB
import MeTubeAPI

extension SQLiteMarkSyncTransaction {
    /// The live records of type `type` in the zone, in no particular order.
    func records(ofType type: String, in zone: MarkSyncZoneKey) throws -> [StoredMarkSyncRecord] {
        guard let zoneID = try zoneID(zone) else { return [] }
        return try SQLiteMarkSyncRecordRow.records(db.cachedStatement(sql: """
            SELECT \(SQLiteMarkSyncRecordColumn.selectList) FROM status_records
            WHERE zone_id = ? AND type = ? AND deleted = 0
            """), arguments: [zoneID, type])
    }

    /// The live records and stored bytes of a zone (its zones count 0).
    func usage(of zone: MarkSyncZoneKey) throws -> MarkSyncUsage {
        guard let zoneID = try zoneID(zone) else { return .zero }
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT coalesce(sum(deleted = 0), 0) AS records, coalesce(sum(\(Self.bytesSQL)), 0) AS bytes FROM status_records WHERE zone_id = ?
            """), arguments: [zoneID])
        return MarkSyncUsage(records: row?["records"] ?? 0, bytes: row?["bytes"] ?? 0)
    }

    /// What the user holds and the quota set for them (nothing, and no setting, before any write).
    func usage(ofUser userID: Int64) throws -> MarkSyncUserUsage {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT zones, records, bytes, max_zones, max_records, max_bytes FROM status_usage WHERE user_id = ?"),
            arguments: [userID]) else { return MarkSyncUserUsage() }
        return MarkSyncUserUsage(
            usage: MarkSyncUsage(zones: row["zones"], records: row["records"], bytes: row["bytes"]),
            setting: MarkSyncQuotaSetting(zones: row["max_zones"], records: row["max_records"], bytes: row["max_bytes"]))
    }

    /// Adds `delta` to what the user holds.
    func addUsage(_ delta: MarkSyncUsage, ofUser userID: Int64) throws {
        guard delta != .zero else { return }
        try db.cachedStatement(sql: """
            INSERT INTO status_usage (user_id, zones, records, bytes) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET zones = zones + excluded.zones, records = records + excluded.records, bytes = bytes + excluded.bytes
            """).execute(arguments: [userID, delta.zones, delta.records, delta.bytes])
    }

    /// A record row's ``MarkSyncRecordBytes`` in SQLite.
    static let bytesSQL = MarkSyncRecordBytes.sql { "length(CAST(\($0) AS BLOB))" }

    /// Counts what each user without a usage row holds, from their zones and records: once, when
    /// the usage table is added or users are imported.
    static let countUsageSQL = """
        INSERT INTO status_usage (user_id, zones, records, bytes)
        SELECT u.id,
            (SELECT count(*) FROM status_zones WHERE user_id = u.id AND name != '\(MarkSyncZoneID.defaultZoneName)'),
            (SELECT count(*) FROM status_records WHERE deleted = 0 AND zone_id IN (SELECT id FROM status_zones WHERE user_id = u.id)),
            (SELECT coalesce(sum(\(bytesSQL)), 0) FROM status_records WHERE zone_id IN (SELECT id FROM status_zones WHERE user_id = u.id))
        FROM status_users u WHERE u.id NOT IN (SELECT user_id FROM status_usage)
        """

    /// The position of the latest zone change in `database`; 0 before any.
    func databaseChangePosition(_ database: MarkSyncDatabaseKey) throws -> Int64 {
        try Int64.fetchOne(
            db, sql: "SELECT value FROM status_database_counters WHERE user_id = ? AND container = ? AND environment = ?",
            arguments: [database.userID, database.container, database.environment]) ?? 0
    }

    /// Up to `limit` zones of `database` changed after `position`, oldest change first; deleted zones
    /// only when `includeDeleted`.
    func zoneChanges(in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int) throws -> [MarkSyncZoneChange] {
        let arguments: StatementArguments = [database.userID, database.container, database.environment, position]
        return try Row.fetchAll(db, sql: """
            SELECT name, incarnation, last_sequence, changed_at, 0 AS deleted FROM status_zones
            WHERE user_id = ? AND container = ? AND environment = ? AND changed_at > ?
            UNION ALL
            SELECT name, 0, 0, changed_at, 1 FROM status_zone_deletions
            WHERE ? AND user_id = ? AND container = ? AND environment = ? AND changed_at > ?
            ORDER BY changed_at LIMIT ?
            """, arguments: arguments + [includeDeleted] + arguments + [limit]
        ).map { row in
            MarkSyncZoneChange(zone: SQLiteMarkSyncZoneRow(row: row).zone(in: database), position: row["changed_at"], isDeleted: row["deleted"])
        }
    }
}
