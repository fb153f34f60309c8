import Foundation
import AsyncHTTPClient
import Logging
import MeTubeCore
import MeTubeFeeds
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Polls every registered channel's Atom feed on a schedule and merges what it finds.
///
/// Feeds are fetched with bounded concurrency and conditional GET (ETag / Last-Modified), at most
/// `feedRate` requests a second, and the fetches of a scheduled round are spread over most of the
/// poll interval. A channel whose fetch or parse fails is logged, skipped, and retried after an
/// exponential backoff with jitter (never sooner than its `Retry-After`); it never stops the
/// others. When most channels fail within a minute (``SourceOutageDetector``), the source is down:
/// that is logged once and shown by `metube_feed_source_down`, and rounds fetch one channel as a
/// probe until one answers; then one line says so and the round fetches every channel.
/// Channels handed to ``fetchSoon(_:)`` that it has never fetched are fetched at once, ahead of
/// the polling round, at most `concurrency` at a time (not while the source is down). With
/// ``FeedPollLeases`` a round claims its channels a few at a time as fetches finish, and leaves
/// the ones other instances claim to them. A feed that brings uploads the hub does not hold, linked
/// as ordinary videos, is checked against the channel's Shorts feed (``ShortsFeed``) in the same
/// turn and under the same rate; that request failing leaves the links to decide, and is not the
/// channel's failure.
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
    }

    private enum FetchResult: Sendable {
        /// `shortIDs`: the uploads the channel's Shorts feed lists.
        case feed(AtomFeed, entityTag: String?, lastModified: String?, shortIDs: Set<String>)
        case notModified
        case failed(FeedFailure)
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
    private let httpClient: HTTPClient
    private let logger: Logger
    private let schedule: (any FeedPollSchedule)?
    private let leases: (any FeedPollLeases)?
    private let clock: FeedClock
    private let limiter: FeedRateLimiter
    private var backoff: FeedBackoff
    private var outageDetector = SourceOutageDetector(probeSteps: [.seconds(30), .seconds(60), .seconds(120)])
    private var probes = 0
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
    /// each round polls; `leases`, when given, shares each round with the other instances;
    /// `feedRate` caps the requests a second to the feed server (0: no cap); `clock` times the
    /// backoff, the rate and the probes.
    public init(
        repository: any HubRepository, feedURLTemplate: String, pollInterval: Duration, concurrency: Int,
        maxBackoff: Duration = .seconds(6 * 3600), httpClient: HTTPClient = .shared, schedule: (any FeedPollSchedule)? = nil,
        leases: (any FeedPollLeases)? = nil, feedRate: Double = 0, clock: FeedClock = .continuous, logger: Logger
    ) {
        self.repository = repository
        self.feedURLTemplate = feedURLTemplate
        self.pollInterval = pollInterval
        self.concurrency = max(1, concurrency)
        self.httpClient = httpClient
        self.logger = logger
        self.schedule = schedule
        self.leases = leases
        self.clock = clock
        limiter = FeedRateLimiter(rate: feedRate, clock: clock)
        backoff = FeedBackoff(firstStep: pollInterval, maxStep: maxBackoff)
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
        outageDetector.channelCount = max(outageDetector.channelCount, states.count + firstFetches.count)
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
    /// until cancelled. While the source is down they are left to the polling round, which
    /// fetches them once it answers again.
    private func fetchQueuedChannels() async {
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for await id in firstFetchQueue {
                if running >= concurrency {
                    await group.next()
                    running -= 1
                }
                guard outageDetector.outage == nil else {
                    firstFetches.remove(id)
                    continue
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
            let roundStart = clock.now()
            let round = await cancelWhenGracefulShutdown { await self.poll(spreadOver: self.pollInterval * Self.spreadShare) }
            guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
            IngestionMetrics.count(round)
            if round.fetched + round.failed > 0 {
                logger.info("feed round", metadata: [
                    "fetched": "\(round.fetched)", "notModified": "\(round.notModified)", "failed": "\(round.failed)",
                    "backingOff": "\(round.backingOff)", "deferred": "\(round.deferred)", "inserted": "\(round.inserted)",
                ])
            }
            let nextRound = outageDetector.outage == nil ? roundStart + pollInterval : min(roundStart + pollInterval, outageDetector.nextProbe)
            do {
                try await cancelWhenGracefulShutdown { try await self.clock.sleep(until: max(nextRound, self.clock.now() + Self.shortestRest)) }
            } catch {
                return
            }
        }
    }

    /// The share of the poll interval a scheduled round spreads its fetches over.
    static let spreadShare = 0.8
    /// The least rest between two scheduled rounds.
    static let shortestRest = Duration.seconds(1)

    /// Runs one polling round over every registered channel that is not backing off; when the task
    /// is cancelled, no further feed is started and the round ends once the fetches in flight stop.
    /// With `spreadOver`, the round's fetches start evenly spaced over that time instead of all at
    /// once. While the source is down, the round fetches one channel as a probe, when one is due,
    /// and the whole round only once it answers.
    ///
    /// With leases, it claims channels when at least half of the `concurrency` fetch slots are
    /// free (or none is busy), as many as are free, so that every claimed channel is fetched at
    /// once, well within its lease, and instances polling at once take turns through the round.
    public func poll(spreadOver spread: Duration? = nil) async -> Round {
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
        outageDetector.channelCount = channelIDs.count
        if outageDetector.outage != nil {
            guard let probed = await probeAnswering(channelIDs, into: &round) else { return round }
            channelIDs.removeAll { $0 == probed }
        }
        let now = clock.now()
        let due = channelIDs.filter { id in
            guard !backoff.isDue(id, at: now) else { return true }
            round.backingOff += 1
            return false
        }
        let spacing = spread.map { $0 / max(due.count, 1) } ?? .zero
        var started = 0
        var channels = FeedRoundChannels(due, leases: leases)
        let claimAt = leases == nil ? 1 : max(1, concurrency / 2)
        await withTaskGroup(of: Fetch.self) { group in
            var running = 0
            while !Task.isCancelled {
                if outageDetector.outage == nil, running == 0 || concurrency - running >= claimAt {
                    for id in await channels.take(concurrency - running) {
                        let (tag, modified) = (states[id]?.entityTag, states[id]?.lastModified)
                        let startAt = now + spacing * started
                        group.addTask {
                            do {
                                try await self.clock.sleep(until: startAt)
                            } catch {
                                return Fetch(channelID: id, result: .failed(FeedFailure(status: nil, summary: "cancelled")))
                            }
                            return Fetch(channelID: id, result: await self.fetch(id, entityTag: tag, lastModified: modified))
                        }
                        running += 1
                        started += 1
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

    /// Fetches one channel of `channelIDs` (the next in turn) as a probe when one is due during
    /// an outage; that channel when it answered, which ends the outage.
    private func probeAnswering(_ channelIDs: [String], into round: inout Round) async -> String? {
        guard !channelIDs.isEmpty, outageDetector.probeIsDue(at: clock.now()) else {
            round.backingOff += channelIDs.count
            return nil
        }
        let id = channelIDs[probes % channelIDs.count]
        probes += 1
        let (tag, modified) = (states[id]?.entityTag, states[id]?.lastModified)
        let result = await fetch(id, entityTag: tag, lastModified: modified)
        guard !Task.isCancelled else { return nil }
        await record(result, for: id, into: &round)
        if case .failed(let failure) = result { outageDetector.probeFailed(failure, at: clock.now()) }
        return outageDetector.outage == nil ? id : nil
    }

    private func record(_ result: FetchResult, for channelID: String, into round: inout Round) async {
        var state = states[channelID] ?? ChannelState()
        var failure: String?
        var feedFailure: FeedFailure?
        switch result {
        case .notModified:
            round.notModified += 1
        case .feed(let feed, let entityTag, let lastModified, let shortIDs):
            let now = Date()
            let ingestion = FeedIngestion(
                channelID: channelID, channelTitle: feed.channelTitle,
                videos: feed.entries.map { $0.video(fallbackDate: now).marked(shorts: shortIDs) }
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
            failure = reason.summary
            feedFailure = reason
        }
        states[channelID] = state
        noteOutcome(feedFailure, of: channelID)
        unrecordedFetches.append(ChannelFetchRecord(channelID: channelID, fetchedAt: Date(), failure: failure))
    }

    /// Feeds one fetch's outcome to the backoff and the outage detector, and says what changed:
    /// a failing channel's backoff (only while the source as a whole answers), or the outage
    /// beginning or ending, once each.
    private func noteOutcome(_ failure: FeedFailure?, of channelID: String) {
        let now = clock.now()
        let wasDown = outageDetector.outage != nil
        if let failure {
            let delay = backoff.failed(channelID, failure, at: now)
            if !wasDown {
                logger.warning("feed failed; skipping", metadata: [
                    "channel": "\(channelID)", "reason": "\(failure.summary)", "failures": "\(backoff.failures(of: channelID))",
                    "retryIn": "\(delay)",
                ])
            }
        } else {
            backoff.succeeded(channelID)
        }
        switch outageDetector.record(failure, of: channelID, at: now, date: Date()) {
        case .began(let outage):
            backoff.forgetAll()
            FeedSourceMetrics.outageBegan()
            logger.error("\(outage.message())")
        case .ended(let outage):
            backoff.forgetAll()
            probes = 0
            FeedSourceMetrics.outageEnded()
            logger.notice("\(outage.endMessage()); fetching every channel")
        case nil:
            break
        }
    }

    private nonisolated func fetch(_ channelID: String, entityTag: String?, lastModified: String?) async -> FetchResult {
        var request = HTTPClientRequest(url: feedURL(for: channelID))
        request.headers.add(name: "User-Agent", value: "metube-server")
        if let entityTag { request.headers.add(name: "If-None-Match", value: entityTag) }
        if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        do {
            try await limiter.acquire()
        } catch {
            return .failed(FeedFailure(status: nil, summary: "cancelled"))
        }
        do {
            let response = try await httpClient.execute(request, timeout: .seconds(30))
            if response.status == .notModified { return .notModified }
            guard response.status == .ok else {
                let retryAfter = RetryAfter.parse(response.headers.first(name: "Retry-After"), now: Date())
                return .failed(FeedFailure(status: Int(response.status.code), retryAfter: retryAfter))
            }
            let body = try await response.body.collect(upTo: 8 << 20)
            let feed = try AtomFeedParser.parse(Data(body.readableBytesView))
            return .feed(
                feed, entityTag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"),
                shortIDs: await shortIDs(feed, of: channelID))
        } catch {
            return .failed(FeedFailure(status: nil, summary: String(describing: error)))
        }
    }

    /// The uploads of `feed` the channel's Shorts feed lists, asked only when the feed brought one
    /// the hub does not hold that it links as an ordinary video; none when that request fails
    /// (the links decide) or the feed URL template has no Shorts feeds.
    private nonisolated func shortIDs(_ feed: AtomFeed, of channelID: String) async -> Set<String> {
        guard let url = ShortsFeed.url(channelFeedTemplate: feedURLTemplate, channelID: channelID) else { return [] }
        do {
            let unlinked = ShortsFeed.uploadsToCheck(in: feed, channelID: channelID)
            guard !unlinked.isEmpty else { return [] }
            let stored = try await repository.storedVideoIDs(among: unlinked)
            guard unlinked.contains(where: { !stored.contains($0) }) else { return [] }
            try await limiter.acquire()
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "User-Agent", value: "metube-server")
            let response = try await httpClient.execute(request, timeout: .seconds(30))
            guard response.status == .ok else {
                logger.debug("no Shorts feed; the links decide", metadata: ["channel": "\(channelID)", "status": "\(response.status.code)"])
                return []
            }
            let body = try await response.body.collect(upTo: ShortsFeed.maxBodyBytes)
            return ShortsFeed.shortIDs(in: try AtomFeedParser.parse(Data(body.readableBytesView)), channelID: channelID)
        } catch {
            logger.debug("Shorts feed failed; the links decide", metadata: ["channel": "\(channelID)", "error": "\(error)"])
            return []
        }
    }
}
