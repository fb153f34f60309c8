import Foundation
import GRDB

/// A `status_records` row as the status queries select it (``columns``), read by column name;
/// its fields are decoded only when asked for (``withFields(from:)``).
struct SQLiteMarkSyncRecordRow: FetchableRecord {
    /// The columns the queries select, `fields` included for ``withFields(from:)``.
    static let columns = "name, type, fields, sequence, created_millis, modified_millis, deleted, length(fields) AS field_bytes"

    /// The record without its fields, with its ``StoredMarkSyncRecord/storedBytes``.
    let record: StoredMarkSyncRecord

    init(row: Row) {
        let name: String = row["name"]
        let type: String = row["type"]
        record = StoredMarkSyncRecord(
            name: name, type: type, fields: [:], sequence: row["sequence"], createdMillis: row["created_millis"], modifiedMillis: row["modified_millis"],
            isDeleted: row["deleted"], storedBytes: MarkSyncRecordBytes.of(name: name, type: type, storedFieldBytes: row["field_bytes"]))
    }

    /// The record with its fields, decoded from `row` (the row this was read from).
    func withFields(from row: Row) throws -> StoredMarkSyncRecord {
        var record = record
        record.fields = try MarkSyncFieldsCodec.fields(stored: row["fields"], of: record.name)
        return record
    }

    /// The records of `statement`'s rows, with their fields.
    static func records(_ statement: Statement, arguments: StatementArguments) throws -> [StoredMarkSyncRecord] {
        try Array(Row.fetchCursor(statement, arguments: arguments).map { row in try SQLiteMarkSyncRecordRow(row: row).withFields(from: row) })
    }
}

/// A `status_zones` row (`name, incarnation, last_sequence`, and `id` where selected), read by
/// column name.
struct SQLiteMarkSyncZoneRow: FetchableRecord {
    /// The zone's row id, when selected.
    let id: Int64?
    /// The zone's name.
    let name: String
    /// The zone's incarnation.
    let incarnation: Int64
    /// The sequence of the zone's latest change.
    let lastSequence: Int64

    init(row: Row) {
        id = row["id"]
        name = row["name"]
        incarnation = row["incarnation"]
        lastSequence = row["last_sequence"]
    }

    /// The zone, a zone of `database`.
    func zone(in database: MarkSyncDatabaseKey) -> StoredMarkSyncZone {
        StoredMarkSyncZone(key: MarkSyncZoneKey(database: database, zoneName: name), incarnation: incarnation, lastSequence: lastSequence)
    }
}
