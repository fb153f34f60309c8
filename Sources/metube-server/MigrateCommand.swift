import ArgumentParser
import Foundation
import Logging
import MeTubeServer

/// `metube-server migrate --from FILE --to URL`: moves a home server's SQLite database into PostgreSQL.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy an SQLite hub and status database into an empty PostgreSQL database.",
        discussion: """
            Keeps every seq, user, token hash, zone, record and change position, so devices synced \
            before the move continue without a full resync, and the WebSub subscriptions with their \
            secrets and last push times, and the YouTube Data API lookups, premiere and live re-checks and \
            units spent. Stop the SQLite server first. Prints the rows copied per table after checking \
            them against the SQLite file; on any difference nothing is committed.
            """)

    @Option(help: "The SQLite file given to `serve --database`.")
    var from: String

    @Option(help: "The PostgreSQL database, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…]; it must hold no channels or users.")
    var to: String

    func validate() throws {
        do {
            _ = try PostgresDatabaseURL(parsing: to)
        } catch {
            throw ValidationError("--to: \(error)")
        }
    }

    func run() async throws {
        var logger = Logger(label: "metube-server")
        logger.logLevel = .critical
        let url = try PostgresDatabaseURL(parsing: to)
        let counts = try await AdminExit.run { try await PostgresImport.run(from: from, to: url, logger: logger) }
        for (table, count) in counts.sorted(by: { $0.key < $1.key }) { print("\(table)\t\(count)") }
    }
}
