import Foundation
import Logging
import MeTubeAPI
import PostgresNIO

/// The statements of one PostgreSQL mark-sync transaction, awaited without blocking a thread: what a
/// request reads and, for a write, what its decision writes.
///
/// Before it reads or writes anything of a user database, it takes the transaction's advisory
/// lock on it (see ``PostgresMarkSyncRepository``). Each statement is answered within
/// ``StorageDeadline/call`` and not past the transaction's end, or its connection is closed (so
/// that the pool replaces it and the advisory lock goes with it) and it fails with
/// ``ServerError/StorageFailure/unavailable(_:)``.
final class PostgresMarkSyncStatements {
    private let connection: PostgresConnection
    private let end: ContinuousClock.Instant
    private let logger: Logger
    private var zoneIDs: [MarkSyncZoneKey: Int64] = [:]
    /// The zones as this transaction last read or wrote them (an entry of nil: known not to
    /// exist); the advisory lock taken before the first read keeps them current.
    private var knownZones: [MarkSyncZoneKey: StoredMarkSyncZone?] = [:]
    private var lockedDatabases: Set<MarkSyncDatabaseKey> = []

    /// The statements of a transaction on `connection` that must all be answered by `end`.
    init(connection: PostgresConnection, end: ContinuousClock.Instant, logger: Logger) {
        self.connection = connection
        self.end = end
        self.logger = logger
    }

    /// Runs `query` and returns its rows; see the type's deadlines.
    @discardableResult
    func execute(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let (connection, logger) = (connection, logger)
        let timeout = max(.zero, min(StorageDeadline.call, end - .now))
        return try await StorageDeadline.run("a statement", within: timeout, onTimeout: { let _: EventLoopFuture<Void> = connection.close() }) {
            try await connection.query(query, logger: logger).collect()
        }
    }

    /// One `records/modify`: reads what `reads` names (the zone first, which takes the advisory
    /// lock), decides with `decide` once, and executes the writes it returns.
    func modify<T>(_ reads: MarkSyncModifyReads, deciding decide: (MarkSyncModifyState) throws -> (T, MarkSyncModifyWrites?)) async throws -> T {
        let zone = try await self.zone(reads.zone)
        var records: [MarkSyncExactName: StoredMarkSyncRecord] = [:]
        if let zone {
            for (stored, data) in try await self.records(named: reads.names, in: reads.zone) {
                var record = stored
                if reads.readsFields(record, zone) { record.fields = try MarkSyncFieldsCodec.fields(stored: data, of: record.name) }
                records[MarkSyncExactName(record.name)] = record
            }
        }
        let (answer, writes) = try decide(MarkSyncModifyState(zone: zone, records: records, usage: try await usage(ofUser: reads.userID)))
        if let writes {
            try await saveZone(writes.zone)
            if !writes.records.isEmpty { try await saveRecords(writes.records, in: writes.zone.key) }
            if writes.usage != .zero { try await addUsage(writes.usage, ofUser: writes.userID) }
        }
        return answer
    }

    /// One `zones/modify`: reads what `reads` names (each zone takes the advisory lock first),
    /// decides with `decide` once, and executes the writes it returns.
    func modifyZones<T>(_ reads: MarkSyncZonesReads, deciding decide: (MarkSyncZonesState) throws -> (T, MarkSyncZonesWrites)) async throws -> T {
        var zones: [MarkSyncZoneKey: StoredMarkSyncZone] = [:]
        for key in reads.zones { zones[key] = try await zone(key) }
        var holdings: [MarkSyncZoneKey: MarkSyncUsage] = [:]
        for key in reads.deleting where zones[key] != nil { holdings[key] = try await usage(of: key) }
        let (answer, writes) = try decide(MarkSyncZonesState(zones: zones, holdings: holdings, usage: try await usage(ofUser: reads.userID)))
        for zone in writes.created { try await saveZone(zone) }
        for key in writes.deleted { try await deleteZone(key) }
        if writes.usage != .zero { try await addUsage(writes.usage, ofUser: writes.userID) }
        return answer
    }

