import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// Builds the whole server: storage, routes, feed ingestion and (with `demo`) the demo publisher.
public func buildApplication(configuration: ServerConfiguration) async throws -> some ApplicationProtocol {
    try configuration.validate()
    let database: ServerDatabase
    if let path = configuration.databasePath {
        do {
            database = try ServerDatabase(path: path, legacyStatusPath: configuration.legacyStatusDatabasePath)
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.invalidConfiguration("cannot open the database \(path): \(error)")
        }
    } else {
        database = try ServerDatabase()
    }
    return try await buildApplication(configuration: configuration, database: database)
}

/// Builds the whole server over an open database (`configuration.databasePath` is not used);
/// tests and benchmarks use it to seed and inspect the storage directly.
public func buildApplication(configuration: ServerConfiguration, database: ServerDatabase) async throws -> some ApplicationProtocol {
    try configuration.validate()
    let repository = try SQLiteHubRepository(database: database)
    let status = StatusRoutes(repository: SQLiteStatusRepository(database: database), configuration: configuration.status)
    let push = PushServices(configuration: configuration, database: database, repository: repository)
    let ingester = configuration.pollInterval.map { pollInterval in
        FeedIngester(
            repository: push.ingestionRepository, feedURLTemplate: configuration.feedURLTemplate, pollInterval: pollInterval,
            concurrency: configuration.ingestConcurrency, schedule: push.pollSchedule, logger: configuration.logger
        )
    }
    let router = Router(context: ServerRequestContext.self)
    if configuration.metrics != nil { router.add(middleware: MetricsMiddleware()) }
    let hub = HubService(
        repository: repository, registrationsPerHour: configuration.registrationsPerHour, ingester: ingester,
        onNewChannels: push.onNewChannels)
    addRoutes(to: router, hub: hub, status: status)
    push.webSubRoutes?.add(to: router)
    var services: [any Service] = []
    if let ingester { services.append(ingester) }
    services += push.services
    if let metrics = configuration.metrics {
        services.append(metrics.endpoint(database: database, host: configuration.host, logger: configuration.logger))
    }
    if configuration.demo {
        let publisher = DemoPublisher(repository: repository, interval: configuration.demoInterval, logger: configuration.logger)
        try await publisher.seedIfEmpty()
        services.append(publisher)
    }
    let host = configuration.host
    let onListening = configuration.onListening
    let limits = configuration.connectionLimits
    return Application(
        router: router,
        server: GuardedHTTP1Channel.server(limits: limits),
        configuration: .init(
            address: .hostname(host, port: configuration.port), serverName: "metube-server",
            availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: configuration.logger)),
        services: services,
        onServerRunning: { channel in await onListening(host, channel.localAddress?.port ?? 0) },
        logger: configuration.logger
    )
}

/// Builds the router: the hub API (section A of the MeTube hub API) and, when given, the status
/// routes, with their HTTP conventions (CORS, `OPTIONS`, exact paths) and the one error middleware
/// (``ServerErrorMiddleware``).
public func buildRouter(hubRepository: any HubRepository, status: StatusRoutes? = nil) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    addRoutes(to: router, hub: HubService(repository: hubRepository), status: status)
    return router
}

/// Builds the router with `firstMiddleware` in front of everything else (tests use it to inject
/// faults between a client and the real routes).
public func buildRouter(hubRepository: any HubRepository, status: StatusRoutes? = nil, firstMiddleware: some RouterMiddleware<BasicRequestContext>) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: firstMiddleware)
    addRoutes(to: router, hub: HubService(repository: hubRepository), status: status)
    return router
}

private func addRoutes<Context: RequestContext>(to router: Router<Context>, hub: HubService, status: StatusRoutes?) {
    router.add(middleware: HubHTTPMiddleware())
    router.add(middleware: ServerErrorMiddleware())
    HubAPIRoutes(service: hub).add(to: router)
    status?.register(on: router)
}
