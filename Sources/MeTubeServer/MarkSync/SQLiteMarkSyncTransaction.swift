import Foundation
import GRDB
import MeTubeAPI

/// The reads and writes of one SQLite transaction over the status tables, for
/// ``SQLiteMarkSyncRepository``.
final class SQLiteMarkSyncTransaction {
    let db: Database
    private var zoneIDs: [MarkSyncZoneKey: Int64] = [:]
    /// The most names one lookup statement takes (SQLite allows 32,766 parameters).
    private static let namesPerLookup = 250
    /// The most records one statement writes (8 parameters each).
    private static let recordsPerSave = 100
    /// The lookup of a chunk of names, by its size.
    private static let lookupSQL = RepeatedSQL(upTo: namesPerLookup) { count in
        """
        SELECT \(SQLiteMarkSyncRecordColumn.selectList) FROM status_records
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

    /// The statements of the transaction `db` is in.
    init(db: Database) {
        self.db = db
    }

    /// One `records/modify`: reads what `reads` names, decides with `decide` once and writes
    /// what it returns.
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

    /// One `zones/modify`: reads what `reads` names, decides with `decide` once and writes what
    /// it returns.
    func modifyZones<T>(_ reads: MarkSyncZonesReads, deciding decide: (MarkSyncZonesState) throws -> (T, MarkSyncZonesWrites)) throws -> T {
        var zones: [MarkSyncZoneKey: StoredMarkSyncZone] = [:]
        for key in reads.zones { zones[key] = try zone(key) }
        var holdings: [MarkSyncZoneKey: MarkSyncUsage] = [:]
        for key in reads.deleting where zones[key] != nil { holdings[key] = try usage(of: key) }
        let (answer, writes) = try decide(MarkSyncZonesState(zones: zones, holdings: holdings, usage: try usage(ofUser: reads.userID)))
        for zone in writes.created { try saveZone(zone) }
        for key in writes.deleted { try deleteZone(key) }
        try addUsage(writes.usage, ofUser: writes.userID)
        return answer
    }

    /// The zone and its records that `selection` picks; nil when the zone does not exist.
    func zone(_ key: MarkSyncZoneKey, records selection: MarkSyncRecordSelection) throws -> (zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord])? {
        guard let zone = try zone(key) else { return nil }
        switch selection {
        case .none: return (zone, [])
        case .named(let names): return (zone, Array(try records(named: names, in: key) { _ in true }.values))
        case .changed(let sequence, let includeDeleted, let limit): return (zone, try changes(in: key, after: sequence, includeDeleted: includeDeleted, limit: limit))
        case .ofType(let type): return (zone, try records(ofType: type, in: key))
        }
    }

    /// The zone, if it exists (its row id kept for the statements of its records).
    func zone(_ key: MarkSyncZoneKey) throws -> StoredMarkSyncZone? {
        guard let row = try SQLiteMarkSyncZoneRow.fetchOne(
            db.cachedStatement(sql: "SELECT id, name, incarnation, last_sequence FROM status_zones WHERE user_id = ? AND container = ? AND environment = ? AND name = ?"),
            arguments: arguments(key)
        ) else { return nil }
        zoneIDs[key] = row.id
        return row.zone(in: key.database)
    }

    /// Up to `limit` zones of `database` whose names sort after `name` (from the first when nil), in
    /// that order.
    func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) throws -> [StoredMarkSyncZone] {
        try SQLiteMarkSyncZoneRow.fetchAll(
            db.cachedStatement(sql: """
                SELECT name, incarnation, last_sequence FROM status_zones
                WHERE user_id = ? AND container = ? AND environment = ? AND name > ? ORDER BY name LIMIT ?
                """),
            arguments: [database.userID, database.container, database.environment, name ?? "", limit]
        ).map { $0.zone(in: database) }
    }

    /// The zones of `database` named `names`: for each name, in order, its zone or nil. The names
    /// go to SQLite as one JSON array, so one statement reads them all and SQLite compares them.
    func zones(in database: MarkSyncDatabaseKey, named names: [String]) throws -> [StoredMarkSyncZone?] {
        var zones = [StoredMarkSyncZone?](repeating: nil, count: names.count)
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: """
                SELECT wanted.key AS position, zone.name, zone.incarnation, zone.last_sequence
                FROM json_each(?) wanted JOIN status_zones zone ON zone.name = wanted.value
                WHERE zone.user_id = ? AND zone.container = ? AND zone.environment = ?
                """),
            arguments: [String(decoding: try JSONEncoder().encode(names), as: UTF8.self), database.userID, database.container, database.environment])
        while let row = try rows.next() {
            zones[row["position"]] = SQLiteMarkSyncZoneRow(row: row).zone(in: database)
        }
        return zones
    }

    /// Creates or updates a zone (its triggers move the database's change history).
    func saveZone(_ zone: StoredMarkSyncZone) throws {
        try db.cachedStatement(sql: """
            INSERT INTO status_zones (user_id, container, environment, name, incarnation, last_sequence) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, container, environment, name) DO UPDATE SET incarnation = excluded.incarnation, last_sequence = excluded.last_sequence
            """).execute(arguments: arguments(zone.key) + [zone.incarnation, zone.lastSequence])
    }

    /// Deletes a zone and every record in it.
    func deleteZone(_ key: MarkSyncZoneKey) throws {
        try db.execute(sql: "DELETE FROM status_zones WHERE user_id = ? AND container = ? AND environment = ? AND name = ?", arguments: arguments(key))
        zoneIDs[key] = nil
    }

    /// The stored records (tombstones included) among `names`, by their names' bytes, each with its
    /// ``StoredMarkSyncRecord/storedBytes``; a record's fields are read only when `readsFields`
    /// answers true for it (given it without them).
    func records(
        named names: [String], in zone: MarkSyncZoneKey, readingFieldsWhen readsFields: (StoredMarkSyncRecord) -> Bool
    ) throws -> [MarkSyncExactName: StoredMarkSyncRecord] {
        guard let zoneID = try zoneID(zone) else { return [:] }
        var found: [MarkSyncExactName: StoredMarkSyncRecord] = [:]
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
                found[MarkSyncExactName(read.record.name)] = readsFields(read.record) ? try read.withFields(from: row) : read.record
            }
        }
        return found
    }

    /// Creates or replaces records (or their tombstones), whose names are all different.
    func saveRecords(_ records: [StoredMarkSyncRecord], in zone: MarkSyncZoneKey) throws {
        guard !records.isEmpty else { return }
        guard let zoneID = try zoneID(zone) else { throw ServerError.storage(.failed("zone \(zone.zoneName) vanished inside its transaction")) }
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

    /// Up to `limit` records changed after `sequence`, oldest change first; tombstones only when
    /// `includeDeleted`.
    func changes(in zone: MarkSyncZoneKey, after sequence: Int64, includeDeleted: Bool, limit: Int) throws -> [StoredMarkSyncRecord] {
        guard let zoneID = try zoneID(zone) else { return [] }
        return try SQLiteMarkSyncRecordRow.records(db.cachedStatement(sql: """
            SELECT \(SQLiteMarkSyncRecordColumn.selectList) FROM status_records
            WHERE zone_id = ? AND sequence > ? AND (? OR deleted = 0) ORDER BY sequence LIMIT ?
            """), arguments: [zoneID, sequence, includeDeleted, limit])
    }

    /// The zone's row id, nil when it does not exist.
    func zoneID(_ key: MarkSyncZoneKey) throws -> Int64? {
        if let id = zoneIDs[key] { return id }
        _ = try zone(key)
        return zoneIDs[key]
    }

    private func arguments(_ key: MarkSyncZoneKey) -> StatementArguments {
        [key.database.userID, key.database.container, key.database.environment, key.zoneName]
    }

}
