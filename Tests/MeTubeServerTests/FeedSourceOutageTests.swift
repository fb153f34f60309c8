import Clocks
import Foundation
import Logging
import MeTubeCore
import Testing
import TestSupport
@testable import MeTubeServer

/// The server's poller against a loopback feed server that fails on command: a whole-source
/// outage is logged once and probed one channel a round, a failing channel backs off per its
/// Retry-After, and the feeds' return is one line and a complete round. Time is a test clock.
@Suite struct FeedSourceOutageTests {
    static let channels = (0..<50).map { "UC" + String(repeating: "0", count: 22 - String($0).count) + String($0) }

    static func ingester(_ server: FailingFeedServer, clock: TestClock<Duration>, log: LogCapture) async throws -> FeedIngester {
        let repository = try SQLiteHubRepository(path: HubTestSupport.temporaryDatabasePath())
        _ = try await repository.register(channelIDs: channels)
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
