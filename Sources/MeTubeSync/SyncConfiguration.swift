import Foundation
import MeTubeCore

/// How the `SyncEngine` syncs videos and when it runs, read from the `[hub]` and `[sync]` sections
/// of the config file.
public struct SyncConfiguration: Sendable {
    /// Where videos come from.
    public var source: SyncSource
    /// The hub's base URL (hub mode).
    public var hubURL: String?
    /// The feed URL template (direct mode).
    public var feedURLTemplate: String
    /// The hub page size.
    public var pageSize: Int
    /// Whether hub syncs subscribe the store to every channel the hub holds (a personal hub).
    public var followHubChannels: Bool
    /// How many feeds direct mode fetches at once.
    public var directConcurrency: Int
    /// How long one request may take.
    public var requestTimeout: Duration
    /// When to retry failed hub requests.
    public var retryPolicy: RetryPolicy
    /// The wait after the source becomes reachable again before a sync starts.
    public var reconnectDebounce: Duration
    /// The waits between health probes while offline (the last one repeats).
    public var probeDelays: [Duration]
    /// How often a started engine syncs videos (and marks); `nil` for never.
    public var hubInterval: Duration?
    /// How often a started engine syncs marks with the status service; `nil` for never.
    public var statusInterval: Duration?

    /// Whether a video source is set up: a hub URL in hub mode, or direct mode.
    public var hasVideoSource: Bool {
        source == .direct || !(hubURL ?? "").isEmpty
    }

    /// Creates a configuration.
    public init(
        source: SyncSource = .hub, hubURL: String? = nil, feedURLTemplate: String = DirectFeedClient.youTubeTemplate,
        pageSize: Int = 100, followHubChannels: Bool = false, directConcurrency: Int = 8, requestTimeout: Duration = .seconds(15),
        retryPolicy: RetryPolicy = RetryPolicy(), reconnectDebounce: Duration = .milliseconds(2500),
        probeDelays: [Duration] = [.seconds(2), .seconds(5), .seconds(15), .seconds(30), .seconds(60)],
        hubInterval: Duration? = .seconds(3600), statusInterval: Duration? = .seconds(300)
    ) {
        self.source = source
        self.hubURL = hubURL
        self.feedURLTemplate = feedURLTemplate
        self.pageSize = pageSize
        self.followHubChannels = followHubChannels
        self.directConcurrency = directConcurrency
        self.requestTimeout = requestTimeout
        self.retryPolicy = retryPolicy
        self.reconnectDebounce = reconnectDebounce
        self.probeDelays = probeDelays
        self.hubInterval = hubInterval
        self.statusInterval = statusInterval
    }

    /// Reads `[hub] url`, `source` ("hub" or "youtube"), `page_size`, `concurrency`,
    /// `follow_hub_channels`, `feed_url_template`, and `[sync] hub_interval` and `status_interval`
    /// (seconds; 0 turns the periodic sync off) from `config`; throws `SyncError.notConfigured`
    /// for a bad value.
    public init(config: ConfigFile) throws(SyncError) {
        self.init()
        if let source = config["hub", "source"]?.string {
            switch source {
            case "hub": self.source = .hub
            case "youtube", "direct": self.source = .direct
            default: throw .notConfigured("[hub] source must be \"hub\" or \"youtube\", not \"\(source)\"")
            }
        }
        hubURL = config["hub", "url"]?.string
        if let template = config["hub", "feed_url_template"]?.string { feedURLTemplate = template }
        if let follow = config["hub", "follow_hub_channels"]?.bool { followHubChannels = follow }
        if let size = config["hub", "page_size"]?.number {
            guard (1...500).contains(size) else { throw .notConfigured("[hub] page_size must be 1…500") }
            pageSize = Int(size)
        }
        if let concurrency = config["hub", "concurrency"]?.number {
            guard concurrency >= 1 else { throw .notConfigured("[hub] concurrency must be at least 1") }
            directConcurrency = Int(concurrency)
        }
        if let interval = try Self.interval(config, "hub_interval") { hubInterval = interval }
        if let interval = try Self.interval(config, "status_interval") { statusInterval = interval }
    }

    /// The `[sync]` interval `key`: `nil` when absent, `.some(nil)` for 0 (off).
    private static func interval(_ config: ConfigFile, _ key: String) throws(SyncError) -> Duration?? {
        guard let value = config["sync", key] else { return nil }
        guard let seconds = value.number, seconds >= 0 else { throw .notConfigured("[sync] \(key) must be a number of seconds (0 turns it off)") }
        return .some(seconds == 0 ? nil : .milliseconds(Int64(seconds * 1000)))
    }
}
