import MeTubeCore

extension SyncConfiguration {
    /// The sync engine's part of `settings`: `[hub] url`, `source`, `page-size`, `concurrency`,
    /// `follow-hub-channels`, `feed-url-template`, `rate`, and `[sync] hub-interval` and
    /// `status-interval` (0 turns the periodic sync off). Every number is range-checked by
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
        statusInterval = settings.duration(.statusInterval)
        rules = settings.rules
    }
}
