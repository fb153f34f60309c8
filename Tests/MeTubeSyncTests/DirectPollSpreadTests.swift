import Foundation
import Clocks
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
@testable import MeTubeSync
import TestSupport
import Testing

/// Direct mode's periodic runs spread their requests over most of the interval, timed on a test
/// clock and seen from a loopback feed server: the session's first run and the user's sync key
/// stay fast, and the key during a spread run hurries it rather than starting another.
@Suite(.timeLimit(.minutes(1))) struct DirectPollSpreadTests {
    static let interval = Duration.seconds(1000)
    static let channelCount = 10
    /// The time between two requests of a spread run: 0.8 of the interval over the channels.
    static let step = interval * SyncEngine.scheduledSpreadShare / channelCount

    /// An engine in direct mode on a test clock, over a store following ``channelCount``
    /// channels, and each feed request with the clock's reading when it reached the server.
    struct Rig {
        let directory = TemporaryDirectory("metube-spread")
        let server: FailingFeedServer
        let clock = TestClock()
        let engine: SyncEngine
        let arrivals: AsyncStream<(channelID: String, at: Duration)>

        init() async throws {
            server = await FailingFeedServer.start()
            let store = try HubSyncTestSupport.store(in: directory, following: FailingFeedServer.channelIDs(DirectPollSpreadTests.channelCount).map { Channel(id: $0) })
            let client = DirectFeedClient(urlTemplate: server.feedURLTemplate, timeout: .seconds(10))
            let source = DirectVideoSource(store: store, client: client, concurrency: 4, rate: 0, clock: FeedClock(clock))
            let configuration = SyncConfiguration(source: .direct, hubInterval: DirectPollSpreadTests.interval, markSyncInterval: nil)
            engine = SyncEngine(store: store, source: source, configuration: configuration, clock: clock)
            let (arrivals, continuation) = AsyncStream.makeStream(of: (channelID: String, at: Duration).self)
            self.arrivals = arrivals
            let origin = clock.now
            server.observe { [clock] channelID in continuation.yield((channelID, origin.duration(to: clock.now))) }
        }

        /// Runs the session's first sync (at once) and returns the arrivals that follow it.
        func pastFirstRun() async -> AsyncStream<(channelID: String, at: Duration)>.Iterator {
            var iterator = arrivals.makeAsyncIterator()
            _ = await engine.sync()
            for _ in 0..<DirectPollSpreadTests.channelCount { _ = await iterator.next() }
            return iterator
        }

        func stop() {
            server.stop()
            directory.remove()
        }
    }

    @Test func periodicRunsAfterTheFirstAreSpreadOverMostOfTheIntervalAndTheFirstIsNot() async throws {
        // Given a session in direct mode following 10 channels
        let rig = try await Rig()
        defer { rig.stop() }
        var arrivals = rig.arrivals.makeAsyncIterator()

        // When the session's first periodic run comes, it fetches every channel at once
        let first = await rig.engine.request(.all, paced: true).report.value
        var firstTimes: [Duration] = []
        for _ in 0..<Self.channelCount { firstTimes.append(try #require(await arrivals.next()).at) }
        #expect(first.isComplete)
        #expect(firstTimes == Array(repeating: .zero, count: Self.channelCount))

        // And the next periodic run asks one channel per step as the clock moves on
        let second = await rig.engine.request(.all, paced: true)
        var secondTimes: [Duration] = []
        var order: [String] = []
        for index in 0..<Self.channelCount {
            if index > 0 { await rig.clock.advance(by: Self.step) }
            let arrival = try #require(await arrivals.next())
            secondTimes.append(arrival.at)
            order.append(arrival.channelID)
        }
        let report = await second.report.value

        // Then its requests came evenly over 0.8 of the interval, in channel order, and it completed
        #expect(secondTimes == (0..<Self.channelCount).map { Self.step * $0 })
        #expect(order == FailingFeedServer.channelIDs(Self.channelCount))
        #expect(report.isComplete)
        #expect(report.requests == Self.channelCount)
    }

    @Test func theSyncKeyDuringASpreadRunHurriesItAndDoesNotStartASecondOne() async throws {
        // Given a session past its first run, with a periodic run spreading its requests
        let rig = try await Rig()
        defer { rig.stop() }
        var arrivals = await rig.pastFirstRun()
        let spread = await rig.engine.request(.all, paced: true)
        _ = await arrivals.next()
        await rig.clock.advance(by: Self.step)
        let secondArrival = try #require(await arrivals.next())
        #expect(secondArrival.at == Self.step)

        // When the user asks for a sync two channels into it
        let manual = await rig.engine.sync()
        var rest: [Duration] = []
        for _ in 2..<Self.channelCount { rest.append(try #require(await arrivals.next()).at) }
        let periodic = await spread.report.value

        // Then the rest of the run went at once, and both got that one run's report
        #expect(rest == Array(repeating: Self.step, count: Self.channelCount - 2))
        #expect(manual.run == periodic.run)
        #expect(manual.isComplete)
        #expect(rig.server.requests.values.allSatisfy { $0 == 2 })
    }

    @Test func aSpreadRunWhoseFetchesKeepFailingFindsTheSourceDownAtOnce() async throws {
        // Given a session past its first run, and an interval later every feed failing
        let rig = try await Rig()
        defer { rig.stop() }
        var arrivals = await rig.pastFirstRun()
        await rig.clock.advance(by: Self.interval)
        rig.server.set(.failing(status: 404))
        rig.server.resetCounts()

        // When a periodic run spreads its requests and the first ones fail
        let spread = await rig.engine.request(.all, paced: true)
        for index in 0..<DirectSyncRun.failuresBeforeHurrying {
            if index > 0 { await rig.clock.advance(by: Self.step) }
            _ = await arrivals.next()
        }
        let report = await spread.report.value

        // Then the rest went at once, without the clock moving on, and the run found the source down
        #expect(report.sourceOutage?.reason == "HTTP 404")
        #expect(report.outageBegan)
        #expect(rig.server.requests.count == Self.channelCount)
    }
}
