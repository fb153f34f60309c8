import Foundation
import MeTubeAPI

/// A status transaction's reads and writes on PostgreSQL, worked out without waiting for the
/// database: a read is answered from the rows fetched so far, and a read not fetched yet ends the
/// body with ``PostgresMarkSyncRead/Missing``, so that ``PostgresMarkSyncRepository`` fetches it (with
/// async queries, see ``PostgresMarkSyncStatements``) and runs the body again from the start. The
/// body's writes are kept in order and executed once a run of the body got through.
///
/// A body therefore runs once per read it makes, plus once; it must let this transaction's
/// errors through (``MarkSyncService`` bodies do) and may differ between runs only in values it
/// writes (a new zone's incarnation), since only its last run's writes and answer count.
final class PostgresMarkSyncTransaction: MarkSyncTransaction {
    private let answers: [PostgresMarkSyncRead: PostgresMarkSyncAnswer]
    /// The writes of this run of the body, in order.
    private(set) var writes: [PostgresMarkSyncWrite] = []

    /// A run of a body that sees the database as `answers` hold it.
    init(answers: [PostgresMarkSyncRead: PostgresMarkSyncAnswer]) {
        self.answers = answers
    }

    func zone(_ key: MarkSyncZoneKey) throws -> StoredMarkSyncZone? {
        if let written = writtenZone(key) { return written }
        guard case .zone(let zone) = try answer(.zone(key)) else { throw Self.mismatch }
        return zone
    }

    func zones(in database: MarkSyncDatabaseKey, after name: String?, limit: Int) throws -> [StoredMarkSyncZone] {
        guard case .zones(let stored) = try answer(.zones(database, after: name, limit: limit)) else { throw Self.mismatch }
        guard writes.contains(where: { $0.zoneKey?.database == database }) else { return stored }
        var zones = Dictionary(stored.map { ($0.key, $0) }) { first, _ in first }
        let isOnPage = { (key: MarkSyncZoneKey) in name.map { Array($0.utf8).lexicographicallyPrecedes(key.zoneName.utf8) } ?? true }
        for write in writes where write.zoneKey?.database == database {
            switch write {
            case .saveZone(let zone) where isOnPage(zone.key): zones[zone.key] = zone
            case .deleteZone(let key): zones[key] = nil
            case .saveZone, .saveRecords, .addUsage: break
            }
        }
        return Array(zones.values.sorted { Array($0.key.zoneName.utf8).lexicographicallyPrecedes($1.key.zoneName.utf8) }.prefix(limit))
    }

    func saveZone(_ zone: StoredMarkSyncZone) throws {
        writes.append(.saveZone(zone))
    }

    func deleteZone(_ key: MarkSyncZoneKey) throws {
        writes.append(.deleteZone(key))
    }

    func usage(of zone: MarkSyncZoneKey) throws -> MarkSyncUsage {
        if try holdsNoRecords(zone) { return .zero }
        guard case .usage(let usage) = try answer(.zoneUsage(zone)) else { throw Self.mismatch }
        return usage
    }

    func usage(ofUser userID: Int64) throws -> MarkSyncUserUsage {
        guard case .userUsage(let usage) = try answer(.userUsage(userID)) else { throw Self.mismatch }
        return usage
    }

    func addUsage(_ delta: MarkSyncUsage, ofUser userID: Int64) throws {
        guard delta != .zero else { return }
        writes.append(.addUsage(delta, userID: userID))
    }

    func records(
        named names: [String], in zone: MarkSyncZoneKey, readingFieldsWhen readsFields: (StoredMarkSyncRecord) -> Bool
    ) throws -> [String: StoredMarkSyncRecord] {
        if try holdsNoRecords(zone) { return [:] }
        guard case .storedRecords(let rows) = try answer(.namedRecords(names, zone: zone)) else { throw Self.mismatch }
        var found: [String: StoredMarkSyncRecord] = [:]
        found.reserveCapacity(rows.count)
        for (stored, data) in rows {
            var record = stored
            if readsFields(record) { record.fields = try MarkSyncFieldsCodec.fields(stored: data, of: record.name) }
            found[record.name] = record
        }
        return found
    }

