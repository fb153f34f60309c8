import Logging
import ServiceLifecycle

/// The parts WebSub push and YouTube Data API enrichment add to the server, built from its
/// configuration: the repository ingestion writes through (it wakes the enrichment), the polling
/// schedule, the callback routes and the background services.
struct PushServices {
    /// What polling and WebSub deliveries ingest through.
    let ingestionRepository: any HubRepository
    /// Picks the channels each polling round fetches; nil: every round polls every channel.
    let pollSchedule: (any FeedPollSchedule)?
    /// Shares polling rounds with the other instances on the database; nil: a round fetches all
    /// its channels here.
    let pollLeases: (any FeedPollLeases)?
    /// Runs after a registration that added channels: subscribes them at once.
    let onNewChannels: (@Sendable () -> Void)?
    /// The WebSub callback routes; nil without WebSub.
    let webSubRoutes: WebSubRoutes<ServerRequestContext>?
    /// The subscriber and the enrichment, as configured.
    let services: [any Service]

    /// The parts over the SQLite `database`: a channel with a live WebSub lease is polled at the
    /// longer WebSub interval (``WebSubPollSchedule``).
    init(configuration: ServerConfiguration, database: ServerDatabase, repository: any HubRepository) {
        let subscriptions = SQLiteWebSubRepository(database: database)
        self.init(
            configuration: configuration, repository: repository, subscriptions: subscriptions,
            enrichment: SQLiteEnrichmentRepository(database: database),
            pollSchedule: configuration.webSub.map { webSub in
                WebSubPollSchedule(subscriptions: subscriptions, pushedPollInterval: webSub.pushedPollInterval, logger: configuration.logger)
            })
    }

    /// The parts over `subscriptions` and `enrichment`, where WebSub and the enrichment keep
    /// their state, with `pollSchedule` and `pollLeases` for the polling rounds.
    init(
        configuration: ServerConfiguration, repository: any HubRepository, subscriptions: any WebSubRepository,
        enrichment: any EnrichmentRepository, pollSchedule: (any FeedPollSchedule)?, pollLeases: (any FeedPollLeases)? = nil
    ) {
        var services: [any Service] = []
        var ingestionRepository = repository
        if let api = configuration.youTubeAPI {
            let enricher = YouTubeEnricher(
                api: YouTubeDataAPI(configuration: api), repository: enrichment, signal: WakeSignal(), logger: configuration.logger)
            services.append(enricher)
            let signal = enricher.signal
            ingestionRepository = ObservedHubRepository(base: repository, ingested: { signal.signal() })
        } else if configuration.pollInterval != nil || configuration.webSub != nil {
            configuration.logger.info(
                "no YouTube Data API key (--youtube-api-key): durations and channel thumbnails are off; Shorts are still recognised by their /shorts/ links")
        }
        self.ingestionRepository = ingestionRepository
        self.pollSchedule = pollSchedule
        self.pollLeases = pollLeases
        if let webSub = configuration.webSub {
            let subscriber = WebSubSubscriber(
                configuration: webSub, subscriptions: subscriptions, signal: WakeSignal(), logger: configuration.logger)
            services.append(subscriber)
            let signal = subscriber.signal
            onNewChannels = { signal.signal() }
            webSubRoutes = WebSubRoutes(service: WebSubService(
                configuration: webSub, subscriptions: subscriptions, hub: ingestionRepository, renewals: signal, logger: configuration.logger))
        } else {
            onNewChannels = nil
            webSubRoutes = nil
        }
        self.services = services
    }
}
