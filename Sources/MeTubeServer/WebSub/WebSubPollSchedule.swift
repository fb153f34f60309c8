import Logging

/// Polls channels with a live WebSub lease only every `pushedPollInterval`: their uploads are
/// pushed, and polling stays the fallback. Other channels are polled every round. It remembers
/// the polls of this process only; on PostgreSQL the instances share the schedule through
/// ``PostgresFeedLeases`` instead.
actor WebSubPollSchedule: FeedPollSchedule {
    private let subscriptions: any WebSubRepository
    private let pushedPollInterval: Duration
    private let logger: Logger
    /// When each pushed channel was last let through to a round.
    private var lastPolled: [String: ContinuousClock.Instant] = [:]

    init(subscriptions: any WebSubRepository, pushedPollInterval: Duration, logger: Logger) {
        self.subscriptions = subscriptions
        self.pushedPollInterval = pushedPollInterval
        self.logger = logger
    }

    func channelsToPoll(_ channelIDs: [String]) async -> [String] {
        let live: Set<String>
        do {
            live = try await subscriptions.liveChannelIDs(now: WebSubService.millisecondsNow())
        } catch {
            logger.error("cannot read the WebSub leases; polling every channel", metadata: ["error": "\(error)"])
            return channelIDs
        }
        let now = ContinuousClock.now
        lastPolled = lastPolled.filter { live.contains($0.key) }
        return channelIDs.filter { id in
            guard live.contains(id) else { return true }
            if let last = lastPolled[id], now - last < pushedPollInterval { return false }
            lastPolled[id] = now
            return true
        }
    }
}
