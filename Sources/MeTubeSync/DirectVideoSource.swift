import MeTubeCore
import MeTubeStore

/// Videos straight from each channel's Atom feed (YouTube's, or any server with the same URL
/// template), several feeds at once, with conditional GET.
public struct DirectVideoSource: VideoSource {
    private let store: Store
    private let client: DirectFeedClient
    private let concurrency: Int
    private let rules: FeedRules

    /// A source syncing `store` through `client`, `concurrency` feeds at a time; `rules` mark the
    /// new videos they skip.
    public init(store: Store, client: DirectFeedClient, concurrency: Int = 8, rules: FeedRules = FeedRules()) {
        self.rules = rules
        self.store = store
        self.client = client
        self.concurrency = max(1, concurrency)
    }

    public var kind: SyncSource { .direct }

    public func sync(progress: @escaping @Sendable (String) -> Void) async throws(SyncError) -> SyncReport {
        try await DirectSyncRun(store: store, client: client, concurrency: concurrency, rules: rules, progress: progress).run()
    }

    /// Fetches the first followed channel's feed once: any answer, even an error status, shows
    /// the feed server is there; only a connection failure or a timeout throws. With no channel
    /// followed there is nothing to reach, and the probe passes.
    public func probe() async throws(SyncError) {
        guard let channelID = store.library().channels.keys.min() else { return }
        do {
            _ = try await client.fetch(channelID: channelID, etag: nil, lastModified: nil)
        } catch where error.isOffline || error == .cancelled {
            throw error
        } catch {
            return
        }
    }
}
