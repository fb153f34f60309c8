import Logging
import ServiceLifecycle

/// The parts WebSub push and YouTube Data API enrichment add to the server, built from its
/// configuration: the repository ingestion writes through (it wakes the enrichment), the polling
/// schedule, the callback routes and the background services.
struct PushServices {
    /// What polling and WebSub deliveries ingest through.
    let ingestionRepository: any HubRepository
    /// Defers polls of channels whose uploads are pushed; nil without WebSub.
    let pollSchedule: (any FeedPollSchedule)?
    /// Shares polling rounds with the other instances on the database; nil on SQLite.
    let pollLeases: (any FeedPollLeases)?
    /// Runs after a registration that added channels: subscribes them at once.
    let onNewChannels: (@Sendable () -> Void)?
    /// The WebSub callback routes; nil without WebSub.
    let webSubRoutes: WebSubRoutes<ServerRequestContext>?
    /// The subscriber and the enrichment, as configured.
    let services: [any Service]

    init(configuration: ServerConfiguration, database: ServerDatabase, repository: any HubRepository) {
        var services: [any Service] = []
        var ingestionRepository = repository
        if let api = configuration.youTubeAPI {
            let enricher = YouTubeEnricher(
                api: YouTubeDataAPI(configuration: api), repository: SQLiteEnrichmentRepository(database: database),
                signal: WakeSignal(), logger: configuration.logger)
            services.append(enricher)
            let signal = enricher.signal
            ingestionRepository = ObservedHubRepository(base: repository, ingested: { signal.signal() })
        } else if configuration.pollInterval != nil || configuration.webSub != nil {
            configuration.logger.info(
                "no YouTube Data API key (--youtube-api-key): durations and channel thumbnails are off; Shorts are still recognised by their /shorts/ links")
        }
        self.ingestionRepository = ingestionRepository
        pollLeases = nil
        if let webSub = configuration.webSub {
            let subscriptions = SQLiteWebSubRepository(database: database)
            let subscriber = WebSubSubscriber(
                configuration: webSub, subscriptions: subscriptions, signal: WakeSignal(), logger: configuration.logger)
            services.append(subscriber)
            let signal = subscriber.signal
            onNewChannels = { signal.signal() }
            pollSchedule = WebSubPollSchedule(subscriptions: subscriptions, pushedPollInterval: webSub.pushedPollInterval, logger: configuration.logger)
            webSubRoutes = WebSubRoutes(service: WebSubService(
                configuration: webSub, subscriptions: subscriptions, hub: ingestionRepository, renewals: signal, logger: configuration.logger))
        } else {
            onNewChannels = nil
            pollSchedule = nil
            webSubRoutes = nil
        }
        self.services = services
    }
}
