import Foundation
import Hummingbird
import HummingbirdTesting
@testable import MeTubeServer
import ServerTestSupport
import TestSupport

/// Where a WebSub or enrichment test keeps its data: each backend those run on.
enum PushStorage: String, CaseIterable, Sendable {
    case sqlite
    case postgres

    /// A fresh, empty store of this kind (an SQLite file in a new temporary directory, a new
    /// database in the test PostgreSQL cluster) with its hub, WebSub and enrichment repositories.
    func makeStore() async throws -> PushStore {
        switch self {
        case .sqlite:
            let database = try ServerDatabase(path: HubTestSupport.temporaryDatabasePath())
            return PushStore(
                hub: try SQLiteHubRepository(database: database), subscriptions: SQLiteWebSubRepository(database: database),
                enrichment: SQLiteEnrichmentRepository(database: database), catalog: SQLiteCatalogRepository(database: database),
                target: .sqlite(database))
        case .postgres:
            let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
            return try await PushStore.postgres(url: url)
        }
    }
}

/// One test database seen through the repositories of the hub, WebSub and the enrichment, and
/// how a server is built over it.
struct PushStore: Sendable {
    /// Where a server over this store keeps its data.
    enum Target: Sendable {
        case sqlite(ServerDatabase)
        case postgres(PostgresDatabaseURL)
    }

    let hub: any HubRepository
    let subscriptions: any WebSubRepository
    let enrichment: any EnrichmentRepository
    let catalog: any CatalogRepository
    let target: Target

    /// The PostgreSQL database at `url` as one more instance sees it (its own pool and claims).
    static func postgres(url: PostgresDatabaseURL, poolSize: Int = 2) async throws -> PushStore {
        let database = try await PostgresServerDatabase.forTests(url: url, poolSize: poolSize)
        return PushStore(
            hub: PostgresHubRepository(database: database),
            subscriptions: PostgresWebSubRepository(database: database, claimDuration: .seconds(60)),
            enrichment: PostgresEnrichmentRepository(database: database), catalog: PostgresCatalogRepository(database: database),
            target: .postgres(url))
    }

    /// Runs `body` against the whole server over this store, live on 127.0.0.1, as
    /// `metube-server serve` builds it (`configuration` says what else it runs).
    func withLiveServer(
        _ configuration: ServerConfiguration, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = configuration
        switch target {
        case .sqlite(let database):
            try await buildApplication(configuration: configuration, database: database).test(.live, body)
        case .postgres(let url):
            configuration.databaseURL = url
            configuration.databasePoolSize = 4
            try await buildApplication(configuration: configuration).test(.live, body)
        }
    }
}
