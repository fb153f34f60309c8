import ArgumentParser
import Foundation
import MeTubeServer

/// `--database` and `--database-pool`: the PostgreSQL database shared by `serve` and `users add`.
struct PostgresOptions: ParsableArguments {
    /// The environment variable that names the database when `--database` is not given.
    static let environmentVariable = "METUBE_DATABASE_URL"

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "The PostgreSQL database of the hub and the status service, as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require] (default: $\(Self.environmentVariable)); any number of servers may share it.",
            valueName: "url"))
    var databaseURL: String?

    @Option(name: .customLong("database-pool"), help: "The most connections to the PostgreSQL database this server opens.")
    var databasePool = PostgresServerDatabase.defaultPoolSize

    func validate() throws {
        guard (1...PostgresServerDatabase.maximumPoolSize).contains(databasePool) else {
            throw ValidationError("--database-pool must be 1…\(PostgresServerDatabase.maximumPoolSize)")
        }
        if let databaseURL {
            do {
                _ = try PostgresDatabaseURL(parsing: databaseURL)
            } catch {
                throw ValidationError("--database: \(error)")
            }
        }
    }

    /// The database to use: `--database`, else `$METUBE_DATABASE_URL` unless an SQLite file was
    /// given on the command line (`sqliteGiven`), else nil (SQLite). Both `--database` and an
    /// SQLite file is an error.
    func url(sqliteGiven: Bool) throws -> PostgresDatabaseURL? {
        if databaseURL != nil, sqliteGiven { throw ValidationError("give either --database or --db, not both") }
        let environment = ProcessInfo.processInfo.environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = databaseURL ?? (sqliteGiven ? nil : environment) else { return nil }
        do {
            return try PostgresDatabaseURL(parsing: text)
        } catch {
            throw ValidationError(databaseURL == nil ? "$\(Self.environmentVariable): \(error)" : "--database: \(error)")
        }
    }
}
