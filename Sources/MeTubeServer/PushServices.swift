import Logging
import MeTubeYouTube
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
    /// The channel catalog, where feeds are polled or pushed.
    let catalog: ChannelCatalogService?

    /// The parts over `storage`, where WebSub and the enrichment keep their state. Where the
    /// storage leases polling rounds (``ServerStorage/feedLeases``), the leases give a channel
    /// whose uploads are pushed the longer WebSub interval; elsewhere a ``WebSubPollSchedule`` does.
    init(configuration: ServerConfiguration, storage: ServerStorage) {
        let subscriptions = storage.webSub
        pollLeases = storage.feedLeases
        pollSchedule = pollLeases != nil ? nil : configuration.webSub.map { webSub in
            WebSubPollSchedule(subscriptions: subscriptions, pushedPollInterval: webSub.pushedPollInterval, logger: configuration.logger)
        }
        var services: [any Service] = []
        var signals: [WakeSignal] = []
        if let api = configuration.youTubeAPI {
            let enricher = YouTubeEnricher(
                api: YouTubeDataAPI(configuration: api), dailyUnits: api.dailyUnits, idleInterval: api.idleInterval, repository: storage.enrichment, signal: WakeSignal(), logger: configuration.logger)
            services.append(enricher)
            signals.append(enricher.signal)
        } else if configuration.runsChannelCatalog {
            configuration.logger.info(
                "no YouTube Data API key (--youtube-api-key): durations come from yt-dlp's flat playlists (--yt-dlp), channel thumbnails are off; Shorts are still recognised by their /shorts/ links, the channels' Shorts feeds and their lengths")
        }
        var catalog: ChannelCatalogService?
        if configuration.runsChannelCatalog {
            let service = ChannelCatalogService(
                configuration: configuration.catalog, api: configuration.youTubeAPI.map(YouTubeDataAPI.init(configuration:)),
                dailyUnits: configuration.youTubeAPI?.dailyUnits ?? YouTubeAPIConfiguration.defaultDailyUnits, hub: storage.hub,
                repository: storage.catalog, enrichment: storage.enrichment, rate: configuration.feedRate, logger: configuration.logger)
            services.append(service)
            signals.append(service.signal)
            catalog = service
        }
        self.catalog = catalog
        let woken = signals
        let ingestionRepository = woken.isEmpty ? storage.hub : ObservedHubRepository(base: storage.hub, ingested: { for signal in woken { signal.signal() } })
        self.ingestionRepository = ingestionRepository
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
