import Foundation
import GRDB

/// The columns of a `status_records` row as the mark-sync queries select them, in order
/// (``selectList``): a row is read at the place the select list gave each column, so the two
/// cannot drift apart and a page of 200 records costs no lookup by name.
enum SQLiteMarkSyncRecordColumn: Int, CaseIterable {
    case name, type, fields, sequence, createdMillis, modifiedMillis, deleted, fieldBytes

    /// The column's expression in the select list.
    var expression: String {
        switch self {
        case .name: "name"
        case .type: "type"
        case .fields: "fields"
        case .sequence: "sequence"
        case .createdMillis: "created_millis"
        case .modifiedMillis: "modified_millis"
        case .deleted: "deleted"
        case .fieldBytes: "length(fields)"
        }
    }

    /// Every column, in order, for a `SELECT`.
    static let selectList = allCases.map(\.expression).joined(separator: ", ")
}

/// A `status_records` row as the mark-sync queries select it (``SQLiteMarkSyncRecordColumn``);
/// its fields are decoded only when asked for (``withFields(from:)``).
struct SQLiteMarkSyncRecordRow: FetchableRecord {
    /// The record without its fields, with its ``StoredMarkSyncRecord/storedBytes``.
    let record: StoredMarkSyncRecord

    init(row: Row) {
        let name: String = row[SQLiteMarkSyncRecordColumn.name.rawValue]
        let type: String = row[SQLiteMarkSyncRecordColumn.type.rawValue]
        record = StoredMarkSyncRecord(
            name: name, type: type, fields: [:], sequence: row[SQLiteMarkSyncRecordColumn.sequence.rawValue],
            createdMillis: row[SQLiteMarkSyncRecordColumn.createdMillis.rawValue], modifiedMillis: row[SQLiteMarkSyncRecordColumn.modifiedMillis.rawValue],
            isDeleted: row[SQLiteMarkSyncRecordColumn.deleted.rawValue],
            storedBytes: MarkSyncRecordBytes.of(name: name, type: type, storedFieldBytes: row[SQLiteMarkSyncRecordColumn.fieldBytes.rawValue]))
    }

    /// The record with its fields, decoded from `row` (the row this was read from).
    func withFields(from row: Row) throws -> StoredMarkSyncRecord {
        var record = record
        record.fields = try MarkSyncFieldsCodec.fields(stored: row[SQLiteMarkSyncRecordColumn.fields.rawValue], of: record.name)
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
