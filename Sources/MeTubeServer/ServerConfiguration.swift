import Foundation
import Logging

/// Everything `buildApplication` needs to know.
public struct ServerConfiguration: Sendable {
    /// YouTube's channel feed URL, the default feed template.
    public static let youTubeFeedURLTemplate = "https://www.youtube.com/feeds/videos.xml?channel_id={channelId}"

    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The SQLite file holding the hub and the mark-sync service; nil keeps everything in memory.
    public var databasePath: String?
    /// The PostgreSQL database holding the hub and the mark-sync service; when set it is used
    /// instead of `databasePath`, and any number of servers may share it.
    public var databaseURL: PostgresDatabaseURL?
    /// The most connections to `databaseURL` this server opens.
    public var databasePoolSize = PostgresServerDatabase.defaultPoolSize
    /// The status file of the older two-file layout, imported into `databasePath` on first start;
    /// nil means `NAME-status.sqlite` beside `databasePath` (see ``ServerDatabase``).
    public var legacyMarkSyncDatabasePath: String?
    /// The mark-sync service's limits, containers and throttling.
    public var markSync = MarkSyncConfiguration()
    /// The feed URL with `{channelId}` where the channel id goes.
    public var feedURLTemplate: String
    /// The time between polling rounds; nil disables polling.
    public var pollInterval: Duration?
    /// How many feeds are fetched at once.
    public var ingestConcurrency: Int
    /// The most feed requests a second toward the feed server (YouTube); 0: no limit.
    public var feedRate: Double = Self.defaultFeedRate
    /// The feed requests a second when nothing else is said.
    public static let defaultFeedRate = 20.0
    /// The links each mark-sync user may have looked up on YouTube per hour unless configured otherwise.
    public static let defaultLinkLookupsPerHour = 1_000
    /// The parts added from outside this module (the demo's catalog with `--demo`), installed in
    /// order once the storage is open.
    public var addOns: [any ServerAddOn] = []
    /// The new channels one client address may register per hour; nil: no limit.
    public var registrationsPerHour: Int? = HubService.defaultRegistrationsPerHour
    /// How many links each mark-sync user may have the hub look up on YouTube per hour through
    /// `POST /api/channels/resolve` (answers from its cache and `UC…` ids cost nothing); nil: no limit.
    public var linkLookupsPerHour: Int? = Self.defaultLinkLookupsPerHour
    /// The IP addresses of the reverse proxies whose `Forwarded` / `X-Forwarded-For` headers name
    /// the client (see ``TrustedProxies``); every other peer is the client itself.
    public var trustedProxies: [String] = []
    /// How many connections may be open, and how long and how slowly a client may hold one.
    public var connectionLimits = ConnectionLimits()
    /// How long a graceful shutdown may wait for requests in progress before they are cut off.
    public var shutdownGrace: Duration = .seconds(10)
    /// The server's logger.
    public var logger: Logger
    /// Called once the server listens, with the bound host and port.
    public var onListening: @Sendable (_ host: String, _ port: Int) async -> Void
    /// Where `/metrics` is served, when it is; see ``ServerMetrics``.
    public var metrics: ServerMetrics?
    /// WebSub push (``WebSubSubscriber``), on when the server has a public URL; nil: polling only.
    public var webSub: WebSubConfiguration?
    /// YouTube Data API enrichment (``YouTubeEnricher``); nil: no durations or channel thumbnails
    /// for real channels.
    public var youTubeAPI: YouTubeAPIConfiguration?
    /// The backfill of newly followed channels and, without a Data API key, the videos' lengths
    /// (``ChannelCatalogService``); runs where feeds are polled or pushed, unless an add-on
    /// does not allow it (the demo's made-up channels).
    public var catalog = CatalogConfiguration()

    /// Whether the channel catalog runs: feeds are polled or pushed, and every add-on allows it.
    var runsChannelCatalog: Bool {
        (pollInterval != nil || webSub != nil) && addOns.allSatisfy(\.allowsChannelCatalog)
    }

    /// Creates a configuration; by default an in-memory hub on 127.0.0.1 with an ephemeral port
    /// that polls YouTube every 15 minutes with 8 feeds at once.
    public init(
        host: String = "127.0.0.1", port: Int = 0, databasePath: String? = nil,
        feedURLTemplate: String = Self.youTubeFeedURLTemplate, pollInterval: Duration? = .seconds(900),
        ingestConcurrency: Int = 8,
        logger: Logger = Logger(label: "metube-server"),
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.feedURLTemplate = feedURLTemplate
        self.pollInterval = pollInterval
        self.ingestConcurrency = ingestConcurrency
        self.logger = logger
        self.onListening = onListening
    }

    /// Checks the settings; throws `ServerError.invalidConfiguration` naming the bad one.
    public func validate() throws(ServerError) {
        guard (0...65_535).contains(port) else { throw .invalidConfiguration("port must be 0…65535, got \(port)") }
        guard ingestConcurrency >= 1 else { throw .invalidConfiguration("ingest concurrency must be at least 1") }
        guard feedRate.isFinite, (0...10_000).contains(feedRate) else { throw .invalidConfiguration("the feed rate must be 0…10000 requests a second") }
        guard feedURLTemplate.contains("{channelId}") else {
            throw .invalidConfiguration("the feed URL template must contain {channelId}")
        }
        if let pollInterval, pollInterval <= .zero { throw .invalidConfiguration("poll interval must be positive") }
        if let linkLookupsPerHour, linkLookupsPerHour < 1 { throw .invalidConfiguration("the link lookup limit must be at least 1 an hour") }
        if let registrationsPerHour, registrationsPerHour < 1 { throw .invalidConfiguration("the registration limit must be at least 1 channel an hour") }
        if let address = trustedProxies.first(where: { TrustedProxies.canonical($0) == nil }) {
            throw .invalidConfiguration("a trusted proxy must be an IP address, got \(String(address.prefix(64)).debugDescription)")
        }
        let limits = connectionLimits
        guard limits.maxConnections >= 1 else { throw .invalidConfiguration("the connection cap must be at least 1") }
        guard limits.idleTimeout > .zero, limits.headerTimeout > .zero, limits.requestGrace > .zero, limits.handlerDeadline > .zero,
              limits.minimumBytesPerSecond >= 0 else {
            throw .invalidConfiguration("connection timeouts and deadlines must be positive and the minimum rate not negative")
        }
        guard limits.maxIdleConnections >= 1 else { throw .invalidConfiguration("the idle connection cap must be at least 1") }
        guard (1...PostgresServerDatabase.maximumPoolSize).contains(databasePoolSize) else {
            throw .invalidConfiguration("the database pool size must be 1…\(PostgresServerDatabase.maximumPoolSize), got \(databasePoolSize)")
        }
        if databaseURL != nil, databasePath != nil {
            throw .invalidConfiguration("give either a PostgreSQL database URL or an SQLite file, not both")
        }
        guard shutdownGrace >= .zero else { throw .invalidConfiguration("the shutdown grace must not be negative") }
        try webSub?.validate()
        try youTubeAPI?.validate()
        try catalog.validate()
    }
}
