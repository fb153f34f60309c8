import MeTubeStore
import MeTubeYouTube

extension SyncConfiguration {
    /// The video source this configuration names for `store`: the hub at `hubURL`, or the
    /// channels' feeds directly; `nil` in hub mode without a hub URL.
    public func videoSource(for store: Store) -> (any VideoSource)? {
        switch source {
        case .hub:
            guard let hubURL, !hubURL.isEmpty else { return nil }
            let client = HubClient(baseURL: hubURL, timeout: requestTimeout, retryPolicy: retryPolicy)
            return HubVideoSource(store: store, client: client, pageSize: pageSize, followHubChannels: followHubChannels, rules: rules)
        case .direct:
            let client = DirectFeedClient(urlTemplate: feedURLTemplate, timeout: requestTimeout)
            return DirectVideoSource(
                store: store, client: client, concurrency: directConcurrency, rate: directRate, rules: rules,
                healthFile: feedHealthFile.map(FeedHealthFile.init), ignoresSavedBackoff: ignoresSavedBackoff, catalog: directCatalog
            )
        }
    }

    /// Direct mode's backfills and lengths: the Data API when a key is set, and yt-dlp when one is
    /// configured.
    public var directCatalog: DirectCatalog {
        DirectCatalog(
            backfill: backfill, dataAPI: youTubeAPIKey.map { YouTubeDataAPI(key: $0, baseURL: youTubeAPIURL) },
            ytDLP: ytDLPCommand.map { YTDLPCatalog(command: $0, deadline: DirectCatalog.ytDLPDeadline) })
    }
}
