import Foundation
import Dispatch
import Logging
import MeTubeAPI
import PostgresNIO
import Synchronization

/// The reads and writes of one PostgreSQL transaction over the status tables, on a thread that
/// may wait (see ``PostgresStatusRepository``).
final class PostgresStatusTransaction: StatusTransaction {
    private let connection: PostgresConnection
    private let end: ContinuousClock.Instant
    private let logger: Logger
    private var zoneIDs: [StatusZoneKey: Int64] = [:]
    private var lockedDatabases: Set<StatusDatabaseKey> = []

    /// A transaction on `connection` whose statements must all be answered by `end`.
    init(connection: PostgresConnection, end: ContinuousClock.Instant, logger: Logger) {
        self.connection = connection
        self.end = end
        self.logger = logger
    }

    /// Runs `query` and waits for its rows at most ``StorageDeadline/call`` and not past the
    /// transaction's end; then closes the connection and throws
    /// ``ServerError/unavailable(_:retryAfter:)``.
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> [PostgresRow] {
        let answer = StatementAnswer()
        connection.query(query, logger: logger).whenComplete(answer.receive)
        let timeout = max(.zero, min(StorageDeadline.call, end - .now))
        guard let result = answer.result(within: timeout) else {
            let _: EventLoopFuture<Void> = connection.close()
            throw StorageDeadline.expired("a statement", after: timeout)
        }
        return try result.get().rows
    }

    /// Takes the transaction's advisory lock on `database` once; see ``PostgresStatusRepository``.
    private func lock(_ database: StatusDatabaseKey) throws {
        guard lockedDatabases.insert(database).inserted else { return }
        let name = "metube-status:\(database.userID):\(database.container):\(database.environment)"
        try execute("SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))")
    }

    func zone(_ key: StatusZoneKey) throws -> StoredStatusZone? {
        try lock(key.database)
        guard let row = try execute("""
            SELECT id, incarnation, last_sequence FROM status_zones
            WHERE user_id = \(key.database.userID) AND container = \(key.database.container) AND environment = \(key.database.environment) AND name = \(key.zoneName)
            """).first else { return nil }
        let (id, incarnation, lastSequence) = try row.decode((Int64, Int64, Int64).self)
        zoneIDs[key] = id
        return StoredStatusZone(key: key, incarnation: incarnation, lastSequence: lastSequence)
    }

    func zones(in database: StatusDatabaseKey) throws -> [StoredStatusZone] {
        try lock(database)
        return try execute("""
            SELECT name, incarnation, last_sequence FROM status_zones
            WHERE user_id = \(database.userID) AND container = \(database.container) AND environment = \(database.environment) ORDER BY name
            """).map { row in
            let (name, incarnation, lastSequence) = try row.decode((String, Int64, Int64).self)
            return StoredStatusZone(key: StatusZoneKey(database: database, zoneName: name), incarnation: incarnation, lastSequence: lastSequence)
        }
    }

    func saveZone(_ zone: StoredStatusZone) throws {
        let key = zone.key
        guard let stored = try self.zone(key) else {
            let position = try nextChangePosition(key.database)
            let id = try execute("""
                INSERT INTO status_zones (user_id, container, environment, name, incarnation, last_sequence, changed_at)
                VALUES (\(key.database.userID), \(key.database.container), \(key.database.environment), \(key.zoneName), \(zone.incarnation), \(zone.lastSequence), \(position))
                RETURNING id
                """).first?.decode(Int64.self)
            zoneIDs[key] = id
            try execute("""
                DELETE FROM status_zone_deletions
                WHERE user_id = \(key.database.userID) AND container = \(key.database.container) AND environment = \(key.database.environment) AND name = \(key.zoneName)
                """)
            return
        }
        guard stored.incarnation != zone.incarnation || stored.lastSequence != zone.lastSequence, let id = zoneIDs[key] else { return }
        let position = try nextChangePosition(key.database)
        try execute("""
            UPDATE status_zones SET incarnation = \(zone.incarnation), last_sequence = \(zone.lastSequence), changed_at = \(position) WHERE id = \(id)
            """)
    }

    func deleteZone(_ key: StatusZoneKey) throws {
        try lock(key.database)
        let deleted = try execute("""
            DELETE FROM status_zones
            WHERE user_id = \(key.database.userID) AND container = \(key.database.container) AND environment = \(key.database.environment) AND name = \(key.zoneName)
            RETURNING id
            """)
        zoneIDs[key] = nil
        guard !deleted.isEmpty else { return }
        let position = try nextChangePosition(key.database)
        try execute("""
            INSERT INTO status_zone_deletions (user_id, container, environment, name, changed_at)
            VALUES (\(key.database.userID), \(key.database.container), \(key.database.environment), \(key.zoneName), \(position))
            ON CONFLICT (user_id, container, environment, name) DO UPDATE SET changed_at = excluded.changed_at
            """)
    }

    func records(
        named names: [String], in zone: StatusZoneKey, readingFieldsWhen readsFields: (StoredStatusRecord) -> Bool
    ) throws -> [String: StoredStatusRecord] {
        guard let zoneID = try zoneID(zone) else { return [:] }
        var found: [String: StoredStatusRecord] = [:]
        for row in try execute("""
            SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
            WHERE zone_id = \(zoneID) AND name = ANY(\(names)::text[])
            """) {
            let record = try record(row, readingFieldsWhen: readsFields)
            found[record.name] = record
        }
        return found
    }

