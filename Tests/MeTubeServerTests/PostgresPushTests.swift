import Foundation
import Hummingbird
import Logging
import MeTubeAPI
import MeTubeCore
@testable import MeTubeServer
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// WebSub and the YouTube Data API enrichment with several server instances on one PostgreSQL
/// database: each piece of background work is done by one instance, and the daily budget is one.
/// What both backends share is tested by ``WebSubTests`` and ``YouTubeEnrichmentTests`` over
/// ``PushStorage``.
@Suite("PostgreSQL: WebSub and enrichment shared by instances", .timeLimit(.minutes(1)))
struct PostgresPushTests {
    typealias Support = HubTestSupport

    /// `count` instances of one new database, each as a server instance sees it.
    static func instances(_ count: Int) async throws -> [PushStore] {
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        var stores: [PushStore] = []
        for _ in 0..<count { stores.append(try await PushStore.postgres(url: url)) }
        return stores
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "metube-test.push")
        logger.logLevel = .critical
        return logger
    }

    @Test("two subscribers on one database send each due subscription once, and renew each once with its stored secret")
    func subscribersShareTheWork() async throws {
        // Given 20 registered channels, a loopback hub, and two instances' subscribers
        let hub = LoopbackWebSubHub()
        let (hubService, hubURL) = await BackgroundService.serve(hub.router, label: "websub-hub")
        defer { hubService.stop() }
        let stores = try await Self.instances(2)
        let channels = (0..<20).map { Support.channelID(300 + $0) }
        _ = try await stores[0].hub.register(channelIDs: channels)
        let configuration = WebSubConfiguration(publicURL: WebSubTests.publicURL, hubURL: hubURL + "/subscribe")
        let subscribers = stores.map { store in
            WebSubSubscriber(configuration: configuration, subscriptions: store.subscriptions, signal: WakeSignal(), logger: Self.quietLogger)
        }

        // When both subscribe what is due at once
        try await Self.runPasses(subscribers)

        // Then the hub got one request per channel
        let first = hub.all
        #expect(first.count == channels.count)
        #expect(Set(first.map(\.topic)) == Set(channels.map(WebSubConfiguration.topic(for:))))

        // When the hub verifies every request with leases that are due for renewal at once, and both subscribe again
        let now = WebSubService.millisecondsNow()
        for channel in channels {
            #expect(try await stores[1].subscriptions.confirm(channelID: channel, requestedSince: now - 60_000, leaseSeconds: 3600, now: now, renewAt: now))
        }
        try await Self.runPasses(subscribers)

        // Then each lease was renewed once, with the secret of its first request
        let renewals = Array(hub.all.dropFirst(first.count))
        #expect(renewals.count == channels.count)
        let secrets = Dictionary(first.map { ($0.topic, $0.secret) }, uniquingKeysWith: { one, _ in one })
        #expect(renewals.allSatisfy { secrets[$0.topic] == $0.secret })
        #expect(Set(renewals.map(\.topic)).count == channels.count)
    }

    /// Runs one pass of each subscriber at the same time.
    static func runPasses(_ subscribers: [WebSubSubscriber]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for subscriber in subscribers { group.addTask { try await subscriber.subscribeDue() } }
            try await group.waitForAll()
        }
    }

    @Test("a channel another instance is subscribing is neither due nor reported due here until its claim runs out")
    func claimsHoldOffOtherInstances() async throws {
        // Given a registered channel claimed by instance A
        let stores = try await Self.instances(2)
        let channel = Support.channelID(1)
        _ = try await stores[0].hub.register(channelIDs: [channel])
        let now = WebSubService.millisecondsNow()
        #expect(try await stores[0].subscriptions.dueSubscriptions(now: now, limit: 10).map(\.channelID) == [channel])

        // Then B finds nothing due and waits for the claim (60 s), while A still has it
        #expect(try await stores[1].subscriptions.dueSubscriptions(now: now, limit: 10).isEmpty)
        let nextForB = try #require(try await stores[1].subscriptions.nextDueTime())
        #expect(nextForB > now + 50_000)
        #expect(try await stores[0].subscriptions.nextDueTime() == 0)
        #expect(try await stores[0].subscriptions.dueSubscriptions(now: now, limit: 10).map(\.channelID) == [channel])

        // And once the claim ran out (A died before asking), B takes the channel
        #expect(try await stores[1].subscriptions.dueSubscriptions(now: now + 61_000, limit: 10).map(\.channelID) == [channel])

        // And when both record a request for the new subscription, the first secret stored is the one both send
        let secretB = try await stores[1].subscriptions.recordRequested(channelID: channel, secret: Data("b-secret".utf8), now: now, retryAt: now + 1_000)
        let secretA = try await stores[0].subscriptions.recordRequested(channelID: channel, secret: Data("a-secret".utf8), now: now, retryAt: now + 1_000)
        #expect(secretB == Data("b-secret".utf8) && secretA == secretB)
        #expect(try await stores[0].subscriptions.subscription(channelID: channel)?.secret == Data("b-secret".utf8))
    }

    @Test("two enrichers on one database look each video up once and spend from one daily budget")
    func enrichersShareTheBudgetAndTheLookups() async throws {
        // Given 120 videos without durations, of two channels, and two instances
        let stub = YouTubeAPIStub(otherDuration: "PT2M")
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let stores = try await Self.instances(2)
        let channels = [Support.channelID(1), Support.channelID(2)]
        _ = try await stores[0].hub.register(channelIDs: channels)
        for (index, channel) in channels.enumerated() {
            let videos = (1...60).map { Support.video(index * 60 + $0, channel: channel) }
            _ = try await stores[0].hub.ingest(FeedIngestion(channelID: channel, channelTitle: nil, videos: videos))
        }

        // When A takes a batch to look up, B asks for one too
        let recheck = WebSubService.millisecondsNow() - 1
        let batchA = try await stores[0].enrichment.videosToEnrich(recheckBefore: recheck, maxAttempts: 3, limit: 50)
        let batchB = try await stores[1].enrichment.videosToEnrich(recheckBefore: recheck, maxAttempts: 3, limit: 50)
        // Then B gets other videos
        #expect(batchA.count == 50 && batchB.count == 50)
        #expect(Set(batchA).isDisjoint(with: batchB))

        // When both enrich at once with a budget of 2 units a day
        let enrichers = stores.map { YouTubeEnrichmentTests.enricher($0, stubURL: stubURL, dailyUnits: 2) }
        let passes = await withTaskGroup(of: YouTubeEnricher.Pass.self) { group in
            for enricher in enrichers { group.addTask { await enricher.pass() } }
            return await group.reduce(into: []) { $0.append($1) }
        }

        // Then together they spent the 2 units, on different videos, and the budget stopped them
        #expect(stub.calls.count == 2)
        #expect(passes.map(\.calls).reduce(0, +) == 2)
        #expect(passes.contains { $0.paused })
        let asked = stub.calls.flatMap(\.ids)
        #expect(asked.count >= 50 && Set(asked).count == asked.count)
        let usage = try await stores[1].enrichment.quotaUsage(day: UTCDay.string(Date()))
        #expect(usage.used == 2 && !usage.exceeded)
    }

    @Test("a quotaExceeded answer seen by one instance pauses the other")
    func quotaExceededIsShared() async throws {
        // Given an API that answers quotaExceeded and two instances with videos to look up
        let stub = YouTubeAPIStub(mode: .quotaExceeded)
        let (stubService, stubURL) = await BackgroundService.serve(stub.router, label: "youtube-stub")
        defer { stubService.stop() }
        let stores = try await Self.instances(2)
        _ = try await stores[0].hub.register(channelIDs: [Support.channelID(1)])
        _ = try await stores[0].hub.ingest(FeedIngestion(channelID: Support.channelID(1), channelTitle: nil, videos: [Support.video(1, channel: Support.channelID(1))]))

        // When A runs into the answer, and then B runs
        let first = await YouTubeEnrichmentTests.enricher(stores[0], stubURL: stubURL).pass()
        let second = await YouTubeEnrichmentTests.enricher(stores[1], stubURL: stubURL).pass()

        // Then B asked nothing and paused too
        #expect(first.paused && first.calls == 1)
        #expect(second.paused && second.calls == 0)
        #expect(stub.calls.count == 1)
    }

    @Test("with WebSub on, a pushed channel's feed is leased for the longer interval across instances, and is due again once its WebSub lease lapses")
    func pushedChannelsAreLeasedForTheLongerInterval() async throws {
        // Given a pushed and a polled channel, and two instances' feed leases on one clock (poll 900 s, pushed 3600 s)
        let stores = try await Self.instances(1)
        let url = try #require(stores.first.flatMap { store -> PostgresDatabaseURL? in
            if case .postgres(let url) = store.target { url } else { nil }
        })
        let clock = PushTestClock()
        var leases: [PostgresFeedLeases] = []
        for name in ["A", "B"] {
            let database = try await PostgresServerDatabase.forTests(url: url, poolSize: 1)
            leases.append(PostgresFeedLeases(
                database: database, pollInterval: .seconds(900), pushedPollInterval: .seconds(3600), holder: name, now: { clock.now }))
        }
        let pushed = Support.channelID(1), polled = Support.channelID(2)
        _ = try await stores[0].hub.register(channelIDs: [pushed, polled])
        let start = clock.milliseconds
        _ = try await stores[0].subscriptions.recordRequested(channelID: pushed, secret: Data("s".utf8), now: start, retryAt: start + 60_000)
        #expect(try await stores[0].subscriptions.confirm(channelID: pushed, requestedSince: start, leaseSeconds: 5400, now: start, renewAt: start + 4_320_000))

        // When A polls, and B polls at each later interval
        let rounds = [
            await leases[0].claimAll([pushed, polled]),
            await leases[1].claimAll([pushed, polled]),
        ]
        var later: [[String]] = []
        for _ in 0..<4 {
            clock.advance(by: 900)
            later.append(await leases[1].claimAll([pushed, polled]))
        }

        // Then A polled both, B nothing at once, then only the polled channel until the pushed interval passed
        #expect(rounds == [[pushed, polled], []])
        #expect(later == [[polled], [polled], [polled], [pushed, polled]])

        // When the WebSub lease lapses (5400 s after it was granted) while the pushed feed lease taken at 3600 s runs
        clock.advance(by: 900)
        let beforeLapse = await leases[0].claimAll([pushed, polled])
        clock.advance(by: 900 + 1)
        let afterLapse = await leases[0].claimAll([pushed, polled])

        // Then the channel is polled every interval again
        #expect(beforeLapse == [polled])
        #expect(afterLapse == [pushed, polled])
        clock.advance(by: 900)
        #expect(await leases[1].claimAll([pushed, polled]) == [pushed, polled])
    }
}

/// A wall clock that only moves when the test moves it.
private final class PushTestClock: Sendable {
    private let storage = Mutex(Date(timeIntervalSince1970: 1_765_000_000))
    var now: Date { storage.withLock { $0 } }
    var milliseconds: Int64 { Int64(now.timeIntervalSince1970 * 1000) }
    func advance(by seconds: Double) { storage.withLock { $0 += seconds } }
}

extension PostgresFeedLeases {
    /// Those of `channelIDs` one claim leases, when it may take all of them.
    fileprivate func claimAll(_ channelIDs: [String]) async -> [String] {
        await claim(from: channelIDs, limit: channelIDs.count)?.channelIDs ?? []
    }
}
