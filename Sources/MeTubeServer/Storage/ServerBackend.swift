import Logging

/// The server's database, opened on the backend its location names: the one place that chooses
/// between SQLite and PostgreSQL, for `serve` (``ServerStorage``), the administration commands
/// (``administration``) and `users add` (``markSync``).
public enum ServerBackend: Sendable {
    /// Where the server's data is kept.
    public enum Location: Sendable, Equatable {
        /// An SQLite file.
        case sqlite(path: String)
        /// A PostgreSQL database, which any number of servers may share.
        case postgres(PostgresDatabaseURL)

        /// The SQLite file, if the location is one.
        public var sqlitePath: String? {
            guard case .sqlite(let path) = self else { return nil }
            return path
        }
    }

    /// An SQLite database, a file or in memory.
    case sqlite(ServerDatabase)
    /// A PostgreSQL database.
    case postgres(PostgresServerDatabase)

    /// Opens the database at `location`; nil is a fresh SQLite database in memory.
    ///
    /// An SQLite file is created when missing, and imports the status file of the older
    /// two-file layout (`legacyMarkSyncPath`, see ``ServerDatabase/init(path:legacyMarkSyncPath:)``),
    /// unless `existing`: then it must be there, and is opened as the administration commands
    /// need it (``SQLiteAdministration/init(path:)``). PostgreSQL is migrated and reached through
    /// a pool of `poolSize` connections, logging to `logger` (by default critical messages only,
    /// for the commands that print their own).
    public static func open(
        _ location: Location?, legacyMarkSyncPath: String? = nil, existing: Bool = false, poolSize: Int = 1,
        logger: Logger = ServerBackend.quietLogger
    ) async throws -> ServerBackend {
        switch location {
        case nil:
            return .sqlite(try ServerDatabase())
        case .sqlite(let path)?:
            return .sqlite(existing ? try SQLiteAdministration(path: path).database : try ServerDatabase(path: path, legacyMarkSyncPath: legacyMarkSyncPath))
        case .postgres(let url)?:
            return .postgres(try await PostgresServerDatabase(url: url, poolSize: poolSize, logger: logger))
        }
    }

    /// A logger of critical messages only.
    public static var quietLogger: Logger {
        var logger = Logger(label: "metube-server")
        logger.logLevel = .critical
        return logger
    }

    /// The mark-sync users, zones and records.
    public var markSync: any MarkSyncRepository {
        switch self {
        case .sqlite(let database): SQLiteMarkSyncRepository(database: database)
        case .postgres(let database): PostgresMarkSyncRepository(database: database)
        }
    }

    /// The users and channels, as the operator manages them.
    public var administration: any UserAndChannelAdministration {
        switch self {
        case .sqlite(let database): SQLiteAdministration(database: database)
        case .postgres(let database): PostgresAdministration(database: database)
        }
    }
}

extension ServerConfiguration {
    /// Where the server keeps its data: the PostgreSQL database of ``databaseURL`` when it is set,
    /// else the SQLite file of ``databasePath``, else (nil) an SQLite database in memory.
    public var databaseLocation: ServerBackend.Location? {
        get { databaseURL.map { .postgres($0) } ?? databasePath.map { .sqlite(path: $0) } }
        set {
            databaseURL = nil
            databasePath = nil
            switch newValue {
            case .postgres(let url)?: databaseURL = url
            case .sqlite(let path)?: databasePath = path
            case nil: break
            }
        }
    }
}
