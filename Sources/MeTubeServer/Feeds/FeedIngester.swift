import AsyncHTTPClient
import Foundation
import Logging
import MeTubeCore
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Polls every registered channel's Atom feed on a schedule and merges what it finds.
///
/// Feeds are fetched with bounded concurrency and conditional GET (ETag / Last-Modified). A channel
/// whose fetch or parse fails is logged, skipped, and retried after an exponential backoff; it
/// never stops the others. Channels handed to ``fetchSoon(_:)`` that it has never fetched are
/// fetched at once, ahead of the polling round, at most `concurrency` at a time. With
/// ``FeedPollLeases`` a round claims its channels a few at a time as fetches finish, and leaves
/// the ones other instances claim to them.
public actor FeedIngester: Service {
    /// What one polling round did.
    public struct Round: Sendable, Equatable {
        /// Feeds fetched and parsed.
        public var fetched = 0
        /// Feeds that answered 304 Not Modified.
        public var notModified = 0
        /// Feeds that failed (network, HTTP status, malformed XML).
        public var failed = 0
        /// Channels skipped because they are backing off after failures.
        public var backingOff = 0
        /// Channels left to a later round by the schedule (their uploads are pushed).
        public var deferred = 0
        /// Videos stored for the first time.
        public var inserted = 0
    }

    private struct ChannelState {
        var entityTag: String?
        var lastModified: String?
        var consecutiveFailures = 0
        var retryAt: ContinuousClock.Instant?
    }

    private enum FetchResult: Sendable {
        case feed(AtomFeed, entityTag: String?, lastModified: String?)
        case notModified
        case failed(String)
    }

    /// One channel's fetch result, as a task group element.
    private struct Fetch: Sendable {
        let channelID: String
        let result: FetchResult
    }

    private let repository: any HubRepository
    private let feedURLTemplate: String
    private let pollInterval: Duration
    private let concurrency: Int
    private let maxBackoff: Duration
    private let httpClient: HTTPClient
    private let logger: Logger
    private let schedule: (any FeedPollSchedule)?
    private let leases: (any FeedPollLeases)?
    private var states: [String: ChannelState] = [:]
    /// Fetch outcomes not yet handed to ``HubRepository/recordFetches(_:)``.
    private var unrecordedFetches: [ChannelFetchRecord] = []
    /// Channels waiting for, or in, their first fetch.
    private var firstFetches: Set<String> = []
    private let firstFetchQueue: AsyncStream<String>
    private let firstFetchContinuation: AsyncStream<String>.Continuation

    /// At most this many channels wait for their first fetch; more are left to the polling round.
    public static let maxQueuedFirstFetches = 10_000

    /// Creates an ingester for the channels of `repository`. `feedURLTemplate` contains
    /// `{channelId}`; `pollInterval` is the time between rounds and the first backoff step;
    /// at most `concurrency` feeds are fetched at once; `schedule`, when given, picks the channels
    /// each round polls; `leases`, when given, shares each round with the other instances.
    public init(
        repository: any HubRepository, feedURLTemplate: String, pollInterval: Duration, concurrency: Int,
        maxBackoff: Duration = .seconds(6 * 3600), httpClient: HTTPClient = .shared, schedule: (any FeedPollSchedule)? = nil,
        leases: (any FeedPollLeases)? = nil, logger: Logger
    ) {
        self.repository = repository
        self.feedURLTemplate = feedURLTemplate
        self.pollInterval = pollInterval
        self.concurrency = max(1, concurrency)
        self.maxBackoff = maxBackoff
        self.httpClient = httpClient
        self.logger = logger
        self.schedule = schedule
        self.leases = leases
        (firstFetchQueue, firstFetchContinuation) = AsyncStream.makeStream(of: String.self)
    }

    /// Queues those of `channelIDs` never fetched here for an immediate fetch; returns how many of
    /// them wait for (or are in) their first fetch.
    public func fetchSoon(_ channelIDs: [String]) -> Int {
        var pending = 0
        for id in channelIDs {
            if firstFetches.contains(id) {
                pending += 1
            } else if states[id] == nil, firstFetches.count < Self.maxQueuedFirstFetches {
                firstFetches.insert(id)
                firstFetchContinuation.yield(id)
                pending += 1
            }
        }
        return pending
    }

    /// Polls until the service group shuts down: one round, then `pollInterval` of rest, repeated.
    /// A graceful shutdown cancels the round in progress, so slow or silent feeds never hold it up.
    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await cancelWhenGracefulShutdown { await self.fetchQueuedChannels() } }
            group.addTask { await self.pollUntilShutdown() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Fetches the channels queued by ``fetchSoon(_:)`` as they come, `concurrency` at a time,
    /// until cancelled.
    private func fetchQueuedChannels() async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await id in firstFetchQueue {
                if running >= concurrency {
                    await group.next()
                    running -= 1
                }
                group.addTask {
                    let result = await self.fetch(id, entityTag: nil, lastModified: nil)
                    await self.recordFirstFetch(result, for: id)
                }
                running += 1
            }
        }
    }

    private func recordFirstFetch(_ result: FetchResult, for channelID: String) async {
        var round = Round()
        await record(result, for: channelID, into: &round)
        await saveFetchRecords()
        firstFetches.remove(channelID)
        logger.info("first fetch of a new channel", metadata: ["channel": "\(channelID)", "inserted": "\(round.inserted)", "failed": "\(round.failed > 0)"])
    }

    private func pollUntilShutdown() async {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let round = await cancelWhenGracefulShutdown { await self.poll() }
            guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
            IngestionMetrics.count(round)
            if round.fetched + round.failed > 0 {
                logger.info("feed round", metadata: [
                    "fetched": "\(round.fetched)", "notModified": "\(round.notModified)", "failed": "\(round.failed)",
                    "backingOff": "\(round.backingOff)", "deferred": "\(round.deferred)", "inserted": "\(round.inserted)",
                ])
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: self.pollInterval) }
            } catch {
                return
            }
        }
    }

    /// Runs one polling round over every registered channel that is not backing off; when the task
    /// is cancelled, no further feed is started and the round ends once the fetches in flight stop.
    ///
    /// With leases, it claims channels when at least half of the `concurrency` fetch slots are
    /// free (or none is busy), as many as are free, so that every claimed channel is fetched at
    /// once, well within its lease, and instances polling at once take turns through the round.
    public func poll() async -> Round {
        var round = Round()
        var channelIDs: [String]
        do {
            channelIDs = try await repository.registeredChannelIDs()
        } catch {
            logger.error("cannot list channels to poll", metadata: ["error": "\(error)"])
            return round
        }
        if let schedule {
            let registered = channelIDs.count
            channelIDs = await schedule.channelsToPoll(channelIDs)
            round.deferred = registered - channelIDs.count
        }
        let now = ContinuousClock.now
        let due = channelIDs.filter { id in
            guard let retryAt = states[id]?.retryAt, retryAt > now else { return true }
            round.backingOff += 1
            return false
        }
        var channels = FeedRoundChannels(due, leases: leases)
        let claimAt = leases == nil ? 1 : max(1, concurrency / 2)
        await withTaskGroup(of: Fetch.self) { group in
            var running = 0
            while !Task.isCancelled {
                if running == 0 || concurrency - running >= claimAt {
                    for id in await channels.take(concurrency - running) {
                        let (tag, modified) = (states[id]?.entityTag, states[id]?.lastModified)
                        group.addTask { Fetch(channelID: id, result: await self.fetch(id, entityTag: tag, lastModified: modified)) }
                        running += 1
                    }
                }
                guard let fetch = await group.next() else { break }
                running -= 1
                guard !Task.isCancelled else { break }
                await record(fetch.result, for: fetch.channelID, into: &round)
            }
        }
        round.deferred += channels.deferred
        await saveFetchRecords()
        return round
    }

    /// Writes the fetch outcomes gathered since the last call in one transaction; a failure is
    /// logged and costs only those records.
    private func saveFetchRecords() async {
        let records = unrecordedFetches
        unrecordedFetches.removeAll()
        do {
            try await repository.recordFetches(records)
        } catch {
            logger.error("cannot record feed fetches", metadata: ["channels": "\(records.count)", "error": "\(error)"])
        }
    }

    /// The feed URL of `channelID`.
    public nonisolated func feedURL(for channelID: String) -> String {
        feedURLTemplate.replacingOccurrences(of: "{channelId}", with: channelID)
    }

    private func record(_ result: FetchResult, for channelID: String, into round: inout Round) async {
        var state = states[channelID] ?? ChannelState()
        var failure: String?
        switch result {
        case .notModified:
            round.notModified += 1
            state.consecutiveFailures = 0
            state.retryAt = nil
        case .feed(let feed, let entityTag, let lastModified):
            let now = Date()
            let ingestion = FeedIngestion(
                channelID: channelID, channelTitle: feed.channelTitle,
                videos: feed.entries.map { $0.video(fallbackDate: now) }
            )
            do {
                let outcome = try await repository.ingest(ingestion)
                round.fetched += 1
                round.inserted += outcome.inserted
                state = ChannelState(entityTag: entityTag, lastModified: lastModified)
            } catch {
                round.failed += 1
                failure = "cannot store the feed"
                logger.error("cannot store feed", metadata: ["channel": "\(channelID)", "error": "\(error)"])
            }
        case .failed(let reason):
            round.failed += 1
            failure = reason
            state.consecutiveFailures += 1
            let delay = min(maxBackoff, pollInterval * (1 << min(state.consecutiveFailures - 1, 16)))
            state.retryAt = ContinuousClock.now + delay
            logger.warning("feed failed; skipping", metadata: [
                "channel": "\(channelID)", "reason": "\(reason)", "failures": "\(state.consecutiveFailures)",
                "retryIn": "\(delay)",
            ])
        }
        states[channelID] = state
        unrecordedFetches.append(ChannelFetchRecord(channelID: channelID, fetchedAt: Date(), failure: failure))
    }

    private nonisolated func fetch(_ channelID: String, entityTag: String?, lastModified: String?) async -> FetchResult {
        var request = HTTPClientRequest(url: feedURL(for: channelID))
        request.headers.add(name: "User-Agent", value: "metube-server")
        if let entityTag { request.headers.add(name: "If-None-Match", value: entityTag) }
        if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        do {
            let response = try await httpClient.execute(request, timeout: .seconds(30))
            if response.status == .notModified { return .notModified }
            guard response.status == .ok else { return .failed("HTTP \(response.status.code)") }
            let body = try await response.body.collect(upTo: 8 << 20)
            let feed = try AtomFeedParser.parse(Data(body.readableBytesView))
            return .feed(feed, entityTag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
        } catch {
            return .failed(String(describing: error))
        }
    }
}
