import ArgumentParser
import Foundation
import Logging
import MeTubeCore
import MeTubeDemoServer
import MeTubeServer
import ServiceLifecycle

@main
struct MeTubeServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metube-server",
        abstract: "The MeTube hub and status server.",
        version: MeTubeVersion.current,
        subcommands: [Serve.self, Users.self, Channels.self, Backup.self, Restore.self, Migrate.self],
        defaultSubcommand: Serve.self
    )
}

/// `metube-server serve`: runs the hub until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the hub API and ingest the registered channels' feeds.",
        discussion: "Prints `listening on http://HOST:PORT` on stdout once the port is bound."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port.")
    var port = 8787

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The feed URL of a channel, with {channelId} where the id goes.")
    var feedURLTemplate = ServerConfiguration.youTubeFeedURLTemplate

    @Option(help: "Seconds between feed polling rounds; 0 disables polling.")
    var pollInterval = 900.0

    @Option(help: "How many feeds to fetch at once.")
    var ingestConcurrency = 8

    @Option(help: "The most feed requests a second toward YouTube (all channels together); 0 turns the limit off.")
    var feedRate = ServerConfiguration.defaultFeedRate

    @Flag(help: "Seed a synthetic library (with three premieres and a stream in progress) and publish a new upload every few seconds.")
    var demo = false

    @Option(help: "Seconds between demo uploads.")
    var demoInterval = 5.0

    @Option(name: .customLong("status-db"), help: "The status file of the older two-file layout, imported into the SQLite --database on first start (default: NAME-status.sqlite beside it); without --database it is the database.")
    var markSyncDatabase: String?

    @Option(name: .customLong("status-rate"), help: "Status requests per second allowed to each user; 0 turns throttling off.")
    var markSyncRate = 40.0

    @Option(help: "The redirectURL of AUTHENTICATION_REQUIRED answers: where a status user gets a token.")
    var signInURL = MarkSyncConfiguration.defaultSignInURL

    @Option(help: "New channels one client address may register per hour; 0 turns the limit off.")
    var registerLimit = HubService.defaultRegistrationsPerHour

    @Option(help: "Links each status user may have the hub look up on YouTube per hour (POST /api/channels/resolve); 0 turns the limit off.")
    var resolveLimit = ServerConfiguration.defaultLinkLookupsPerHour

    @Option(help: "The most connections open at once.")
    var maxConnections = ConnectionLimits().maxConnections

    @Option(help: "Seconds a connection may sit without a request between two requests.")
    var idleTimeout = 60.0

    @Option(help: "Seconds a new connection may take to send a whole request head (a silent one is closed then).")
    var headerTimeout = 5.0

    @Option(help: "Idle connections counted under --max-connections; beyond it the silent one idle longest is set aside until --header-timeout, or, with none, the used one idle longest is closed (default: half of --max-connections).")
    var maxIdleConnections: Int?

    @Option(name: .customLong("trusted-proxy"), help: "The IP address of a reverse proxy whose Forwarded / X-Forwarded-For headers name the client (repeat for several); other peers' headers are ignored.")
    var trustedProxies: [String] = []

    @Option(help: "Seconds a request's handler may take once the request has arrived; past it the client gets 503 with Retry-After.")
    var handlerDeadline = 10.0

    @Option(help: "Seconds a request may take to arrive before it must keep up 1 KiB/s.")
    var requestGrace = 10.0

    @Option(help: "Seconds a shutdown waits for requests in progress before cutting them off.")
    var shutdownGrace = 10.0

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "Serve Prometheus metrics at http://HOST:PORT/metrics (0 picks a free port; printed as `metrics on …`).")
    var metricsPort: Int?

    @Option(help: "Log lines as `text` or `json` (one JSON object per line).")
    var logFormat = LogFormat.text

    @Option(name: .customLong("public-url"), help: "The server's address as the WebSub hub reaches it (http:// or https://); turns WebSub push on, with callbacks at URL/websub/CHANNEL_ID.")
    var publicURL: String?

    @Option(help: "The WebSub hub's subscription endpoint.")
    var websubHub = WebSubConfiguration.youTubeHubURL

    @Option(help: "Seconds between polls of a channel whose uploads WebSub pushes (polling stays the fallback).")
    var websubPollInterval = 21_600.0

    @Option(name: .customLong("youtube-api-key"), help: "A YouTube Data API key: fills in video durations, whether videos are upcoming, live, private or gone (re-checked near a premiere's start), and channel thumbnails (also METUBE_YOUTUBE_API_KEY; a key file keeps it out of the process list).")
    var youtubeAPIKey: String?

    @Option(name: .customLong("youtube-api-key-file"), help: "A file holding the YouTube Data API key.")
    var youtubeAPIKeyFile: String?

    @Option(help: "The YouTube Data API quota units to spend per UTC day (1 per call of 50 videos or channels).")
    var youtubeDailyUnits = YouTubeAPIConfiguration.defaultDailyUnits

    @Option(name: .customLong("youtube-api-url"), help: ArgumentHelp("The YouTube Data API base URL (for testing against a stub).", visibility: .hidden))
    var youtubeAPIURL = YouTubeAPIConfiguration.defaultBaseURL

    @Option(name: .customLong("yt-dlp"), help: "The yt-dlp program (a path, or a name on PATH) asked for a channel's flat playlist: the backfill of new channels without a key, and video durations without a key.")
    var ytDLP = "yt-dlp"

    @Option(help: "How many of its last uploads a newly followed channel brings, once for every client (0: only the feed's 15).")
    var backfill = CatalogConfiguration.defaultBackfill

    @Option(help: "The most zones each status user may create, unless `users quota` sets theirs.")
    var quotaZones = QuotaLimit(MarkSyncQuota.household.zones)

    @Option(help: "The most live records each status user may hold, unless `users quota` sets theirs.")
    var quotaRecords = QuotaLimit(MarkSyncQuota.household.records)

    @Option(help: "The most bytes each status user may store (a number, or with KiB, MiB or GiB), unless `users quota` sets theirs.")
    var quotaBytes = QuotaLimit(MarkSyncQuota.household.bytes)

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level \(logLevel)") }
        if let metricsPort, !(0...65_535).contains(metricsPort) { throw ValidationError("--metrics-port must be 0…65535") }
        guard pollInterval.isFinite, (0...604_800).contains(pollInterval) else { throw ValidationError("--poll-interval must be 0…604800 seconds") }
        guard demoInterval.isFinite, (1...86_400).contains(demoInterval) else { throw ValidationError("--demo-interval must be 1…86400 seconds") }
        guard markSyncRate.isFinite, (0...1_000_000).contains(markSyncRate) else { throw ValidationError("--status-rate must be 0…1000000") }
        guard (1...1_000).contains(ingestConcurrency) else { throw ValidationError("--ingest-concurrency must be 1…1000") }
        guard feedRate.isFinite, (0...10_000).contains(feedRate) else { throw ValidationError("--feed-rate must be 0…10000 requests a second") }
        guard !signInURL.isEmpty, signInURL.utf8.count <= 2048, URL(string: signInURL) != nil else { throw ValidationError("--sign-in-url must be a URL") }
        guard registerLimit >= 0 else { throw ValidationError("--register-limit must not be negative") }
        guard resolveLimit >= 0 else { throw ValidationError("--resolve-limit must not be negative") }
        guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 1…1000000") }
        if let maxIdleConnections, !(1...1_000_000).contains(maxIdleConnections) { throw ValidationError("--max-idle-connections must be 1…1000000") }
        guard trustedProxies.count <= 64 else { throw ValidationError("at most 64 --trusted-proxy addresses") }
        for (name, value) in [("--idle-timeout", idleTimeout), ("--header-timeout", headerTimeout), ("--request-grace", requestGrace),
                              ("--handler-deadline", handlerDeadline), ("--shutdown-grace", shutdownGrace)] {
            guard value.isFinite, value > 0, value <= 86_400 else { throw ValidationError("\(name) must be more than 0 and at most 86400 seconds") }
        }
        guard websubPollInterval.isFinite, (1...2_592_000).contains(websubPollInterval) else {
            throw ValidationError("--websub-poll-interval must be 1…2592000 seconds")
        }
        do {
            try webSubConfiguration?.validate()
            try WebSubConfiguration.checkURL(websubHub, option: "--websub-hub", allowsQuery: true)
            try youTubeAPIConfiguration()?.validate()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// WebSub push, when `--public-url` turns it on.
    private var webSubConfiguration: WebSubConfiguration? {
        publicURL.map { url in
            WebSubConfiguration(publicURL: url, hubURL: websubHub, pushedPollInterval: .milliseconds(Int64(websubPollInterval * 1000)))
        }
    }

    /// The YouTube Data API enrichment, when a key is given.
    private func youTubeAPIConfiguration() throws(ServerError) -> YouTubeAPIConfiguration? {
        try YouTubeAPIConfiguration.key(option: youtubeAPIKey, file: youtubeAPIKeyFile, environment: ProcessInfo.processInfo.environment)
            .map { key in YouTubeAPIConfiguration(key: key, dailyUnits: youtubeDailyUnits, baseURL: youtubeAPIURL) }
    }

    func run() async throws {
        LoggingSystem.bootstrap { [logFormat] label in logFormat.makeHandler(label: label) }
        var logger = Logger(label: "metube-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let (location, legacyMarkSyncPath) = try database.serverLocation(markSyncDatabase: markSyncDatabase)
        var configuration = ServerConfiguration(
            host: host, port: port, feedURLTemplate: feedURLTemplate,
            pollInterval: pollInterval > 0 ? .milliseconds(Int64(pollInterval * 1000)) : nil,
            ingestConcurrency: ingestConcurrency,
            logger: logger,
            onListening: { host, port in
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
        )
        if demo { configuration.addOns.append(DemoAddOn(interval: .milliseconds(Int64(demoInterval * 1000)), logger: logger)) }
        configuration.feedRate = feedRate
        configuration.catalog = CatalogConfiguration(ytDLP: ytDLP, backfill: backfill)
        if case .postgres? = location, markSyncDatabase != nil {
            throw ValidationError("--status-db belongs to an SQLite --database, not to PostgreSQL")
        }
        configuration.databaseLocation = location
        configuration.legacyMarkSyncDatabasePath = legacyMarkSyncPath
        configuration.databasePoolSize = database.databasePool
        configuration.markSync = MarkSyncConfiguration(
            requestsPerSecond: markSyncRate > 0 ? markSyncRate : nil, burst: max(1, Int(markSyncRate)), signInURL: signInURL,
            quota: MarkSyncQuota(zones: quotaZones.value, records: quotaRecords.value, bytes: quotaBytes.value))
        configuration.registrationsPerHour = registerLimit > 0 ? registerLimit : nil
        configuration.linkLookupsPerHour = resolveLimit > 0 ? resolveLimit : nil
        configuration.connectionLimits = ConnectionLimits(
            maxConnections: maxConnections, idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
            headerTimeout: .milliseconds(Int64(headerTimeout * 1000)), requestGrace: .milliseconds(Int64(requestGrace * 1000)),
            maxIdleConnections: maxIdleConnections, handlerDeadline: .milliseconds(Int64(handlerDeadline * 1000)))
        configuration.trustedProxies = trustedProxies
        configuration.shutdownGrace = .milliseconds(Int64(shutdownGrace * 1000))
        configuration.webSub = webSubConfiguration
        configuration.metrics = metricsPort.map { port in
            ServerMetrics.bootstrap(port: port) { host, port in
                FileHandle.standardOutput.write(Data("metrics on http://\(host):\(port)/metrics\n".utf8))
            }
        }
        do {
            configuration.youTubeAPI = try youTubeAPIConfiguration()
            let databaseLock = try location?.sqlitePath.map { try ServerDatabaseLock(databasePath: $0) }
            defer { withExtendedLifetime(databaseLock) {} }
            let app = try await buildApplication(configuration: configuration)
            var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            group.maximumGracefulShutdownDuration = configuration.shutdownGrace
            group.maximumCancellationDuration = .seconds(5)
            try await ServiceGroup(configuration: group).run()
        } catch let error as ServerError {
            FileHandle.standardError.write(Data("metube-server: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// `metube-server users …`: manages the mark-sync service's users.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Manage the status service's users.", subcommands: [Add.self, List.self, Remove.self, Rotate.self, Quota.self])

    /// `metube-server users add NAME`: adds a user and prints their token once.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user and print their token (shown once; only its hash is stored).",
            discussion: "Give the token to `metube login --server URL --token TOKEN` on each of the user's devices.")

        @Argument(help: "The user's name: letters, digits, '-', '_' or '.'.")
        var name: String

        @Option(name: .customLong("status-db"), help: "The status file of the older two-file layout, as given to `serve --status-db`.")
        var markSyncDatabase: String?

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard try markSyncDatabase != nil || database.location() != nil else {
                throw ValidationError("give --database as for `serve`; an in-memory server has no users to add")
            }
        }

        func run() async throws {
            do {
                let (location, legacyMarkSyncPath) = try database.serverLocation(markSyncDatabase: markSyncDatabase)
                let backend = try await ServerBackend.open(location, legacyMarkSyncPath: legacyMarkSyncPath)
                print(try await MarkSyncService(repository: backend.markSync).addUser(name: name))
            } catch {
                FileHandle.standardError.write(Data("metube-server: cannot add user \(name): \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
    }
}
