import Foundation
import MeTubeCore
import MeTubeYouTube

/// How the `SyncEngine` syncs videos and when it runs; built from the `[hub]` and `[sync]`
/// settings by `init(settings:)`.
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
    /// How often a started engine syncs marks with the mark-sync service; `nil` for never.
    public var markSyncInterval: Duration?
    /// The config file's rules; their `skip` marks the new videos a sync brings in.
    public var rules = FeedRules()
    /// The most requests a second direct mode sends to the feed server (`[hub] rate`).
    public var directRate = DirectVideoSource.defaultRate
    /// Where direct mode keeps failing channels' backoff and the source's outage between runs
    /// (``FeedHealthFile``); nil: only for the source's lifetime.
    public var feedHealthFile: URL?
    /// Whether direct mode fetches every channel this time, ignoring the backoff kept from
    /// earlier runs (`metube sync --force`).
    public var ignoresSavedBackoff = false
    /// The uploads a newly followed or overflowing channel brings in direct mode (`[hub]
    /// backfill`; 0: none).
    public var backfill = 50
    /// The YouTube Data API key (`[youtube] api-key` or `api-key-file`), when one is set.
    public var youTubeAPIKey: String?
    /// The Data API's base URL (`[youtube] api-url`).
    public var youTubeAPIURL = YouTubeDataAPI.defaultBaseURL
    /// The yt-dlp direct mode asks for backfills and lengths (`[download] command`); nil: none.
    public var ytDLPCommand: String?
    /// The waits between probes while the feed source fails for every channel (the last one
    /// repeats): short, because each is one request, and the feeds' return should be noticed
    /// within seconds.
    public var outageProbeDelays: [Duration] = [.seconds(5), .seconds(10), .seconds(15)]

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
        hubInterval: Duration? = .seconds(3600), markSyncInterval: Duration? = .seconds(300)
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
        self.markSyncInterval = markSyncInterval
    }
}
