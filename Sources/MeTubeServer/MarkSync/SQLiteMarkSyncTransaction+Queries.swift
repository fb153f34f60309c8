import GRDB

extension SQLiteMarkSyncTransaction {
    func records(ofType type: String, in zone: MarkSyncZoneKey) throws -> [StoredMarkSyncRecord] {
        guard let zoneID = try zoneID(zone) else { return [] }
        return try Row.fetchAll(db.cachedStatement(sql: """
            SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
            WHERE zone_id = ? AND type = ? AND deleted = 0
            """), arguments: [zoneID, type]).map(record)
    }

    func databaseChangePosition(_ database: MarkSyncDatabaseKey) throws -> Int64 {
        try Int64.fetchOne(
            db, sql: "SELECT value FROM status_database_counters WHERE user_id = ? AND container = ? AND environment = ?",
            arguments: [database.userID, database.container, database.environment]) ?? 0
    }

    func zoneChanges(in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int) throws -> [MarkSyncZoneChange] {
        let arguments: StatementArguments = [database.userID, database.container, database.environment, position]
        return try Row.fetchAll(db, sql: """
            SELECT name, incarnation, last_sequence, changed_at, 0 FROM status_zones
            WHERE user_id = ? AND container = ? AND environment = ? AND changed_at > ?
            UNION ALL
            SELECT name, 0, 0, changed_at, 1 FROM status_zone_deletions
            WHERE ? AND user_id = ? AND container = ? AND environment = ? AND changed_at > ?
            ORDER BY 4 LIMIT ?
            """, arguments: arguments + [includeDeleted] + arguments + [limit]
        ).map { row in
            MarkSyncZoneChange(
                zone: StoredMarkSyncZone(key: MarkSyncZoneKey(database: database, zoneName: row[0]), incarnation: row[1], lastSequence: row[2]),
                position: row[3], isDeleted: row[4])
        }
    }
}
