import Foundation
import GRDB

/// The server's storage on one backend, built once: the repository of each feature (hub, status,
/// WebSub, enrichment, feed leases), all over one database, which the services are given.
///
/// Both backends hold the same tables (``ServerDatabase``, ``PostgresMigrations``); each
/// feature's folder holds its protocol and its two versions. Only PostgreSQL is shared by several
/// instances, so only it leases the channels of a polling round.
struct ServerStorage: Sendable {
    /// The registered channels and their videos.
    let hub: any HubRepository
    /// The mark-sync service's users, zones and records.
    let markSync: any MarkSyncRepository
    /// The WebSub subscriptions, and the deletions WebSub announces.
    let webSub: any WebSubRepository
    /// The YouTube Data API lookups and their daily budget.
    let enrichment: any EnrichmentRepository
    /// What the catalog service did per channel (backfills, lengths asked).
    let catalog: any CatalogRepository
    /// What `POST /api/channels/resolve` learned of each link.
    let links: any ChannelLinkCache
    /// Shares polling rounds with the other instances on the database; nil where no other
    /// instance can share it (SQLite), or without polling.
    let feedLeases: (any FeedPollLeases)?
    /// The number of mark-sync users and of registered channels, for `/metrics`.
    let counts: @Sendable () async throws -> (users: Int, channels: Int)
    /// Why the database does not answer now, for `/health`; nil while it does.
    let unavailableReason: @Sendable () -> String?

    /// The storage the configuration names (``ServerConfiguration/databaseLocation``), opened by
    /// ``ServerBackend/open(_:legacyMarkSyncPath:existing:poolSize:logger:)``.
    static func open(configuration: ServerConfiguration) async throws -> ServerStorage {
        let location = configuration.databaseLocation
        do {
            switch try await ServerBackend.open(
                location, legacyMarkSyncPath: configuration.legacyMarkSyncDatabasePath, poolSize: configuration.databasePoolSize, logger: configuration.logger
            ) {
            case .sqlite(let database): return try ServerStorage(database: database)
            case .postgres(let database): return ServerStorage(database: database, configuration: configuration)
            }
        } catch let error as ServerError {
            throw error
        } catch {
            guard let path = location?.sqlitePath else { throw error }
            throw ServerError.invalidConfiguration("cannot open the database \(path): \(error)")
        }
    }

    /// The storage in the SQLite `database`.
    init(database: ServerDatabase) throws {
        hub = try SQLiteHubRepository(database: database)
        markSync = SQLiteMarkSyncRepository(database: database)
        webSub = SQLiteWebSubRepository(database: database)
        enrichment = SQLiteEnrichmentRepository(database: database)
        catalog = SQLiteCatalogRepository(database: database)
        links = SQLiteChannelLinkCache(database: database)
        feedLeases = nil
        counts = {
            try await database.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM status_users") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM hub_channels") ?? 0)
            }
        }
        unavailableReason = { nil }
    }

    /// The storage in the PostgreSQL `database`, shared with every other instance on it: the
    /// WebSub subscriptions with their secrets, the enrichment's lookups and its daily budget live
    /// in the database, and polling rounds lease their channels (``PostgresFeedLeases``), those
    /// whose uploads are pushed for the longer WebSub interval. One name marks this instance's
    /// leases and claims.
    init(database: PostgresServerDatabase, configuration: ServerConfiguration) {
        let holder = UUID().uuidString
        let claimDuration = WebSubSubscriber.longestBatch(concurrency: configuration.webSub?.concurrency ?? 1)
        hub = PostgresHubRepository(database: database)
        markSync = PostgresMarkSyncRepository(database: database)
        webSub = PostgresWebSubRepository(database: database, holder: holder, claimDuration: claimDuration)
        enrichment = PostgresEnrichmentRepository(database: database, holder: holder)
        catalog = PostgresCatalogRepository(database: database)
        links = PostgresChannelLinkCache(database: database)
        feedLeases = configuration.pollInterval.map { interval in
            PostgresFeedLeases(database: database, pollInterval: interval, pushedPollInterval: configuration.webSub?.pushedPollInterval, holder: holder)
        }
        counts = { try await database.counts() }
        unavailableReason = { database.reachability.unreachableReason }
    }
}
