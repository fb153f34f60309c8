import Foundation
import GRDB
import MeTubeAPI

/// The reads and writes of one SQLite transaction over the status tables.
final class SQLiteMarkSyncTransaction: MarkSyncTransaction {
    let db: Database
    let isReadOnly: Bool
    private var zoneIDs: [MarkSyncZoneKey: Int64] = [:]
    /// The most names one lookup statement takes (SQLite allows 32,766 parameters).
    private static let namesPerLookup = 250
    /// The most records one statement writes (8 parameters each).
    private static let recordsPerSave = 100
    /// The lookup of a chunk of names, by its size.
    private static let lookupSQL = RepeatedSQL(upTo: namesPerLookup) { count in
        """
        SELECT \(SQLiteMarkSyncRecordRow.columns) FROM status_records
        WHERE zone_id = ? AND name IN (\(repeatElement("?", count: count).joined(separator: ",")))
        """
    }
    /// The upsert of a chunk of records, by its size.
    private static let saveSQL = RepeatedSQL(upTo: recordsPerSave) { count in
        """
        INSERT INTO status_records (zone_id, name, type, fields, sequence, created_millis, modified_millis, deleted)
        VALUES \(repeatElement("(?, ?, ?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", "))
        ON CONFLICT (zone_id, name) DO UPDATE SET type = excluded.type, fields = excluded.fields, sequence = excluded.sequence,
            created_millis = excluded.created_millis, modified_millis = excluded.modified_millis, deleted = excluded.deleted
        """
    }

    init(db: Database, isReadOnly: Bool) {
        self.db = db
        self.isReadOnly = isReadOnly
    }

    func zone(_ key: MarkSyncZoneKey) throws -> StoredMarkSyncZone? {
        guard let row = try SQLiteMarkSyncZoneRow.fetchOne(
            db.cachedStatement(sql: "SELECT id, name, incarnation, last_sequence FROM status_zones WHERE user_id = ? AND container = ? AND environment = ? AND name = ?"),
            arguments: arguments(key)
        ) else { return nil }
        zoneIDs[key] = row.id
        return row.zone(in: key.database)
    }

    func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) throws -> [StoredMarkSyncZone] {
        try SQLiteMarkSyncZoneRow.fetchAll(
            db.cachedStatement(sql: """
                SELECT name, incarnation, last_sequence FROM status_zones
                WHERE user_id = ? AND container = ? AND environment = ? AND name > ? ORDER BY name LIMIT ?
                """),
            arguments: [database.userID, database.container, database.environment, name ?? "", limit]
        ).map { $0.zone(in: database) }
    }

    func saveZone(_ zone: StoredMarkSyncZone) throws {
        try db.cachedStatement(sql: """
            INSERT INTO status_zones (user_id, container, environment, name, incarnation, last_sequence) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, container, environment, name) DO UPDATE SET incarnation = excluded.incarnation, last_sequence = excluded.last_sequence
            """).execute(arguments: arguments(zone.key) + [zone.incarnation, zone.lastSequence])
    }

    func deleteZone(_ key: MarkSyncZoneKey) throws {
        try db.execute(sql: "DELETE FROM status_zones WHERE user_id = ? AND container = ? AND environment = ? AND name = ?", arguments: arguments(key))
        zoneIDs[key] = nil
    }

    func records(
        named names: [String], in zone: MarkSyncZoneKey, readingFieldsWhen readsFields: (StoredMarkSyncRecord) -> Bool
    ) throws -> [String: StoredMarkSyncRecord] {
        guard let zoneID = try zoneID(zone) else { return [:] }
        var found: [String: StoredMarkSyncRecord] = [:]
        found.reserveCapacity(names.count)
        // One statement per chunk of names, with a placeholder a name: the chunk sizes repeat, so
        // their statements are prepared once.
        for start in stride(from: 0, to: names.count, by: Self.namesPerLookup) {
            let chunk = names[start..<min(start + Self.namesPerLookup, names.count)]
            var bindings = SQLiteBindings(try db.cachedStatement(sql: Self.lookupSQL[chunk.count]))
            try bindings.bind(zoneID)
            for name in chunk { try bindings.bind(name) }
            let rows = try bindings.rows()
            while let row = try rows.next() {
                let read = SQLiteMarkSyncRecordRow(row: row)
                found[read.record.name] = readsFields(read.record) ? try read.withFields(from: row) : read.record
            }
        }
        return found
    }

    func saveRecords(_ records: [StoredMarkSyncRecord], in zone: MarkSyncZoneKey) throws {
        guard !records.isEmpty else { return }
        guard let zoneID = try zoneID(zone) else { throw ServerError.storage("zone \(zone.zoneName) vanished inside its transaction") }
        // Many rows a statement: a statement's own cost is paid once per chunk, and the chunk
        // sizes repeat, so their statements are prepared once. An upsert rather than INSERT OR
        // REPLACE: with foreign keys on, SQLite does foreign-key bookkeeping for every statement
        // that may replace a row, which cost about 40 % of a one-row statement.
        for start in stride(from: 0, to: records.count, by: Self.recordsPerSave) {
            let chunk = records[start..<min(start + Self.recordsPerSave, records.count)]
            var bindings = SQLiteBindings(try db.cachedStatement(sql: Self.saveSQL[chunk.count]))
            for record in chunk {
                try bindings.bind(zoneID)
                try bindings.bind(record.name)
                try bindings.bind(record.type)
                try bindings.bind(record.storedFields ?? MarkSyncFieldsCodec.stored(record.fields))
                try bindings.bind(record.sequence)
                try bindings.bind(record.createdMillis)
                try bindings.bind(record.modifiedMillis)
                try bindings.bind(record.isDeleted)
            }
            try bindings.execute()
        }
    }

    func changes(in zone: MarkSyncZoneKey, after sequence: Int64, includeDeleted: Bool, limit: Int) throws -> [StoredMarkSyncRecord] {
        guard let zoneID = try zoneID(zone) else { return [] }
        return try SQLiteMarkSyncRecordRow.records(db.cachedStatement(sql: """
            SELECT \(SQLiteMarkSyncRecordRow.columns) FROM status_records
            WHERE zone_id = ? AND sequence > ? AND (? OR deleted = 0) ORDER BY sequence LIMIT ?
            """), arguments: [zoneID, sequence, includeDeleted, limit])
    }

    func zoneID(_ key: MarkSyncZoneKey) throws -> Int64? {
        if let id = zoneIDs[key] { return id }
        _ = try zone(key)
        return zoneIDs[key]
    }

    private func arguments(_ key: MarkSyncZoneKey) -> StatementArguments {
        [key.database.userID, key.database.container, key.database.environment, key.zoneName]
    }

}