    func saveRecords(_ records: [StoredMarkSyncRecord], in zone: MarkSyncZoneKey) throws {
        guard !records.isEmpty else { return }
        writes.append(.saveRecords(records, zone))
    }

    func changes(in zone: MarkSyncZoneKey, after sequence: Int64, includeDeleted: Bool, limit: Int) throws -> [StoredMarkSyncRecord] {
        if try holdsNoRecords(zone) { return [] }
        guard case .records(let records) = try answer(.changes(zone: zone, after: sequence, includeDeleted: includeDeleted, limit: limit)) else { throw Self.mismatch }
        return records
    }

    func records(ofType type: String, in zone: MarkSyncZoneKey) throws -> [StoredMarkSyncRecord] {
        if try holdsNoRecords(zone) { return [] }
        guard case .records(let records) = try answer(.typedRecords(type, zone: zone)) else { throw Self.mismatch }
        return records
    }

    func databaseChangePosition(_ database: MarkSyncDatabaseKey) throws -> Int64 {
        try checkUnwritten(database)
        guard case .position(let position) = try answer(.changePosition(database)) else { throw Self.mismatch }
        return position
    }

    func zoneChanges(in database: MarkSyncDatabaseKey, after position: Int64, includeDeleted: Bool, limit: Int) throws -> [MarkSyncZoneChange] {
        try checkUnwritten(database)
        guard case .zoneChanges(let changes) = try answer(.zoneChanges(database, after: position, includeDeleted: includeDeleted, limit: limit)) else {
            throw Self.mismatch
        }
        return changes
    }

    /// The answer fetched for `read`, or ``PostgresMarkSyncRead/Missing`` to have it fetched.
    private func answer(_ read: PostgresMarkSyncRead) throws -> PostgresMarkSyncAnswer {
        guard let answer = answers[read] else { throw PostgresMarkSyncRead.Missing(read: read) }
        return answer
    }

    /// The latest write of this run that created, changed or deleted `key`, if any.
    private func writtenZone(_ key: MarkSyncZoneKey) -> StoredMarkSyncZone?? {
        for write in writes.reversed() {
            switch write {
            case .saveZone(let zone) where zone.key == key: return .some(zone)
            case .deleteZone(let deleted) where deleted == key: return .some(nil)
            default: continue
            }
        }
        return nil
    }

    /// Whether `zone` holds no records because this run created or deleted it; throws when this
    /// run wrote records of it, which the database would have to answer for (no body reads
    /// records it wrote).
    private func holdsNoRecords(_ zone: MarkSyncZoneKey) throws -> Bool {
        guard writes.contains(where: { $0.zoneKey == zone }) else { return false }
        guard case .zone(let stored) = try answer(.zone(zone)) else { throw Self.mismatch }
        for write in writes {
            switch write {
            case .saveZone(let saved) where saved.key == zone:
                if stored == nil { return true }
            case .deleteZone(let deleted) where deleted == zone:
                return true
            case .saveRecords(_, let written) where written == zone:
                throw ServerError.storage(.failed("a status transaction read records of zone \(zone.zoneName) after writing them"))
            default:
                continue
            }
        }
        return false
    }

    /// Throws when this run changed a zone of `database`, whose change history the database
    /// would have to answer for (no body reads it after writing).
    private func checkUnwritten(_ database: MarkSyncDatabaseKey) throws {
        guard !writes.contains(where: { $0.zoneKey?.database == database }) else {
            throw ServerError.storage(.failed("a status transaction read the change history of a database it changed"))
        }
    }

    /// An answer of another kind than its read asks for (never: answers are fetched per read).
    private static let mismatch = ServerError.storage(.failed("a status read got an answer of another kind"))
}
