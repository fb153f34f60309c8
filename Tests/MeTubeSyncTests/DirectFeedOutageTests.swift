import Foundation
import Clocks
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
@testable import MeTubeSync
import TestSupport
import Testing

/// Direct mode against a loopback feed server that fails on command: per-channel backoff with
/// Retry-After, and a whole-source outage told once, probed one request at a time, and ended
/// with a complete sync. Time is a test clock; nothing sleeps.
@Suite struct DirectFeedOutageTests {
    static func channels(_ count: Int) -> [Channel] {
        FailingFeedServer.channelIDs(count).map { Channel(id: $0) }
    }

    static func source(_ store: Store, _ server: FailingFeedServer, clock: TestClock<Duration>, backoffStep: Duration = .seconds(300)) -> DirectVideoSource {
        let client = DirectFeedClient(urlTemplate: server.feedURLTemplate, timeout: .seconds(10))
        return DirectVideoSource(store: store, client: client, concurrency: 4, rate: 0, backoffStep: backoffStep, clock: FeedClock(clock))
    }

    @Test(arguments: [
        (FailingFeedServer.Mode.failing(status: 404), "HTTP 404"),
        (.failing(status: 429, retryAfter: "30"), "HTTP 429"),
        (.failing(status: 503, retryAfter: "Fri, 31 Dec 9999 23:59:59 GMT"), "HTTP 503"),
    ])
    func wholeFeedOutageIsOneEventProbedOneRequestAtATimeAndEndsWithACompleteSync(mode: FailingFeedServer.Mode, reason: String) async throws {
        // Given 60 followed channels whose feeds all fail
        let directory = TemporaryDirectory("metube-outage")
        defer { directory.remove() }
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let store = try HubSyncTestSupport.store(in: directory, following: Self.channels(60))
        let source = Self.source(store, server, clock: TestClock())
        server.set(mode)

        // When a sync runs, it stops once most channels failed and says so once
        let first = try await source.sync { _ in }
        #expect(first.outageBegan)
        #expect(first.sourceOutage?.reason == reason)
        #expect(first.requests <= 20 + 4)
        #expect(!first.isComplete)
        #expect(!first.sourceAnswered)
        #expect(server.requests.values.allSatisfy { $0 == 1 })

        // While it lasts, each run and each probe is one request, and nothing is said again
        let second = try await source.sync { _ in }
        #expect(second.requests == 1)
        #expect(!second.outageBegan)
        #expect(second.sourceOutage == first.sourceOutage)
        await #expect(throws: SyncError.self) { try await source.probe() }
        #expect(server.requests.values.reduce(0, +) == first.requests + 2)

        // When the feeds return, the probe passes and the next run fetches every channel once
        server.set(.answering)
        server.resetCounts()
        try await source.probe()
        let third = try await source.sync { _ in }
        #expect(third.outageEnded == first.sourceOutage)
        #expect(third.sourceOutage == nil)
        #expect(third.isComplete)
        #expect(third.requests == 60)
        #expect(third.newVideos == 60)
        #expect(server.requests.count == 60)
        #expect(server.requests.values.allSatisfy { $0 <= 2 })
    }

    @Test func aFailingChannelBacksOffHonouringRetryAfterWhileTheOthersAreFetched() async throws {
        // Given 30 channels, two answering 429 with a Retry-After of two minutes and one with a
        // hostile date in the year 9999
        let directory = TemporaryDirectory("metube-backoff")
        defer { directory.remove() }
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        let channels = Self.channels(30).map(\.id)
        let store = try HubSyncTestSupport.store(in: directory, following: Self.channels(30))
        let clock = TestClock()
        let source = Self.source(store, server, clock: clock, backoffStep: .seconds(60))
        let limited = Array(channels.prefix(2))
        let hostile = channels[2]
        server.set(.failing(status: 429, retryAfter: "120"), for: limited)
        server.set(.failing(status: 503, retryAfter: "Fri, 31 Dec 9999 23:59:59 GMT"), for: [hostile])

        // When syncs run over the next minutes
        let first = try await source.sync { _ in }
        let second = try await source.sync { _ in }
        await clock.advance(by: .seconds(119))
        let third = try await source.sync { _ in }

        // Then the failing channels are asked once until their Retry-After is over, still
        // reported as failing, and the others are fetched every time
        #expect(Set(first.failedChannels.keys) == Set(limited + [hostile]))
        #expect(first.sourceOutage == nil)
        #expect(second.backingOff == 3)
        #expect(Set(second.failedChannels.keys) == Set(limited + [hostile]))
        #expect(second.requests == 27)
        #expect(!third.isComplete)
        #expect(limited.allSatisfy { server.requests[$0] == 1 })
        #expect(server.requests[channels[10]] == 3)

        // And once it is over they are asked again; the hostile date holds its channel one day at most
        await clock.advance(by: .seconds(2))
        _ = try await source.sync { _ in }
        #expect(limited.allSatisfy { server.requests[$0] == 2 })
        #expect(server.requests[hostile] == 1)
        server.set(.answering, for: limited + [hostile])
        await clock.advance(by: .seconds(24 * 3600 + 1))
        let recovered = try await source.sync { _ in }
        #expect(recovered.isComplete)
        #expect(server.requests[hostile] == 2)
    }

    @Test func theSettingRateAndItsRangeReachDirectMode() throws {
        let settings = try Settings(parsing: "[hub]\nsource = \"direct\"\nrate = 5.5\n")
        #expect(SyncConfiguration(settings: settings).directRate == 5.5)
        #expect(SyncConfiguration(settings: try Settings(parsing: "")).directRate == DirectVideoSource.defaultRate)
        #expect(throws: SettingsError.self) { try Settings(parsing: "[hub]\nrate = 0\n") }
        #expect(throws: SettingsError.self) { try Settings(parsing: "[hub]\nrate = nan\n") }
    }
}
