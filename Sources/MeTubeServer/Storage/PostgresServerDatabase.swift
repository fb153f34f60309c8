import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// The server's PostgreSQL database: the tables of the hub, the mark-sync service, WebSub and the
/// YouTube Data API enrichment, reached through a pool of connections, shared by any number of
/// `metube-server` instances.
///
/// Opening it connects once, fails with the reason when the database cannot be reached, and
/// applies the missing ``PostgresMigrations`` while holding a PostgreSQL advisory lock, so when
/// several instances start at once the first one migrates and the others wait and then find
/// nothing left to do. A database migrated by a newer server (a migration name this one does not
/// know) is refused.
///
/// The pool (``PostgresClient``) runs as long as this object lives. Every call has a deadline
/// (``StorageDeadline``): the wait for a pooled connection and each statement included. A call
/// that fails for want of the database (no connection, a closed one, no answer in time) fails with
/// ``ServerError/StorageFailure/unavailable(_:)`` and marks the database unreachable
/// (``PostgresReachability``), which `/health` reports; a connection that did not answer in time
/// is closed, so the pool replaces it. While unreachable, calls fail at once and the database is
/// probed with a backoff
/// of at most ``PostgresReachability/longestProbeInterval``; once it answers again after an
/// outage the pool is replaced by a fresh one, which connects at once rather than after its own
/// backoff.
public final class PostgresServerDatabase: Sendable {
    /// Where the database is.
    public let url: PostgresDatabaseURL
    /// The most connections this instance opens.
    public let poolSize: Int
    let logger: Logger
    /// Whether the database answers; `/health` reads it.
    let reachability: PostgresReachability
    private let poolConfiguration: PostgresClient.Configuration
    private let pool: Mutex<RunningPool>

    /// A pool and the task running it.
    private struct RunningPool: Sendable {
        let client: PostgresClient
        let runner: Task<Void, Never>

