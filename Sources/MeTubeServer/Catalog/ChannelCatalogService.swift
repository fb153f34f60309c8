import Foundation
import Logging
import MeTubeCore
import MeTubeFeeds
import MeTubeYouTube
import ServiceLifecycle

/// Brings into the hub what a channel's Atom feed does not say, once for every client:
///
/// - **Backfill.** A newly registered channel, once its feed was fetched, gets its last
///   ``CatalogConfiguration/backfill`` uploads: from `playlistItems.list` on its uploads playlist
///   when a Data API key is set, else from yt-dlp's flat playlist. Videos the hub does not hold
///   are ingested like a feed's (a fresh `seq` each), dated by the answer or, when yt-dlp gives
///   no date, just before the oldest video the hub holds of the channel, in the answer's order.
/// - **Lengths without a key.** A channel holding videos without a length that arrived since its
///   last call is asked again (its last ``durationWindow`` uploads), and the lengths found are
///   stored with a fresh `seq` (as the Data API enrichment stores them), so each new video is
///   asked about once.
///
/// At most ``concurrency`` calls run at once, started at the feeds' rate (``FeedRateLimiter``). A failed call — yt-dlp
/// missing, too old, slow, printing garbage, or the quota spent — is logged as one line, kept as
/// the service's ``failure`` for `/health`, and the channel is tried again later (doubling
/// from a minute up to a day; a spent quota waits for the next UTC day). Nothing is lost: a
/// channel is marked done only after its videos are stored.
actor ChannelCatalogService: Service {
    /// How many uploads a lengths call asks for: more than one feed holds.
    static let durationWindow = 30
    /// The most channels one pass handles before it looks again.
    static let channelsPerPass = 50
    /// The most calls running at once.
    static let concurrency = 4

    private let configuration: CatalogConfiguration
    private let catalog: YTDLPCatalog
    private let api: YouTubeDataAPI?
    /// The Data API units backfills spend from.
    private let budget: DataAPIBudget
    private let hub: any HubRepository
    private let repository: any CatalogRepository
    private let enrichment: any EnrichmentRepository
    private let limiter: FeedRateLimiter
    private let logger: Logger
    /// Wakes the service: ingestion stored new videos or channels.
    let signal = WakeSignal()
    /// The calls failed since the last success, the last reason and its retry, until a call succeeds.
    private(set) var failure: CatalogFailure?
    /// The last failure, as one line, until a call succeeds.
    var lastFailure: String? { failure?.reason }

    /// What one pass did.
    struct Pass: Sendable, Equatable {
        /// Channels whose last uploads were brought in.
        var backfilled = 0
        /// Videos ingested by backfills.
        var videos = 0
        /// Videos whose length was stored.
        var durations = 0
        /// Calls that failed.
        var failed = 0

        /// Adds what another part of the pass did.
        mutating func add(_ other: Pass) {
            backfilled += other.backfilled
            videos += other.videos
            durations += other.durations
            failed += other.failed
        }
    }

    /// The service over `hub`, `repository` and `enrichment`, calling the Data API through `api`
    /// (spending from the enrichment's budget of `dailyUnits`) when a key is set, else yt-dlp, at
    /// `rate` calls a second.
    init(configuration: CatalogConfiguration, api: YouTubeDataAPI?, dailyUnits: Int = YouTubeAPIConfiguration.defaultDailyUnits, hub: any HubRepository, repository: any CatalogRepository,
         enrichment: any EnrichmentRepository, rate: Double, logger: Logger) {
        self.configuration = configuration
        catalog = YTDLPCatalog(command: configuration.ytDLP, deadline: configuration.callDeadline)
        self.api = api
        budget = DataAPIBudget(enrichment: enrichment, dailyUnits: dailyUnits)
        self.hub = hub
        self.repository = repository
        self.enrichment = enrichment
        limiter = FeedRateLimiter(rate: rate)
        self.logger = logger
    }

    /// Runs passes until the service group shuts down.
    func run() async throws {
        logger.info("channel catalog on", metadata: [
            "backfill": "\(configuration.backfill)", "durations": "\(api == nil ? "yt-dlp" : "Data API")", "ytDLP": "\(configuration.ytDLP)",
        ])
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let pass = await self.pass()
                guard !Task.isCancelled else { return }
                if pass.backfilled + pass.durations == 0 || pass.failed > 0 { await self.signal.wait(timeout: self.configuration.idleInterval) }
            }
        }
    }

    /// One pass over the channels due now; storage failures end it (tried again next pass).
    func pass() async -> Pass {
        var pass = Pass()
        do {
            let due = try await repository.catalogChannelsDue(
                now: Date().millisecondsSince1970, backfill: configuration.backfill > 0, durations: api == nil, limit: Self.channelsPerPass)
            for start in stride(from: 0, to: due.count, by: Self.concurrency) {
                try await withThrowingTaskGroup(of: Pass.self) { group in
                    for channel in due[start..<min(start + Self.concurrency, due.count)] {
                        try await limiter.acquire()
                        group.addTask { try await self.handle(channel) }
                    }
                    for try await done in group { pass.add(done) }
                }
            }
        } catch {
            if !Task.isCancelled { logger.warning("channel catalog pass failed; retrying later", metadata: ["error": "\(error)"]) }
        }
        return pass
    }

    /// One call for `channel` and what it stores.
    private func handle(_ channel: CatalogDue) async throws -> Pass {
        var pass = Pass()
        let uploads: ChannelUploads
        do {
            uploads = try await fetch(channel)
        } catch {
            pass.failed += 1
            try await fail(channel, error)
            return pass
        }
        let stored = try await hub.storedVideoIDs(among: uploads.videos.map(\.id))
        if api == nil {
            var lengths: [String: Int] = [:]
            for video in uploads.videos where stored.contains(video.id) { lengths[video.id] = video.durationSeconds }
            if !lengths.isEmpty { pass.durations += try await enrichment.recordVideoLookup(checked: [], durations: lengths, now: Date().millisecondsSince1970) }
        }
        if channel.needsBackfill {
            let videos = try await backfillVideos(uploads, stored: stored)
            if !videos.isEmpty {
                let outcome = try await hub.ingest(FeedIngestion(channelID: channel.channelID, channelTitle: nil, videos: videos, backfilled: true))
                pass.videos += outcome.inserted
                pass.durations += videos.filter { $0.duration != nil }.count
            }
            pass.backfilled += 1
        }
        try await repository.recordCatalogSuccess(channelID: channel.channelID, backfilled: channel.needsBackfill, checkedSeq: channel.maxSeq)
        failure = nil
        return pass
    }

    private func fetch(_ channel: CatalogDue) async throws(YouTubeError) -> ChannelUploads {
        if channel.needsBackfill, let api {
            try await budget.spend(units: configuration.backfill / YouTubeDataAPI.maxIDsPerCall + 1)
            return try await api.uploads(of: channel.channelID, count: configuration.backfill)
        }
        return try await catalog.channelUploads(channel.channelID, count: channel.needsBackfill ? configuration.backfill : Self.durationWindow)
    }

    /// The videos of `uploads` the hub does not hold, listed after the last one it holds (newer
    /// ones are the feed's to bring), dated by the answer or just before the oldest the hub holds.
    private func backfillVideos(_ uploads: ChannelUploads, stored: Set<String>) async throws -> [Video] {
        let lastStored = uploads.videos.lastIndex { stored.contains($0.id) }
        let older = uploads.videos[(lastStored.map { $0 + 1 } ?? 0)...].filter { !stored.contains($0.id) }
        let anchor = try await repository.oldestPublished(channelID: uploads.channelID).map { Date(timeIntervalSince1970: $0) } ?? Date()
        return uploads.ordinaryVideos(older, datedBefore: anchor)
    }

    /// Logs `error` as one line and schedules the channel's next try.
    private func fail(_ channel: CatalogDue, _ error: YouTubeError) async throws {
        let now = Date()
        let retryAt: Date
        if error.isQuota {
            retryAt = UTCDay.nextStart(after: now)
        } else {
            retryAt = now.addingTimeInterval(min(86_400, 60 * pow(2, Double(min(channel.failures, 20)))))
        }
        let line = DisplayText.line("\(channel.channelID): \(error)", limit: 400)
        failure = CatalogFailure(calls: (failure?.calls ?? 0) + 1, reason: line, retryAt: retryAt)
        logger.warning("channel catalog call failed; retrying later", metadata: [
            "channel": "\(channel.channelID)", "error": "\(error)", "failures": "\(channel.failures + 1)", "retryAt": "\(ISO8601Timestamp.format(retryAt))",
        ])
        try await repository.recordCatalogFailure(channelID: channel.channelID, retryAt: retryAt.millisecondsSince1970, reason: line)
    }
}