    /// The zone (after the advisory lock) and its records that `selection` picks, with their
    /// fields; nil when the zone does not exist.
    func zone(_ key: MarkSyncZoneKey, records selection: MarkSyncRecordSelection) async throws -> (zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord])? {
        guard let zone = try await zone(key) else { return nil }
        switch selection {
        case .none: return (zone, [])
        case .named(let names): return (zone, try await records(named: names, in: key).map { try Self.withFields($0) })
        case .changed(let sequence, let includeDeleted, let limit): return (zone, try await changes(in: key, after: sequence, includeDeleted: includeDeleted, limit: limit))
        case .ofType(let type): return (zone, try await records(ofType: type, in: key))
        }
    }

    /// Takes the transaction's advisory lock on `database` once.
    private func lock(_ database: MarkSyncDatabaseKey) async throws {
        guard lockedDatabases.insert(database).inserted else { return }
        let name = "metube-status:\(database.userID):\(database.container):\(database.environment)"
        try await execute("SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))")
    }

    private func zone(_ key: MarkSyncZoneKey) async throws -> StoredMarkSyncZone? {
        try await lock(key.database)
        guard let row = try await execute("""
            SELECT id, incarnation, last_sequence FROM status_zones
            WHERE user_id = \(key.database.userID) AND container = \(key.database.container) AND environment = \(key.database.environment) AND name = \(key.zoneName)
            """).first else {
            knownZones[key] = .some(nil)
            return nil
        }
        let (id, incarnation, lastSequence) = try row.decode((Int64, Int64, Int64).self)
        zoneIDs[key] = id
        let zone = StoredMarkSyncZone(key: key, incarnation: incarnation, lastSequence: lastSequence)
        knownZones[key] = zone
        return zone
    }

    /// The zones of `database` named `names` (after the advisory lock): for each name, in order,
    /// its zone or nil; one statement reads them all, each name with its position.
    func zones(in database: MarkSyncDatabaseKey, named names: [String]) async throws -> [StoredMarkSyncZone?] {
        try await lock(database)
        var zones = [StoredMarkSyncZone?](repeating: nil, count: names.count)
        for row in try await execute("""
            SELECT wanted.position, zone.incarnation, zone.last_sequence
            FROM unnest(\(names)::text[]) WITH ORDINALITY AS wanted(name, position) JOIN status_zones zone ON zone.name = wanted.name
            WHERE zone.user_id = \(database.userID) AND zone.container = \(database.container) AND zone.environment = \(database.environment)
            """) {
            let (position, incarnation, lastSequence) = try row.decode((Int, Int64, Int64).self)
            let index = position - 1
            zones[index] = StoredMarkSyncZone(key: MarkSyncZoneKey(database: database, zoneName: names[index]), incarnation: incarnation, lastSequence: lastSequence)
        }
        return zones
    }

    func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) async throws -> [StoredMarkSyncZone] {
        try await lock(database)
        return try await execute("""
            SELECT name, incarnation, last_sequence FROM status_zones
            WHERE user_id = \(database.userID) AND container = \(database.container) AND environment = \(database.environment) AND name > \(name ?? "")
            ORDER BY name LIMIT \(limit)
            """).map { row in
            let (name, incarnation, lastSequence) = try row.decode((String, Int64, Int64).self)
            return StoredMarkSyncZone(key: MarkSyncZoneKey(database: database, zoneName: name), incarnation: incarnation, lastSequence: lastSequence)
        }
    }

    /// Creates or updates `zone`, reading its row first only when this transaction has not.
    private func saveZone(_ zone: StoredMarkSyncZone) async throws {
        let key = zone.key
        let stored: StoredMarkSyncZone?
        if let known = knownZones[key] { stored = known } else { stored = try await self.zone(key) }
        guard let stored else {
            let position = try await nextChangePosition(key.database)
            let id = try await execute("""
                INSERT INTO status_zones (user_id, container, environment, name, incarnation, last_sequence, changed_at)
                VALUES (\(key.database.userID), \(key.database.container), \(key.database.environment), \(key.zoneName), \(zone.incarnation), \(zone.lastSequence), \(position))
                RETURNING id
                """).first?.decode(Int64.self)
            zoneIDs[key] = id
            knownZones[key] = zone
            try await execute("""
                DELETE FROM status_zone_deletions
                WHERE user_id = \(key.database.userID) AND container = \(key.database.container) AND environment = \(key.database.environment) AND name = \(key.zoneName)
                """)
            return
        }
        guard stored.incarnation != zone.incarnation || stored.lastSequence != zone.lastSequence, let id = zoneIDs[key] else { return }
        let position = try await nextChangePosition(key.database)
        try await execute("""
            UPDATE status_zones SET incarnation = \(zone.incarnation), last_sequence = \(zone.lastSequence), changed_at = \(position) WHERE id = \(id)
            """)
        knownZones[key] = zone
    }

    private func deleteZone(_ key: MarkSyncZoneKey) async throws {
        try await lock(key.database)
        let deleted = try await execute("""
            DELETE FROM status_zones
            WHERE user_id = \(key.database.userID) AND container = \(key.database.container) AND environment = \(key.database.environment) AND name = \(key.zoneName)
            RETURNING id
            """)
        zoneIDs[key] = nil
        knownZones[key] = .some(nil)
        guard !deleted.isEmpty else { return }
        let position = try await nextChangePosition(key.database)
        try await execute("""
            INSERT INTO status_zone_deletions (user_id, container, environment, name, changed_at)
            VALUES (\(key.database.userID), \(key.database.container), \(key.database.environment), \(key.zoneName), \(position))
            ON CONFLICT (user_id, container, environment, name) DO UPDATE SET changed_at = excluded.changed_at
            """)
    }

    private func records(named names: [String], in zone: MarkSyncZoneKey) async throws -> [(StoredMarkSyncRecord, Data)] {
        guard let zoneID = try await zoneID(zone) else { return [] }
        return try await execute("""
            SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
            WHERE zone_id = \(zoneID) AND name = ANY(\(names)::text[])
            """).map(storedRecord)
    }

    private func saveRecords(_ records: [StoredMarkSyncRecord], in zone: MarkSyncZoneKey) async throws {
        guard let zoneID = try await zoneID(zone) else { throw ServerError.storage(.failed("zone \(zone.zoneName) vanished inside its transaction")) }
        // One statement for all of them, each column sent as an array.
        let fields = try records.map { ByteBuffer(bytes: try $0.storedFields ?? MarkSyncFieldsCodec.stored($0.fields)) }
        try await execute("""
            INSERT INTO status_records (zone_id, name, type, fields, sequence, created_millis, modified_millis, deleted)
            SELECT \(zoneID), * FROM unnest(\(records.map(\.name))::text[], \(records.map(\.type))::text[], \(fields)::bytea[],
                \(records.map(\.sequence))::bigint[], \(records.map(\.createdMillis))::bigint[], \(records.map(\.modifiedMillis))::bigint[],
                \(records.map(\.isDeleted))::boolean[])
            ON CONFLICT (zone_id, name) DO UPDATE SET type = excluded.type, fields = excluded.fields, sequence = excluded.sequence,
                created_millis = excluded.created_millis, modified_millis = excluded.modified_millis, deleted = excluded.deleted
            """)
    }

    private func usage(of zone: MarkSyncZoneKey) async throws -> MarkSyncUsage {
        guard let zoneID = try await zoneID(zone) else { return .zero }
        let row = try await execute("""
            SELECT count(*) FILTER (WHERE NOT deleted), coalesce(sum(\(unescaped: Self.bytesSQL)), 0)::bigint FROM status_records WHERE zone_id = \(zoneID)
            """).first
        guard let (records, bytes) = try row?.decode((Int64, Int64).self) else { return .zero }
        return MarkSyncUsage(records: records, bytes: bytes)
    }

    /// What the user holds, read after the advisory lock of the database the transaction
    /// touches: exact for the writes of one database, which run one after another; two
    /// databases of one user (another container or environment) written at the same instant may
    /// each take the last of the quota.
    private func usage(ofUser userID: Int64) async throws -> MarkSyncUserUsage {
        guard let row = try await execute(
            "SELECT zones, records, bytes, max_zones, max_records, max_bytes FROM status_usage WHERE user_id = \(userID)").first
        else { return MarkSyncUserUsage() }
        let (zones, records, bytes, maxZones, maxRecords, maxBytes) = try row.decode((Int64, Int64, Int64, Int64?, Int64?, Int64?).self)
        return MarkSyncUserUsage(
            usage: MarkSyncUsage(zones: zones, records: records, bytes: bytes),
            setting: MarkSyncQuotaSetting(zones: maxZones, records: maxRecords, bytes: maxBytes))
    }

    private func addUsage(_ delta: MarkSyncUsage, ofUser userID: Int64) async throws {
        try await execute("""
            INSERT INTO status_usage (user_id, zones, records, bytes) VALUES (\(userID), \(delta.zones), \(delta.records), \(delta.bytes))
            ON CONFLICT (user_id) DO UPDATE SET zones = status_usage.zones + excluded.zones, records = status_usage.records + excluded.records,
                bytes = status_usage.bytes + excluded.bytes
            """)
    }

    /// A record row's ``MarkSyncRecordBytes`` in PostgreSQL.
    static let bytesSQL = MarkSyncRecordBytes.sql { "octet_length(\($0))" }

    private func changes(in zone: MarkSyncZoneKey, after sequence: Int64, includeDeleted: Bool, limit: Int) async throws -> [StoredMarkSyncRecord] {
        guard let zoneID = try await zoneID(zone) else { return [] }
        return try await execute("""
            SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
            WHERE zone_id = \(zoneID) AND sequence > \(sequence) AND (\(includeDeleted) OR NOT deleted) ORDER BY sequence LIMIT \(limit)
            """).map(record)
    }

    private func records(ofType type: String, in zone: MarkSyncZoneKey) async throws -> [StoredMarkSyncRecord] {
        guard let zoneID = try await zoneID(zone) else { return [] }
        return try await execute("""
            SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
            WHERE zone_id = \(zoneID) AND type = \(type) AND NOT deleted
            """).map(record)
    }

    func changePosition(_ database: MarkSyncDatabaseKey) async throws -> Int64 {
        try await lock(database)
        return try await execute("""
            SELECT value FROM status_database_counters
            WHERE user_id = \(database.userID) AND container = \(database.container) AND environment = \(database.environment)
            """).first?.decode(Int64.self) ?? 0
    }

    func zoneChanges(in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int) async throws -> [MarkSyncZoneChange] {
        try await lock(database)
        let (user, container, environment) = (database.userID, database.container, database.environment)
        return try await execute("""
            SELECT name, incarnation, last_sequence, changed_at, false FROM status_zones
            WHERE user_id = \(user) AND container = \(container) AND environment = \(environment) AND changed_at > \(position)
            UNION ALL
            SELECT name, 0, 0, changed_at, true FROM status_zone_deletions
            WHERE \(includeDeleted) AND user_id = \(user) AND container = \(container) AND environment = \(environment) AND changed_at > \(position)
            ORDER BY 4 LIMIT \(limit)
            """).map { row in
            let (name, incarnation, lastSequence, changedAt, deleted) = try row.decode((String, Int64, Int64, Int64, Bool).self)
            return MarkSyncZoneChange(
                zone: StoredMarkSyncZone(key: MarkSyncZoneKey(database: database, zoneName: name), incarnation: incarnation, lastSequence: lastSequence),
                position: changedAt, isDeleted: deleted)
        }
    }

    /// The next position of `database`'s change history, taken in this transaction.
    private func nextChangePosition(_ database: MarkSyncDatabaseKey) async throws -> Int64 {
        try await execute("""
            INSERT INTO status_database_counters (user_id, container, environment, value)
            VALUES (\(database.userID), \(database.container), \(database.environment), 1)
            ON CONFLICT (user_id, container, environment) DO UPDATE SET value = status_database_counters.value + 1
            RETURNING value
            """).first?.decode(Int64.self) ?? 0
    }

    private func zoneID(_ key: MarkSyncZoneKey) async throws -> Int64? {
        if let id = zoneIDs[key] { return id }
        _ = try await zone(key)
        return zoneIDs[key]
    }

    /// The record in `row`, with its fields.
    private func record(_ row: PostgresRow) throws -> StoredMarkSyncRecord {
        try Self.withFields(storedRecord(row))
    }

    /// The record of a `(record, stored fields)` pair, with its fields decoded.
    private static func withFields(_ stored: (StoredMarkSyncRecord, Data)) throws -> StoredMarkSyncRecord {
        var (record, data) = stored
        record.fields = try MarkSyncFieldsCodec.fields(stored: data, of: record.name)
        return record
    }

    /// The record in `row` without its fields, beside its stored fields.
    private func storedRecord(_ row: PostgresRow) throws -> (StoredMarkSyncRecord, Data) {
        let (name, type, data, sequence, created, modified, deleted) = try row.decode((String, String, Data, Int64, Int64, Int64, Bool).self)
        let record = StoredMarkSyncRecord(
            name: name, type: type, fields: [:], sequence: sequence, createdMillis: created, modifiedMillis: modified, isDeleted: deleted,
            storedBytes: MarkSyncRecordBytes.of(name: name, type: type, storedFieldBytes: data.count))
        return (record, data)
    }
}
