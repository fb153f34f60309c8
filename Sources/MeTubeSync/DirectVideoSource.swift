import MeTubeCore
import MeTubeFeeds
import MeTubeStore

/// Videos straight from each channel's Atom feed (YouTube's, or any server with the same URL
/// template), several feeds at once, with conditional GET.
public struct DirectVideoSource: VideoSource {
    private let store: Store
    private let client: DirectFeedClient
    private let concurrency: Int
    private let rules: FeedRules
    private let feedGuard: DirectFeedGuard
    private let clock: FeedClock
    private let catalog: DirectCatalog?

    /// The requests per second toward the feed server when nothing else is said.
    public static let defaultRate = 100.0

    /// A source syncing `store` through `client`, `concurrency` feeds at a time and at most
    /// `rate` requests a second; `rules` mark the new videos they skip. A failing channel backs
    /// off from `backoffStep` (doubling, with jitter, honouring Retry-After), and when most
    /// channels fail at once the source counts as down and is probed one feed at a time; `clock`
    /// times both (a test clock in tests). With `healthFile`, the backoff and the outage are
    /// taken up from earlier runs (unless `ignoresSavedBackoff`) and kept after each run.
    /// `catalog` backfills channels and fills in lengths (calls at the same rate), keeping what
    /// it owes channels after a failure with the backoff.
    public init(
        store: Store, client: DirectFeedClient, concurrency: Int = 8, rate: Double = defaultRate, backoffStep: Duration = .seconds(300),
        rules: FeedRules = FeedRules(), clock: FeedClock = .continuous, healthFile: FeedHealthFile? = nil, ignoresSavedBackoff: Bool = false,
        catalog: DirectCatalog? = nil
    ) {
        self.rules = rules
        self.catalog = catalog
        feedGuard = DirectFeedGuard(
            rate: rate, firstStep: backoffStep, clock: clock, healthFile: healthFile, feeds: client.urlTemplate, ignoresSaved: ignoresSavedBackoff
        )
        self.clock = clock
        self.store = store
        self.client = client
        self.concurrency = max(1, concurrency)
    }

    public var kind: SyncSource { .direct }

    public func sync(progress: @escaping @Sendable (String) -> Void) async throws(SyncError) -> SyncReport {
        try await sync(pace: nil, progress: progress)
    }

    /// A run whose fetches start evenly over `pace`'s spread (all at once when nil or hurried),
    /// still within the global rate.
    public func sync(pace: SyncPace?, progress: @escaping @Sendable (String) -> Void) async throws(SyncError) -> SyncReport {
        try await DirectSyncRun(
            store: store, client: client, concurrency: concurrency, rules: rules, progress: progress, feedGuard: feedGuard, pace: pace, clock: clock,
            catalog: catalog
        ).run()
    }

    /// Fetches the first followed channel's feed once: any answer, even an error status, shows
    /// the feed server is there; only a connection failure or a timeout throws. With no channel
    /// followed there is nothing to reach, and the probe passes. While the source is down as a
    /// whole, the probe fetches the next channel's feed and passes only when
    /// it answers with the feed.
    public func probe() async throws(SyncError) {
        let channelIDs = store.library().channels.keys.sorted()
        if case .probe(let channelID, _) = await feedGuard.plan(channelIDs) {
            try await probeDuringOutage(channelID)
            return
        }
        guard let channelID = channelIDs.first else { return }
        do {
            _ = try await client.fetch(channelID: channelID, etag: nil, lastModified: nil)
        } catch where error.isOffline || error == .cancelled {
            throw error
        } catch {
            return
        }
    }

    private func probeDuringOutage(_ channelID: String) async throws(SyncError) {
        do {
            try await feedGuard.acquireSlot()
            _ = try await client.fetch(channelID: channelID, etag: nil, lastModified: nil)
        } catch let error as SyncError {
            if error != .cancelled { _ = await feedGuard.recordProbe(channelID, error: error) }
            throw error
        } catch {
            throw .cancelled
        }
        _ = await feedGuard.recordProbe(channelID, error: nil)
    }
}
