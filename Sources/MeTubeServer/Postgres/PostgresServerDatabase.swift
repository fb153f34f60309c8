import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// The server's PostgreSQL database: the tables of the hub, the status service, WebSub and the
/// YouTube Data API enrichment, reached through a pool of connections, shared by any number of
/// `metube-server` instances.
///
/// Opening it connects once, fails with the reason when the database cannot be reached, and
/// applies the missing ``PostgresMigrations`` while holding a PostgreSQL advisory lock, so when
/// several instances start at once the first one migrates and the others wait and then find
/// nothing left to do. A database migrated by a newer server (a migration name this one does not
/// know) is refused.
///
/// The pool (``PostgresClient``) runs as long as this object lives. Status transactions run
/// their synchronous bodies on threads of their own (one per pooled connection), never on the NIO
/// event loops or the Swift concurrency pool, as the SQLite database does on GRDB's threads.
public final class PostgresServerDatabase: Sendable {
    /// Where the database is.
    public let url: PostgresDatabaseURL
    /// The most connections this instance opens.
    public let poolSize: Int
    let client: PostgresClient
    let logger: Logger
    let blockingThreads: NIOThreadPool
    private let runner: Task<Void, Never>

    /// The advisory lock key held while migrating (ASCII `metube` and 1).
    static let migrationLockKey: Int64 = 0x6D65_7475_6265_0001

    /// Connects to `url`, applies the missing migrations, and keeps a pool of up to `poolSize`
    /// connections. Throws ``ServerError/invalidConfiguration(_:)`` when the database cannot be
    /// reached or was written by a newer server, ``ServerError/storage(_:)`` when a migration fails.
    public init(url: PostgresDatabaseURL, poolSize: Int = PostgresServerDatabase.defaultPoolSize, logger: Logger = Logger(label: "metube-server.postgres")) async throws {
        guard (1...Self.maximumPoolSize).contains(poolSize) else {
            throw ServerError.invalidConfiguration("the database pool size must be 1…\(Self.maximumPoolSize), got \(poolSize)")
        }
        self.url = url
        self.poolSize = poolSize
        self.logger = logger
        let tls: PostgresClient.Configuration.TLS
        let connectionTLS: PostgresConnection.Configuration.TLS
        switch url.tls {
        case .disable:
            tls = .disable
            connectionTLS = .disable
        case .prefer, .require:
            let configuration = TLSConfiguration.makeClientConfiguration()
            let context: NIOSSLContext
            do {
                context = try NIOSSLContext(configuration: configuration)
            } catch {
                throw ServerError.invalidConfiguration("cannot set up TLS for \(url): \(error)")
            }
            tls = url.tls == .require ? .require(configuration) : .prefer(configuration)
            connectionTLS = url.tls == .require ? .require(context) : .prefer(context)
        }
        try await Self.migrate(
            PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: connectionTLS),
            url: url, logger: logger)
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        configuration.options.maximumConnections = poolSize
        configuration.options.minimumConnections = 0
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
        blockingThreads = NIOThreadPool(numberOfThreads: poolSize)
        blockingThreads.start()
    }

    deinit {
        runner.cancel()
        blockingThreads.shutdownGracefully { _ in }
    }

    /// The largest pool size accepted.
    public static let maximumPoolSize = 500
    /// The pool size when none is given.
    public static let defaultPoolSize = 10

    /// The number of status users and of registered channels, for `/metrics`.
    func counts() async throws -> (users: Int, channels: Int) {
        let row = try await query("SELECT (SELECT count(*) FROM status_users), (SELECT count(*) FROM hub_channels)").first
        return try row.map { try $0.decode((Int, Int).self) } ?? (0, 0)
    }

    /// Runs `query` on a pooled connection and returns its rows.
    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        do {
            return try await client.withConnection { connection in
                try await connection.query(query, logger: logger).get().rows
            }
        } catch {
            throw ServerError.storage(Self.describe(error))
        }
    }

    /// Runs `body` in one transaction on a pooled connection: committed when it returns, rolled
    /// back when it throws.
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// `body`, with its failures other than ``ServerError`` as ``ServerError/storage(_:)``.
    static func storageErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.storage(describe(error))
        }
    }

    /// A readable one-line account of a PostgreSQL failure (the server's message and SQLSTATE
    /// when it sent one).
    static func describe(_ error: any Error) -> String {
        if let error = error as? ServerError { return error.description }
        if let error = error as? PSQLError {
            if let info = error.serverInfo, let message = info[.message] {
                return "\(message) (SQLSTATE \(info[.sqlState] ?? "?"))"
            }
            return error.underlying.map { "\(error.code): \($0)" } ?? "\(error.code)"
        }
        return String(describing: error)
    }

    /// The SQLSTATE of a server error, if `error` is one.
    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    private static func migrate(_ configuration: PostgresConnection.Configuration, url: PostgresDatabaseURL, logger: Logger) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            throw ServerError.invalidConfiguration("cannot connect to the database \(url): \(describe(error))")
        }
        do {
            try await PostgresMigrations.apply(on: connection, lockKey: migrationLockKey, logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            if let error = error as? ServerError { throw error }
            throw ServerError.storage("migrating \(url): \(describe(error))")
        }
    }
}
