import MeTubeCore
import MeTubeYouTube

extension SyncConfiguration {
    /// The sync engine's part of `settings`: `[hub] url`, `source`, `page-size`, `concurrency`,
    /// `follow-hub-channels`, `feed-url-template`, `rate`, and `[sync] hub-interval` and
    /// `status-interval` (0 turns the periodic sync off), `[hub] backfill` with `[youtube] api-key`
    /// (read from `api-key-file` by ``Settings/readingAPIKeyFile()``), `api-url` and `[download]
    /// command` for direct mode's backfills and lengths. Every number is range-checked by
    /// ``Settings`` before it gets here, so none can overflow a count or a `Duration`.
    public init(settings: Settings) {
        self.init()
        source = settings.text(.source) == "hub" ? .hub : .direct
        hubURL = settings.text(.hubURL)
        if let template = settings.text(.feedURLTemplate) { feedURLTemplate = template }
        followHubChannels = settings.flag(.followHubChannels)
        pageSize = settings.whole(.pageSize)
        directConcurrency = settings.whole(.concurrency)
        directRate = settings.number(.feedRate)
        hubInterval = settings.duration(.hubInterval)
        markSyncInterval = settings.duration(.markSyncInterval)
        rules = settings.rules
        backfill = settings.whole(.backfill)
        youTubeAPIKey = settings.text(.youTubeAPIKey)
        youTubeAPIURL = settings.text(.youTubeAPIURL) ?? YouTubeDataAPI.defaultBaseURL
        ytDLPCommand = settings.text(.downloadCommand).flatMap { $0.isEmpty ? nil : $0 }
    }
}
