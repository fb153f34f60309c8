import MeTubeAPI

/// The ``HubRepository`` the ingestion paths (polling, WebSub) write through: `ingested` runs
/// after an ingestion stored new or changed videos, and must return at once (it signals a loop,
/// such as the YouTube Data API enrichment; it never does the work).
struct ObservedHubRepository: HubRepository {
    let base: any HubRepository
    let ingested: @Sendable () -> Void

    func register(channelIDs: [String]) async throws -> HubRegisterResponse {
        try await base.register(channelIDs: channelIDs)
    }

    func channels(after channelID: String?, limit: Int) async throws -> [HubChannel] {
        try await base.channels(after: channelID, limit: limit)
    }

    func registeredChannelIDs() async throws -> [String] {
        try await base.registeredChannelIDs()
    }

    func videos(matching query: HubVideoSelection) async throws -> HubVideoPage {
        try await base.videos(matching: query)
    }

    func videosVersion() async throws -> Int64? {
        try await base.videosVersion()
    }

    func versionedVideos(matching query: HubVideoSelection) async throws -> (page: HubVideoPage, version: Int64?) {
        try await base.versionedVideos(matching: query)
    }

    func recordFetches(_ records: [ChannelFetchRecord]) async throws {
        try await base.recordFetches(records)
    }

    func neverFetchedChannelIDs(among channelIDs: [String]) async throws -> Set<String> {
        try await base.neverFetchedChannelIDs(among: channelIDs)
    }

    func storedVideoIDs(among videoIDs: [String]) async throws -> Set<String> {
        try await base.storedVideoIDs(among: videoIDs)
    }

    func ingest(
        _ ingestion: FeedIngestion, planning plan: @escaping @Sendable ([String: StoredVideoDetails]) -> FeedIngestionPlan
    ) async throws -> FeedIngestionOutcome {
        let outcome = try await base.ingest(ingestion, planning: plan)
        if outcome.inserted + outcome.updated > 0 { ingested() }
        return outcome
    }
}