        init(configuration: PostgresClient.Configuration, logger: Logger) {
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            self.client = client
            runner = Task { await client.run() }
        }
    }

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
        let connectionConfiguration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: connectionTLS)
        try await Self.migrate(connectionConfiguration, url: url, logger: logger)
        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        configuration.options.maximumConnections = poolSize
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = StorageDeadline.call
        poolConfiguration = configuration
        pool = Mutex(RunningPool(configuration: configuration, logger: logger))
        reachability = PostgresReachability(probe: connectionConfiguration, logger: logger)
        reachability.onReturnAfterOutage = { [weak self] in self?.replacePool() }
    }

    deinit {
        pool.withLock { $0.runner.cancel() }
        reachability.stop()
    }

    /// The largest pool size accepted.
    public static let maximumPoolSize = 500
    /// The pool size when none is given.
    public static let defaultPoolSize = 10

    /// The number of mark-sync users and of registered channels, for `/metrics`.
    func counts() async throws -> (users: Int, channels: Int) {
        let row = try await query("SELECT (SELECT count(*) FROM status_users), (SELECT count(*) FROM hub_channels)").first
        return try row.map { try $0.decode((Int, Int).self) } ?? (0, 0)
    }

    /// Runs `query` on a pooled connection and returns its rows, within ``StorageDeadline/call``.
    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = logger
        return try await withConnection("a query") { connection in
            try await connection.query(query, logger: logger).collect()
        }
    }

    /// The first column of the first row of `rows`, if any.
    static func single<T: PostgresDecodable & Sendable>(_ type: T.Type, _ rows: PostgresRowSequence) async throws -> T? {
        for try await value in rows.decode(T.self) { return value }
        return nil
    }

    /// Runs `body` in one transaction on a pooled connection: committed when it returns, rolled
    /// back when it throws. With a `timeout` (by default ``StorageDeadline/transaction``) it fails
    /// with ``ServerError/StorageFailure/unavailable(_:)`` when it has not ended by then.
    func transaction<T: Sendable>(
        within timeout: Duration? = StorageDeadline.transaction, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let logger = logger
        return try await withConnection("a transaction", within: timeout) { connection in
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

    /// Runs `body` on a pooled connection, the wait for the connection included, within `timeout`
    /// (nil: no deadline). When the deadline passes the connection is closed, so that a statement
    /// stuck on it ends and the pool replaces it. A failure for want of the database is thrown as
    /// ``ServerError/StorageFailure/unavailable(_:)``; when it shows the database gone (no connection,
    /// a connection refused or closed by the server), it marks the database unreachable, and while
    /// it is, calls fail so at once, until the probe finds it again.
    func withConnection<T: Sendable>(
        _ what: String, within timeout: Duration? = StorageDeadline.call, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        if let reason = reachability.unreachableReason {
            throw StorageDeadline.unavailable(reason)
        }
        let client = pool.withLock { $0.client }
        let leased = LeasedConnection()
        let work: @Sendable () async throws -> T = {
            try await client.withConnection { connection in
                leased.connection = connection
                return try await body(connection)
            }
        }
        do {
            let value: T
            if let timeout {
                value = try await StorageDeadline.run(what, within: timeout, onTimeout: { leased.close() }, work)
            } else {
                value = try await work()
            }
            reachability.answered()
            return value
        } catch {
            if let (reason, isOutage) = Self.unavailability(error) {
                // No connection within the deadline says the database is gone; a statement that
                // ran out of time on a live connection (a lock, a slow query) says it is slow, and
                // a call its caller gave up (the client hung up) says nothing: they fail the call only.
                let isTimeout = error is ServerError
                if isOutage || (isTimeout && leased.connection == nil), !Task.isCancelled { reachability.failed(reason) }
                throw isTimeout ? error : StorageDeadline.unavailable(reason)
            }
            reachability.answered()
            throw error
        }
    }

    /// Replaces the pool by a fresh one and stops the old one (its connections died in an outage).
    private func replacePool() {
        let fresh = RunningPool(configuration: poolConfiguration, logger: logger)
        let old = pool.withLock { pool in
            defer { pool = fresh }
            return pool
        }
        old.runner.cancel()
        logger.info("database reachable again: its connections are opened afresh")
    }

    /// Why `error` means the database is unavailable (unreachable, shutting down or starting up,
    /// too slow, or the connection closed on this side), in words fit for a client (no host, no
    /// secret), and whether it shows the database itself gone; nil when it is another failure.
    static func unavailability(_ error: any Error) -> (reason: String, isOutage: Bool)? {
        if case .storage(.unavailable(let reason)) = error as? ServerError { return (reason, false) }
        guard let error = error as? PSQLError else { return nil }
        switch error.code {
        case .connectionError: return ("cannot connect to the database", true)
        case .serverClosedConnection, .uncleanShutdown: return ("the database closed the connection", true)
        case .clientClosedConnection, .poolClosed, .queryCancelled: return ("the connection to the database was closed", false)
        case .server:
            // Class 08: connection exceptions; class 57: operator intervention (shutting down,
            // starting up, terminated); 53300: too many connections.
            let state = sqlState(of: error) ?? ""
            guard state.hasPrefix("08") || state.hasPrefix("57") || state == "53300" else { return nil }
            return ("the database refused: \(error.serverInfo?[.message] ?? "?") (SQLSTATE \(state))", true)
        default:
            return nil
        }
    }

    /// `body`, with its failures other than ``ServerError`` as ``ServerError/storage(_:)``.
    static func storageErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.storage(.failed(describe(error)))
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
            throw ServerError.storage(.failed("migrating \(url): \(describe(error))"))
        }
    }
}

/// The connection a call leased, once it has one, so that its deadline can close it.
private final class LeasedConnection: Sendable {
    private let slot = Mutex<PostgresConnection?>(nil)

    /// The leased connection.
    var connection: PostgresConnection? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }

    /// Closes the connection, if one was leased.
    func close() {
        let _: EventLoopFuture<Void>? = connection?.close()
    }
}
