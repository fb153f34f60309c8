import Foundation
import GRDB

/// The server's one SQLite database: the hub's and the mark-sync service's tables in one file,
/// under one migrator.
///
/// A file is a GRDB `DatabasePool` in WAL mode, so reads run concurrently with the one writer,
/// and every access runs on GRDB's own threads, never on the NIO event loops. Files are created
/// with mode 0600 and run with `synchronous=FULL`: a mark-sync write the server acknowledged is on
/// disk, even after a power loss. Without a path the database lives in memory (tests, demos).
public struct ServerDatabase: Sendable {
    /// The connection(s) every repository reads and writes through.
    let writer: any DatabaseWriter
    /// The file, or nil in memory.
    public let path: String?

    /// Opens (creating if needed) the database file at `path` and brings its schema up to date.
    ///
    /// A file of the older two-file layout is adopted as it is, and the status file of that layout
    /// (`legacyMarkSyncPath`, by default `NAME-status.sqlite` beside `path`) is imported into it once
    /// and renamed to `….imported`; see ``LegacyMarkSyncImport``.
    public init(path: String, legacyMarkSyncPath: String? = nil) throws {
        try Self.createPrivately(path)
        let pool = try DatabasePool(path: path, configuration: Self.configuration)
        // The pool sets its writer to synchronous=NORMAL when it turns WAL on, after any preparation.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        writer = pool
        self.path = path
        try migrate(importingMarkSyncFrom: legacyMarkSyncPath ?? Self.legacyMarkSyncPath(besideDatabase: path))
    }

    /// A fresh, empty database in memory.
    public init() throws {
        writer = try DatabaseQueue(configuration: Self.configuration)
        path = nil
        try Self.migrator.migrate(writer)
    }

    /// The status file the two-file layout kept beside the hub file `path`: same folder, `-status`
    /// before the extension (`hub.sqlite` → `hub-status.sqlite`).
    public static func legacyMarkSyncPath(besideDatabase path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.deletingPathExtension().lastPathComponent + "-status." + (url.pathExtension.isEmpty ? "sqlite" : url.pathExtension)
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = true
        // The journals of statements and savepoints (each grouped mark-sync write is a savepoint)
        // stay in memory: in temporary files they cost a write call per changed page.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        return configuration
    }

    /// Creates the file with mode 0600 when it is missing, and takes group and other access away
    /// from an existing one (SQLite gives its `-wal` and `-shm` files the same mode).
    private static func createPrivately(_ path: String) throws {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServerError.invalidConfiguration("cannot open the database \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & 0o077 != 0 {
            _ = fchmod(descriptor, 0o600)
        }
    }

    private func migrate(importingMarkSyncFrom legacyMarkSyncPath: String) throws {
        try writer.write { db in try Self.renameFormerMigrations(db) }
        try writer.read { db in
            if try Self.migrator.hasBeenSuperseded(db) {
                throw ServerError.invalidConfiguration("the database \(path ?? "") was written by a newer metube-server")
            }
        }
        try Self.migrator.migrate(writer)
        try LegacyMarkSyncImport(database: self, legacyPath: legacyMarkSyncPath).run()
    }
}
