import ArgumentParser
import Foundation
import MeTubeServer

/// `--database` and `--database-pool`: where `serve` and the administration commands find the hub
/// and the mark-sync service. One option for both backends: an SQLite file, or a PostgreSQL URL that
/// any number of servers may share. `--db FILE`, its older spelling for SQLite, still works and
/// prints a deprecation note.
struct DatabaseOptions: ParsableArguments {
    /// The environment variable that names a PostgreSQL database when `--database` is not given.
    static let environmentVariable = "METUBE_DATABASE_URL"

    /// Where the data is kept.
    typealias Location = ServerBackend.Location

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "The database of the hub and the status service: an SQLite FILE (created on first run), or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require] for PostgreSQL (default: $\(Self.environmentVariable)).",
            valueName: "file-or-url"))
    var database: String?

    @Option(name: .customLong("db"), help: ArgumentHelp("Deprecated spelling of --database FILE.", visibility: .hidden))
    var deprecatedSQLitePath: String?

    @Option(name: .customLong("database-pool"), help: "The most connections to the PostgreSQL database this server opens.")
    var databasePool = PostgresServerDatabase.defaultPoolSize

    func validate() throws {
        guard (1...PostgresServerDatabase.maximumPoolSize).contains(databasePool) else {
            throw ValidationError("--database-pool must be 1…\(PostgresServerDatabase.maximumPoolSize)")
        }
        if database != nil, deprecatedSQLitePath != nil {
            throw ValidationError("give --database once (--db is its older spelling)")
        }
        if let database { _ = try Self.location(of: database, option: "--database") }
        if deprecatedSQLitePath != nil { Self.noteDeprecatedSpelling() }
    }

    /// Tells on stderr that `--db` is the older spelling of `--database FILE`.
    static func noteDeprecatedSpelling() {
        FileHandle.standardError.write(Data("metube-server: note: --db is deprecated; use --database FILE\n".utf8))
    }

    /// Whether a database was named on the command line (not by the environment).
    var givenOnCommandLine: Bool { database != nil || deprecatedSQLitePath != nil }

    /// The SQLite file named on the command line, if the database named there is one.
    var sqlitePath: String? {
        if let deprecatedSQLitePath { return deprecatedSQLitePath }
        guard let database, case .sqlite(let path)? = try? Self.location(of: database, option: "--database") else { return nil }
        return path
    }

    /// The database to use: the one on the command line, else `$METUBE_DATABASE_URL` unless an
    /// SQLite file of the older two-file layout was given (`legacyFileGiven`), else nil (none).
    func location(legacyFileGiven: Bool = false) throws -> Location? {
        if let deprecatedSQLitePath { return .sqlite(path: deprecatedSQLitePath) }
        if let database { return try Self.location(of: database, option: "--database") }
        let environment = ProcessInfo.processInfo.environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard !legacyFileGiven, let environment else { return nil }
        return try Self.location(of: environment, option: "$\(Self.environmentVariable)")
    }

    /// The database `serve` and `users add` open, and the status file of the older two-file layout
    /// to import into it: the database named (``location(legacyFileGiven:)``), else `markSyncDatabase`,
    /// which is then the database itself.
    func serverLocation(markSyncDatabase: String?) throws -> (location: Location?, legacyMarkSyncPath: String?) {
        let location = try location(legacyFileGiven: markSyncDatabase != nil) ?? markSyncDatabase.map { .sqlite(path: $0) }
        return (location, sqlitePath == nil ? nil : markSyncDatabase)
    }

    /// What `text` names: a URL with a scheme is PostgreSQL (and must parse as one), anything else
    /// an SQLite file.
    private static func location(of text: String, option: String) throws -> Location {
        guard text.contains("://") else {
            guard !text.isEmpty else { throw ValidationError("\(option): empty; give an SQLite file or a postgres:// URL") }
            return .sqlite(path: text)
        }
        do {
            return .postgres(try PostgresDatabaseURL(parsing: text))
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }
}
