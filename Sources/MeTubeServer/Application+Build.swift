import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import MeTubeAPI
import MeTubeYouTube
import ServiceLifecycle

/// Builds the whole server: storage, routes, feed ingestion and the configured add-ons
/// (``ServerConfiguration/addOns``).
///
/// The storage is the PostgreSQL database of `configuration.databaseURL` when it is set, else the
/// SQLite file of `configuration.databasePath`, else an SQLite database in memory.
public func buildApplication(configuration: ServerConfiguration) async throws -> some ApplicationProtocol {
    try configuration.validate()
    return try await buildApplication(configuration: configuration, storage: ServerStorage.open(configuration: configuration))
}

/// Builds the whole server over an open database (`configuration.databasePath` is not used);
/// tests and benchmarks use it to seed and inspect the storage directly.
public func buildApplication(configuration: ServerConfiguration, database: ServerDatabase) async throws -> some ApplicationProtocol {
    try await buildApplication(configuration: configuration, storage: ServerStorage(database: database))
}

/// Builds the whole server over `storage`, with WebSub and the YouTube Data API when configured.
private func buildApplication(configuration: ServerConfiguration, storage: ServerStorage) async throws -> some ApplicationProtocol {
    try configuration.validate()
    let push = PushServices(configuration: configuration, storage: storage)
    let repository = storage.hub
    let markSync = MarkSyncRoutes(repository: storage.markSync, configuration: configuration.markSync)
    let ingester = configuration.pollInterval.map { pollInterval in
        FeedIngester(
            repository: push.ingestionRepository, feedURLTemplate: configuration.feedURLTemplate, pollInterval: pollInterval,
            concurrency: configuration.ingestConcurrency, schedule: push.pollSchedule, leases: push.pollLeases,
            feedRate: configuration.feedRate, logger: configuration.logger
        )
    }
    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: ForwardedClientMiddleware(trustedProxies: TrustedProxies(configuration.trustedProxies)))
    if configuration.metrics != nil { router.add(middleware: MetricsMiddleware()) }
    let hub = HubService(
        repository: repository, registrationsPerHour: configuration.registrationsPerHour, ingester: ingester,
        onNewChannels: push.onNewChannels, databaseUnavailableReason: storage.unavailableReason,
        catalogFailure: { [catalog = push.catalog] in await catalog?.failure })
    addRoutes(to: router, hub: hub, markSync: markSync)
    let resolver = ChannelLinkResolver(
        dataAPI: configuration.youTubeAPI.map(YouTubeDataAPI.init(configuration:)),
        dataAPIBudget: configuration.youTubeAPI.map { DataAPIBudget(enrichment: storage.enrichment, dailyUnits: $0.dailyUnits) },
        ytDLP: configuration.catalog.ytDLP, cache: storage.links, lookupsPerHour: configuration.linkLookupsPerHour,
        rate: configuration.feedRate, logger: configuration.logger)
    ChannelResolveRoutes(resolver: resolver, users: storage.markSync, window: ChannelResolveRoutes<ServerRequestContext>.window(handlerDeadline: configuration.connectionLimits.handlerDeadline))
        .add(to: router)
    push.webSubRoutes?.add(to: router)
    var services: [any Service] = []
    if let ingester { services.append(ingester) }
    services += push.services
    if let metrics = configuration.metrics {
        services.append(metrics.endpoint(counts: storage.counts, host: configuration.host, logger: configuration.logger))
    }
    // Installed before the services start, so the first polling round already finds what an
    // add-on stored (the demo's channels).
    let addOns = try await install(configuration.addOns, repository: repository, router: router)
    services += addOns.flatMap(\.services)
    let host = configuration.host
    let onListening = configuration.onListening
    let limits = configuration.connectionLimits
    let maxBodyBytes = max(configuration.markSync.maxBodyBytes, HubAPI.maxBodyBytes, WebSubService.maxNotificationBytes)
    let silentConnections = SilentConnections(maxSetAside: 4 * limits.maxConnections)
    return Application(
        responder: HandlerDeadlineResponder(inner: router.buildResponder(), deadline: limits.handlerDeadline, maxBodyBytes: maxBodyBytes),
        server: GuardedHTTP1Channel.server(limits: limits, silentConnections: silentConnections),
        configuration: .init(
            address: .hostname(host, port: configuration.port), serverName: "metube-server",
            availableConnectionsDelegate: AdmittedConnectionCap(maxConnections: limits.maxConnections, silentConnections: silentConnections)),
        services: services,
        onServerRunning: { channel in
            silentConnections.accepting(on: channel)
            let port = channel.localAddress?.port ?? 0
            // The add-ons hear the port before the server says it listens, so a client that waits
            // for that finds them ready (the demo's thumbnails pointing here).
            for addOn in addOns { await addOn.listening(host, port) }
            await onListening(host, port)
        },
        logger: configuration.logger
    )
}

/// Installs `addOns` in order over the open hub `repository`, adding their routes to `router`.
private func install(_ addOns: [any ServerAddOn], repository: any HubRepository, router: Router<ServerRequestContext>) async throws -> [InstalledAddOn] {
    var installed: [InstalledAddOn] = []
    for addOn in addOns { installed.append(try await addOn.install(repository: repository, router: router)) }
    return installed
}

/// Builds the router: the hub API (section A of the MeTube hub API) and, when given, the status
/// routes, with their HTTP conventions (CORS, `OPTIONS`, exact paths) and the one error middleware
/// (``ServerErrorMiddleware``).
public func buildRouter(hubRepository: any HubRepository, markSync: MarkSyncRoutes? = nil) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    addRoutes(to: router, hub: HubService(repository: hubRepository), markSync: markSync)
    return router
}

/// Builds the router with `firstMiddleware` in front of everything else (tests use it to inject
/// faults between a client and the real routes).
public func buildRouter(hubRepository: any HubRepository, markSync: MarkSyncRoutes? = nil, firstMiddleware: some RouterMiddleware<BasicRequestContext>) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: firstMiddleware)
    addRoutes(to: router, hub: HubService(repository: hubRepository), markSync: markSync)
    return router
}

private func addRoutes<Context: RequestContext>(to router: Router<Context>, hub: HubService, markSync: MarkSyncRoutes?) {
    router.add(middleware: HubHTTPMiddleware())
    router.add(middleware: ServerErrorMiddleware())
    router.add(middleware: HTTPCompressionMiddleware(maxInflatedBytes: max(HubAPI.maxBodyBytes, markSync?.service.configuration.maxBodyBytes ?? 0)))
    router.add(middleware: StorageDeadlineMiddleware())
    HubAPIRoutes(service: hub).add(to: router)
    markSync?.register(on: router)
}
