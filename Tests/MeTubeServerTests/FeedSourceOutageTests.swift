import Foundation
import AsyncHTTPClient
import Clocks
import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeFeeds
@testable import MeTubeServer
import TestSupport
import Testing

/// The server's poller against a loopback feed server that fails on command: a whole-source
/// outage is logged once and probed one channel a round, a failing channel backs off per its
/// Retry-After, and the feeds' return is one line and a complete round. Time is a test clock.
@Suite struct FeedSourceOutageTests {
    static let channels = FailingFeedServer.channelIDs(50)

    static func ingester(_ server: FailingFeedServer, clock: TestClock<Duration>, log: LogCapture, channels count: Int = 50) async throws -> FeedIngester {
        let repository = try SQLiteHubRepository(path: HubTestSupport.temporaryDatabasePath())
        _ = try await repository.register(channelIDs: Array(channels.prefix(count)))
        return FeedIngester(
            repository: repository, feedURLTemplate: server.feedURLTemplate, pollInterval: .seconds(900), concurrency: 4,
            clock: FeedClock(clock), logger: log.logger)
    }

    @Test func everyChannelFailingIsLoggedOnceProbedAndEndsWithACompleteRound() async throws {
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let clock = TestClock()
        let log = LogCapture()
        let ingester = try await Self.ingester(server, clock: clock, log: log)
        server.set(.failing(status: 404))

        // A round stops once most channels failed; the outage is logged once
        let first = await ingester.poll()
        #expect(first.failed <= 20 + 4)
        #expect(server.requests.values.allSatisfy { $0 == 1 })
        let said = log.entries.filter { $0.message.hasPrefix("youtube: feeds failing for every channel since") }
        #expect(said.count == 1)
        #expect(said.first?.message.hasSuffix("(HTTP 404)") == true)
        #expect(log.entries.filter { $0.message == "feed failed; skipping" }.count < 25)

        // Rounds before the probe is due fetch nothing; a due probe is one request
        server.resetCounts()
        let early = await ingester.poll()
        #expect(early.fetched + early.failed == 0)
        await clock.advance(by: .seconds(30))
        let probe = await ingester.poll()
        #expect(probe.failed == 1)
        #expect(server.requests.values.reduce(0, +) == 1)

        // When the feeds return, the next due probe ends the outage and the round fetches all
        server.set(.answering)
        server.resetCounts()
        await clock.advance(by: .seconds(60))
        let back = await ingester.poll()
        #expect(back.fetched == Self.channels.count)
        #expect(server.requests.count == Self.channels.count)
        #expect(log.entries.filter { $0.message.hasPrefix("youtube: feeds answer again") }.count == 1)
        #expect(log.entries.filter { $0.message.hasPrefix("youtube: feeds failing") }.count == 1)
    }

    @Test func aRateLimitedChannelWaitsForItsRetryAfter() async throws {
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let clock = TestClock()
        let log = LogCapture()
        let ingester = try await Self.ingester(server, clock: clock, log: log)
        let limited = Self.channels[0]
        server.set(.failing(status: 429, retryAfter: "7200"), for: [limited])

        _ = await ingester.poll()
        await clock.advance(by: .seconds(3600))
        let second = await ingester.poll()
        #expect(second.backingOff == 1)
        #expect(server.requests[limited] == 1)
        await clock.advance(by: .seconds(3601))
        _ = await ingester.poll()
        #expect(server.requests[limited] == 2)
    }
}

/// The poller's pacing and the outage as the real `metube-server` shows it.
@Suite struct FeedPollPacingTests {
    @Test func aScheduledRoundSpreadsItsFetchesOverTheInterval() async throws {
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let clock = TestClock()
        let ingester = try await FeedSourceOutageTests.ingester(server, clock: clock, log: LogCapture(), channels: 4)
        let round = Task { await ingester.poll(spreadOver: .seconds(100)) }

        // 4 channels over 100 s: one fetch starts every 25 s
        await clock.advance(by: .zero)
        try await eventually(every: .milliseconds(10), "fewer than 1 fetches") { server.requests.values.reduce(0, +) >= 1 ? () : nil }
        await clock.advance(by: .seconds(30))
        try await eventually(every: .milliseconds(10), "fewer than 2 fetches") { server.requests.values.reduce(0, +) >= 2 ? () : nil }
        #expect(server.requests.values.reduce(0, +) == 2)
        await clock.advance(by: .seconds(30))
        try await eventually(every: .milliseconds(10), "fewer than 3 fetches") { server.requests.values.reduce(0, +) >= 3 ? () : nil }
        #expect(server.requests.values.reduce(0, +) == 3)
        await clock.advance(by: .seconds(40))
        #expect(await round.value.fetched == 4)
    }

    @Test func aBadFeedRateIsRefusedBeforeAnythingStarts() throws {
        for rate in ["-1", "nan", "1e9"] {
            let outcome = try runProcess(ProductBinary.url("metube-server"), ["serve", "--port", "0", "--poll-interval", "0", "--feed-rate=\(rate)"])
            #expect(outcome.status == 64, "\(rate)")
            #expect(outcome.stderr.contains("--feed-rate must be 0…10000 requests a second"), "\(rate): \(outcome.stderr)")
        }
    }

    @Test(.timeLimit(.minutes(2))) func theRealServerShowsAWholeFeedOutageOnItsMetricsAndStopsAsking() async throws {
        // Given a real server whose feed server answers 404 for every channel
        let feeds = await FailingFeedServer.start()
        defer { feeds.stop() }
        feeds.set(.failing(status: 404))
        let directory = TemporaryDirectory("metube-feed-outage")
        defer { directory.remove() }
        let server = try ServerProcess(arguments: [
            "serve", "--port", "0", "--database", directory.path("hub.sqlite"), "--metrics-port", "0",
            "--feed-url-template", feeds.feedURLTemplate, "--feed-rate", "0", "--poll-interval", "3600",
        ])
        defer { server.kill() }
        let port = try await server.listening(within: .seconds(60))
        let metricsPort = try await server.port(after: "metrics on http://", within: .seconds(30))

        // When a client registers 200 channels (each queued for its first fetch)
        var register = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(HubAPI.registerPath)")
        register.method = .POST
        register.headers.add(name: "Content-Type", value: "application/json")
        let channels = FailingFeedServer.channelIDs(200)
        register.body = .bytes(try JSONEncoder().encode(HubRegisterRequest(channelIDs: channels)))
        #expect(try await HTTPClient.shared.execute(register, timeout: .seconds(30)).status == .ok)

        // Then /metrics shows the source down, once, and the server stopped asking channel by channel
        let deadline = ContinuousClock.now + .seconds(60)
        var metrics = ""
        while ServerMetricsTests.sample(metrics, "metube_feed_source_down") != 1 {
            guard ContinuousClock.now < deadline else { Issue.record("no outage on /metrics after \(feeds.requests.count) feeds were asked"); return }
            try await Task.sleep(for: .milliseconds(50))
            metrics = try await ServerMetricsTests.get("http://127.0.0.1:\(metricsPort)/metrics").body
        }
        #expect(ServerMetricsTests.sample(metrics, "metube_feed_source_outages_total") == 1)
        #expect(feeds.requests.values.reduce(0, +) <= 20 + 8)
    }
}
