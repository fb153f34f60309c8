import MeTubeCore
import MeTubeStore

/// Videos from a MeTube hub: registers the store's channels and pages through new videos.
public struct HubVideoSource: VideoSource {
    private let store: Store
    private let client: HubClient
    private let pageSize: Int
    private let followHubChannels: Bool
    private let rules: FeedRules

    /// A source syncing `store` through `client`, `pageSize` videos a request; with
    /// `followHubChannels` the store also follows every channel the hub holds; `rules` mark the
    /// new videos they skip.
    public init(store: Store, client: HubClient, pageSize: Int = 100, followHubChannels: Bool = false, rules: FeedRules = FeedRules()) {
        self.rules = rules
        self.store = store
        self.client = client
        self.pageSize = pageSize
        self.followHubChannels = followHubChannels
    }

    public var kind: SyncSource { .hub }

    public func sync(progress: @escaping @Sendable (String) -> Void) async throws(SyncError) -> SyncReport {
        try await HubSyncRun(store: store, client: client, pageSize: pageSize, followHubChannels: followHubChannels, rules: rules, progress: progress).run()
    }

    /// `GET /health`, once.
    public func probe() async throws(SyncError) {
        try await client.health()
    }
}