    func saveRecords(_ records: [StoredStatusRecord], in zone: StatusZoneKey) throws {
        guard !records.isEmpty else { return }
        guard let zoneID = try zoneID(zone) else { throw ServerError.storage("zone \(zone.zoneName) vanished inside its transaction") }
        // One statement for all of them, each column sent as an array.
        let fields = try records.map { ByteBuffer(bytes: try StatusFieldsCodec.stored($0.fields)) }
        try execute("""
            INSERT INTO status_records (zone_id, name, type, fields, sequence, created_millis, modified_millis, deleted)
            SELECT \(zoneID), * FROM unnest(\(records.map(\.name))::text[], \(records.map(\.type))::text[], \(fields)::bytea[],
                \(records.map(\.sequence))::bigint[], \(records.map(\.createdMillis))::bigint[], \(records.map(\.modifiedMillis))::bigint[],
                \(records.map(\.isDeleted))::boolean[])
            ON CONFLICT (zone_id, name) DO UPDATE SET type = excluded.type, fields = excluded.fields, sequence = excluded.sequence,
                created_millis = excluded.created_millis, modified_millis = excluded.modified_millis, deleted = excluded.deleted
            """)
    }

    func changes(in zone: StatusZoneKey, after sequence: Int64, includeDeleted: Bool, limit: Int) throws -> [StoredStatusRecord] {
        guard let zoneID = try zoneID(zone) else { return [] }
        return try execute("""
            SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
            WHERE zone_id = \(zoneID) AND sequence > \(sequence) AND (\(includeDeleted) OR NOT deleted) ORDER BY sequence LIMIT \(limit)
            """).map(record)
    }

    func records(ofType type: String, in zone: StatusZoneKey) throws -> [StoredStatusRecord] {
        guard let zoneID = try zoneID(zone) else { return [] }
        return try execute("""
            SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
            WHERE zone_id = \(zoneID) AND type = \(type) AND NOT deleted
            """).map(record)
    }

    func databaseChangePosition(_ database: StatusDatabaseKey) throws -> Int64 {
        try lock(database)
        return try execute("""
            SELECT value FROM status_database_counters
            WHERE user_id = \(database.userID) AND container = \(database.container) AND environment = \(database.environment)
            """).first?.decode(Int64.self) ?? 0
    }

    func zoneChanges(in database: StatusDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int) throws -> [StatusZoneChange] {
        try lock(database)
        let (user, container, environment) = (database.userID, database.container, database.environment)
        return try execute("""
            SELECT name, incarnation, last_sequence, changed_at, false FROM status_zones
            WHERE user_id = \(user) AND container = \(container) AND environment = \(environment) AND changed_at > \(position)
            UNION ALL
            SELECT name, 0, 0, changed_at, true FROM status_zone_deletions
            WHERE \(includeDeleted) AND user_id = \(user) AND container = \(container) AND environment = \(environment) AND changed_at > \(position)
            ORDER BY 4 LIMIT \(limit)
            """).map { row in
            let (name, incarnation, lastSequence, changedAt, deleted) = try row.decode((String, Int64, Int64, Int64, Bool).self)
            return StatusZoneChange(
                zone: StoredStatusZone(key: StatusZoneKey(database: database, zoneName: name), incarnation: incarnation, lastSequence: lastSequence),
                position: changedAt, isDeleted: deleted)
        }
    }

    /// The next position of `database`'s change history, taken in this transaction.
    private func nextChangePosition(_ database: StatusDatabaseKey) throws -> Int64 {
        try execute("""
            INSERT INTO status_database_counters (user_id, container, environment, value)
            VALUES (\(database.userID), \(database.container), \(database.environment), 1)
            ON CONFLICT (user_id, container, environment) DO UPDATE SET value = status_database_counters.value + 1
            RETURNING value
            """).first?.decode(Int64.self) ?? 0
    }

    private func zoneID(_ key: StatusZoneKey) throws -> Int64? {
        if let id = zoneIDs[key] { return id }
        _ = try zone(key)
        return zoneIDs[key]
    }

    private func record(_ row: PostgresRow) throws -> StoredStatusRecord {
        try record(row) { _ in true }
    }

    /// The record in `row`; its fields are read when `readsFields` answers true for it.
    private func record(_ row: PostgresRow, readingFieldsWhen readsFields: (StoredStatusRecord) -> Bool) throws -> StoredStatusRecord {
        let (name, type, data, sequence, created, modified, deleted) = try row.decode((String, String, Data, Int64, Int64, Int64, Bool).self)
        var record = StoredStatusRecord(
            name: name, type: type, fields: [:], sequence: sequence, createdMillis: created, modifiedMillis: modified, isDeleted: deleted)
        guard readsFields(record) else { return record }
        record.fields = try StatusFieldsCodec.fields(stored: data, of: name)
        return record
    }
}

/// The answer to one statement, handed from the event loop to the thread that waits for it.
private final class StatementAnswer: Sendable {
    private let received = DispatchSemaphore(value: 0)
    private let slot = Mutex<Result<PostgresQueryResult, any Error>?>(nil)

    /// Keeps the answer and wakes the waiting thread.
    func receive(_ result: Result<PostgresQueryResult, any Error>) {
        slot.withLock { $0 = result }
        received.signal()
    }

    /// The answer, or nil when none came within `timeout`.
    func result(within timeout: Duration) -> Result<PostgresQueryResult, any Error>? {
        let nanoseconds = Int(timeout.components.seconds) * 1_000_000_000 + Int(timeout.components.attoseconds / 1_000_000_000)
        guard received.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        return slot.withLock { $0 }
    }
}
