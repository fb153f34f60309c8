import Foundation
import MeTubeAPI

/// A ``StatusRepository`` in an SQLite file.
///
/// The status tables live in their own file (the migration list of a file must be one
/// program part's), next to the hub's.
public final class SQLiteStatusRepository: StatusRepository {
    private let database: SQLiteDatabase

    /// The schema, append-only.
    static let migrations = [
        SQLiteMigration("status-001-users-zones-records", sql: """
            CREATE TABLE status_users (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                token_hash TEXT NOT NULL UNIQUE
            );
            CREATE TABLE status_zones (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES status_users(id),
                container TEXT NOT NULL,
                environment TEXT NOT NULL,
                name TEXT NOT NULL,
                incarnation INTEGER NOT NULL,
                last_sequence INTEGER NOT NULL,
                UNIQUE (user_id, container, environment, name)
            );
            CREATE TABLE status_records (
                zone_id INTEGER NOT NULL REFERENCES status_zones(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                type TEXT NOT NULL,
                fields BLOB NOT NULL,
                sequence INTEGER NOT NULL,
                created_millis INTEGER NOT NULL,
                modified_millis INTEGER NOT NULL,
                deleted INTEGER NOT NULL,
                PRIMARY KEY (zone_id, name)
            ) WITHOUT ROWID;
            CREATE INDEX status_records_by_sequence ON status_records (zone_id, sequence);
            """),
    ]

    /// Opens (creating if needed) the status database at `path`.
    public init(path: String) throws {
        database = try SQLiteDatabase(path: path, migrations: Self.migrations)
    }

    public func addUser(name: String, tokenHash: String) throws -> StatusUser {
        do {
            return try database.write { connection in
                try connection.run("INSERT INTO status_users (name, token_hash) VALUES (?, ?)", [.text(name), .text(tokenHash)])
                return StatusUser(id: connection.lastInsertRowID, name: name)
            }
        } catch let error as SQLiteError where error.isConstraintViolation {
            throw StatusErrorBody(.exists, "User '\(name)' already exists")
        }
    }

    public func user(tokenHash: String) throws -> StatusUser? {
        try database.read { connection in
            try connection.query("SELECT id, name FROM status_users WHERE token_hash = ?", [.text(tokenHash)]) {
                StatusUser(id: $0.int64(0), name: $0.text(1))
            }.first
        }
    }

    public func transaction<T: Sendable>(_ body: @Sendable (any StatusTransaction) throws -> T) throws -> T {
        try database.write { connection in try body(SQLiteStatusTransaction(connection: connection)) }
    }
}

/// The reads and writes of one SQLite transaction over the status tables.
final class SQLiteStatusTransaction: StatusTransaction {
    private let connection: SQLiteConnection
    private var zoneIDs: [StatusZoneKey: Int64] = [:]
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    func zone(_ key: StatusZoneKey) throws -> StoredStatusZone? {
        try connection.query(
            "SELECT id, incarnation, last_sequence FROM status_zones WHERE user_id = ? AND container = ? AND environment = ? AND name = ?",
            bindings(key)
        ) { row in
            zoneIDs[key] = row.int64(0)
            return StoredStatusZone(key: key, incarnation: row.int64(1), lastSequence: row.int64(2))
        }.first
    }

    func zones(in database: StatusDatabaseKey) throws -> [StoredStatusZone] {
        try connection.query(
            "SELECT name, incarnation, last_sequence FROM status_zones WHERE user_id = ? AND container = ? AND environment = ? ORDER BY name",
            [.integer(database.userID), .text(database.container), .text(database.environment)]
        ) { row in
            StoredStatusZone(key: StatusZoneKey(database: database, zoneName: row.text(0)), incarnation: row.int64(1), lastSequence: row.int64(2))
        }
    }

    func saveZone(_ zone: StoredStatusZone) throws {
        try connection.run("""
            INSERT INTO status_zones (user_id, container, environment, name, incarnation, last_sequence) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, container, environment, name) DO UPDATE SET incarnation = excluded.incarnation, last_sequence = excluded.last_sequence
            """, bindings(zone.key) + [.integer(zone.incarnation), .integer(zone.lastSequence)])
    }

    func deleteZone(_ key: StatusZoneKey) throws {
        try connection.run("DELETE FROM status_zones WHERE user_id = ? AND container = ? AND environment = ? AND name = ?", bindings(key))
        zoneIDs[key] = nil
    }

    func records(named names: [String], in zone: StatusZoneKey) throws -> [String: StoredStatusRecord] {
        guard let zoneID = try zoneID(zone) else { return [:] }
        var found: [String: StoredStatusRecord] = [:]
        for name in names {
            let rows = try connection.query(
                "SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records WHERE zone_id = ? AND name = ?",
                [.integer(zoneID), .text(name)], row: record)
            if let record = rows.first { found[name] = record }
        }
        return found
    }

    func saveRecord(_ record: StoredStatusRecord, in zone: StatusZoneKey) throws {
        guard let zoneID = try zoneID(zone) else { throw StatusErrorBody(.zoneNotFound, "Zone '\(zone.zoneName)' does not exist") }
        try connection.run("""
            INSERT OR REPLACE INTO status_records (zone_id, name, type, fields, sequence, created_millis, modified_millis, deleted)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                .integer(zoneID), .text(record.name), .text(record.type), .blob(Array(try encoder.encode(record.fields))),
                .integer(record.sequence), .integer(record.createdMillis), .integer(record.modifiedMillis), .integer(record.isDeleted ? 1 : 0),
            ])
    }

    func changes(in zone: StatusZoneKey, after sequence: Int64, includeDeleted: Bool, limit: Int) throws -> [StoredStatusRecord] {
        guard let zoneID = try zoneID(zone) else { return [] }
        return try connection.query("""
            SELECT name, type, fields, sequence, created_millis, modified_millis, deleted FROM status_records
            WHERE zone_id = ? AND sequence > ? AND (? OR deleted = 0) ORDER BY sequence LIMIT ?
            """, [.integer(zoneID), .integer(sequence), .integer(includeDeleted ? 1 : 0), .integer(Int64(limit))], row: record)
    }

    private func zoneID(_ key: StatusZoneKey) throws -> Int64? {
        if let id = zoneIDs[key] { return id }
        _ = try zone(key)
        return zoneIDs[key]
    }

    private func bindings(_ key: StatusZoneKey) -> [SQLiteValue] {
        [.integer(key.database.userID), .text(key.database.container), .text(key.database.environment), .text(key.zoneName)]
    }

    private func record(_ row: SQLiteStatement) throws(SQLiteError) -> StoredStatusRecord {
        let fields: [String: StatusField]
        do {
            fields = try decoder.decode([String: StatusField].self, from: Data(row.blob(2)))
        } catch {
            throw SQLiteError(code: 1, message: "record \(row.text(0)) holds unreadable fields: \(error)", context: "reading status_records")
        }
        return StoredStatusRecord(
            name: row.text(0), type: row.text(1), fields: fields, sequence: row.int64(3),
            createdMillis: row.int64(4), modifiedMillis: row.int64(5), isDeleted: row.int64(6) != 0)
    }
}
