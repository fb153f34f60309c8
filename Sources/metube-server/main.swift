import ArgumentParser
import Foundation
import Logging
import MeTubeServer

@main
struct MeTubeServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metube-server",
        abstract: "The MeTube hub and status server.",
        subcommands: [Serve.self, Users.self],
        defaultSubcommand: Serve.self
    )
}

/// `metube-server serve`: runs the hub until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the hub API and ingest the registered channels' feeds.",
        discussion: "Prints `listening on http://HOST:PORT` on stdout once the port is bound."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port.")
    var port = 8787

    @Option(help: "The SQLite database file of the hub and the status service (created on first run); omit to keep everything in memory.")
    var db: String?

    @Option(help: "The feed URL of a channel, with {channelId} where the id goes.")
    var feedURLTemplate = ServerConfiguration.youTubeFeedURLTemplate

    @Option(help: "Seconds between feed polling rounds; 0 disables polling.")
    var pollInterval = 900.0

    @Option(help: "How many feeds to fetch at once.")
    var ingestConcurrency = 8

    @Flag(help: "Seed a synthetic library and publish a new upload every few seconds.")
    var demo = false

    @Option(help: "Seconds between demo uploads.")
    var demoInterval = 5.0

    @Option(help: "The status file of the older two-file layout, imported into --db on first start (default: NAME-status.sqlite beside --db); without --db it is the database.")
    var statusDb: String?

    @Option(help: "Status requests per second allowed to each user; 0 turns throttling off.")
    var statusRate = 40.0

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level \(logLevel)") }
        guard pollInterval >= 0 else { throw ValidationError("--poll-interval must not be negative") }
        guard demoInterval >= 1 else { throw ValidationError("--demo-interval must be at least 1 second") }
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "metube-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = ServerConfiguration(
            host: host, port: port, databasePath: db ?? statusDb, feedURLTemplate: feedURLTemplate,
            pollInterval: pollInterval > 0 ? .milliseconds(Int64(pollInterval * 1000)) : nil,
            ingestConcurrency: ingestConcurrency, demo: demo, demoInterval: .milliseconds(Int64(demoInterval * 1000)),
            logger: logger,
            onListening: { host, port in
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
        )
        configuration.legacyStatusDatabasePath = db == nil ? nil : statusDb
        configuration.status = StatusConfiguration(requestsPerSecond: statusRate > 0 ? statusRate : nil, burst: max(1, Int(statusRate)))
        do {
            let app = try await buildApplication(configuration: configuration)
            try await app.runService()
        } catch let error as ServerError {
            FileHandle.standardError.write(Data("metube-server: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// `metube-server users …`: manages the status service's users.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Manage the status service's users.", subcommands: [Add.self])

    /// `metube-server users add NAME`: adds a user and prints their token once.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user and print their token (shown once; only its hash is stored).",
            discussion: "Give the token to `metube login --server URL --token TOKEN` on each of the user's devices.")

        @Argument(help: "The user's name: letters, digits, '-', '_' or '.'.")
        var name: String

        @Option(help: "The SQLite file given to `serve --db`.")
        var db: String?

        @Option(help: "The status file of the older two-file layout, as given to `serve --status-db`.")
        var statusDb: String?

        func validate() throws {
            guard db != nil || statusDb != nil else { throw ValidationError("give --db as for `serve`; an in-memory server has no users to add") }
        }

        func run() async throws {
            do {
                let database = try ServerDatabase(path: db ?? statusDb ?? "", legacyStatusPath: db == nil ? nil : statusDb)
                print(try await StatusService(repository: SQLiteStatusRepository(database: database)).addUser(name: name))
            } catch {
                FileHandle.standardError.write(Data("metube-server: cannot add user \(name): \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
    }
}
