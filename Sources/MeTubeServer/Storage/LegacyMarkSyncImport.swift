import Foundation
import GRDB

/// Moves the status file of the two-file layout into the one database.
///
/// Until the single file, `metube-server` kept the mark-sync service in a file of its own
/// (`hub-status.sqlite` beside `--database hub.sqlite`, or `--status-db`). On the first start with such
/// a file present, its users, zones and records are copied with their ids (so tokens, change tags
/// and sync tokens keep working) in one transaction, and the file is renamed to `….imported`, so
/// the import happens once and the old data stays on disk until the operator removes it.
///
/// The import is refused, and the server does not start, when the database already holds status
/// data (two sets of users cannot be merged safely) or when the file is not a status file.
struct LegacyMarkSyncImport {
    let database: ServerDatabase
    let legacyPath: String

    /// Imports and renames the file when it exists; does nothing otherwise.
    func run() throws {
        guard let path = database.path, FileManager.default.fileExists(atPath: legacyPath),
              URL(fileURLWithPath: legacyPath).standardizedFileURL != URL(fileURLWithPath: path).standardizedFileURL else { return }
        try database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS legacy", arguments: [legacyPath])
            defer { try? db.execute(sql: "DETACH DATABASE legacy") }
            try db.inTransaction {
                try copy(db)
                return .commit
            }
        }
        let imported = legacyPath + ".imported"
        try? FileManager.default.removeItem(atPath: imported)
        try FileManager.default.moveItem(atPath: legacyPath, toPath: imported)
    }

    private func copy(_ db: Database) throws {
        let applied = try String.fetchAll(db, sql: "SELECT name FROM legacy.sqlite_master WHERE type = 'table'")
        guard Set(applied).isSuperset(of: ["status_users", "status_zones", "status_records"]) else {
            throw ServerError.invalidConfiguration("\(legacyPath) is not a metube-server status file; move it away to start")
        }
        let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM main.status_users") ?? 0
        guard existing == 0 else {
            throw ServerError.invalidConfiguration(
                "\(legacyPath) holds status data from the two-file layout, but \(database.path ?? "the database") already has status users; move one of them away to start")
        }
        try db.execute(sql: """
            INSERT INTO main.status_users (id, name, token_hash) SELECT id, name, token_hash FROM legacy.status_users;
            INSERT INTO main.status_zones (id, user_id, container, environment, name, incarnation, last_sequence)
                SELECT id, user_id, container, environment, name, incarnation, last_sequence FROM legacy.status_zones;
            INSERT INTO main.status_records (zone_id, name, type, fields, sequence, created_millis, modified_millis, deleted)
                SELECT zone_id, name, type, fields, sequence, created_millis, modified_millis, deleted FROM legacy.status_records;
            """)
        try db.execute(sql: SQLiteMarkSyncTransaction.countUsageSQL)
    }
}
