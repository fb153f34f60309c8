import Foundation
import Hummingbird
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Testing
import TestSupport
@testable import MeTubeSync

/// Holds every request until `delay` has passed, and tells `arrivals` when one arrives.
struct SlowMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let delay: Duration
    let arrivals: AsyncStream<Void>.Continuation

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        arrivals.yield()
        try await Task.sleep(for: delay)
        return try await next(request, context)
    }
}

@Suite struct SyncEngineHealthTests {
    static let fast = SyncConfiguration(reconnectDebounce: .milliseconds(50), probeDelays: [.milliseconds(50)], hubInterval: nil, markSyncInterval: nil)

    @Test func aCancelledMarkSyncRunIsCancelledNotOffline() async throws {
        // Given a mark-sync service that holds every request for a while, and a pending mark
        let directory = TemporaryDirectory("metube-engine-status-cancel")
        defer { directory.remove() }
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let server = try await MarkSyncTestServer.start(firstMiddleware: SlowMiddleware(delay: .seconds(2), arrivals: arrived))
        let store = try Store.open(at: directory.url.appendingPathComponent("store", isDirectory: true))
        try store.mark("v1", as: .watched)
        let client = MarkSyncClient(endpoint: server.client.endpoint, userToken: server.token, timeoutSeconds: 10, retryPolicy: .none)
        let engine = SyncEngine(store: store, configuration: Self.fast, markSync: MarkSync(client: client, store: store))

        // When a marks-only run is cancelled while its request is on the way
        let run = Task { await engine.sync(.markSync) }
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        await engine.cancel()
        let report = await run.value

        // Then the run reports a cancellation, not a failure, and the service is not offline
        #expect(report.cancelled)
        #expect(report.markSyncError == nil)
        #expect(await engine.health(of: .markSyncService).offlineSince == nil)
        #expect(store.syncSnapshot().markSyncOfflineSince == nil)
        #expect(store.library().marks["v1"]?.syncState == .pending)
        await engine.shutdown()
        await server.server.stop()
    }

    @Test func shutdownStopsAReconnectThatIsWaitingForItsDebounce() async throws {
        // Given an engine whose source failed to be reached, on a manual clock
        let directory = TemporaryDirectory("metube-engine-reconnect-shutdown")
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store", isDirectory: true))
        let clock = ManualClock()
        let source = GatedVideoSource()
        let configuration = SyncConfiguration(reconnectDebounce: .seconds(3), probeDelays: [.seconds(2)], hubInterval: nil, markSyncInterval: nil)
        let engine = SyncEngine(store: store, source: source, configuration: configuration, clock: clock)
        var events = engine.events.makeAsyncIterator()
        let run = Task { await engine.sync() }
        while source.waiting == 0 { await Task.yield() }
        source.finishOne(.failure(.connection("injected")))
        #expect(await run.value.error == .connection("injected"))

        // When the probe is answered and the engine is shut down during the reconnect debounce
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(2))
        while let event = await events.next(), event != .health(.videoSource, .online) {}
        while clock.sleeperCount == 0 { await Task.yield() }
        await engine.shutdown()

        // Then the debounce wait is cancelled at once, and no sync follows
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(10))
        for _ in 0..<100 { await Task.yield() }
        #expect(source.started == 1)
    }

    @Test func directModeWithNoFeedReachableIsOfflineIsProbedAndIsNotASync() async throws {
        // Given a store following three channels and a feed address nobody listens on
        let directory = TemporaryDirectory("metube-direct-offline")
        defer { directory.remove() }
        let channels = SyntheticLibrary(channelCount: 3).channels().map { Channel(id: $0.id) }
        let store = try HubSyncTestSupport.store(in: directory, following: channels)
        var configuration = Self.fast
        configuration.source = .direct
        configuration.feedURLTemplate = "http://127.0.0.1:1/feeds/{channelId}"
        let engine = SyncEngine(store: store, configuration: configuration)
        var events = engine.events.makeAsyncIterator()

        // When it syncs
        let report = await engine.sync()

        // Then every channel failed, the source is offline, "last synced" did not move, and a
        // health probe asks the feed server again
        #expect(report.failedChannels.count == 3 && report.requests == 3)
        #expect(!report.sourceAnswered)
        #expect(store.syncSnapshot().lastHubSync == nil)
        #expect(await engine.health(of: .videoSource).offlineSince != nil)
        var probed = false
        while let event = await events.next() {
            if case .health(.videoSource, .offline(let offline)) = event, offline.probing {
                probed = true
                break
            }
        }
        #expect(probed)
        await engine.shutdown()
    }

    @Test func onlyARunTheFeedsAnsweredMovesLastSynced() async throws {
        // Given a feed server on which the followed channels' feeds all fail with 500
        let directory = TemporaryDirectory("metube-direct-failing")
        defer { directory.remove() }
        let server = try await LiveHub.start(router: HubDirectModeTests.feedRouter(), repository: SQLiteHubRepository(path: directory.path("unused.sqlite")))
        defer { server.stop() }
        let store = try HubSyncTestSupport.store(in: directory, following: [Channel(id: HubDirectModeTests.brokenChannel)])
        let configuration = SyncConfiguration(source: .direct, feedURLTemplate: server.url + "/feeds/{channelId}")
        let engine = SyncEngine(store: store, configuration: configuration)

        // When it syncs, Then the server answered but no feed arrived: not a sync, yet not offline
        let failing = await engine.sync()
        #expect(failing.failedChannels.count == 1 && !failing.sourceAnswered)
        #expect(store.syncSnapshot().lastHubSync == nil)
        #expect(await engine.health(of: .videoSource).offlineSince == nil)

        // When a working channel is followed too and it syncs, Then that partial run is a sync
        try store.apply(StoreChange(channels: [Channel(id: "UC9PBzalIcEQCsiIkq36PyUA")]))
        let partial = await engine.sync()
        #expect(partial.failedChannels.count == 1 && partial.sourceAnswered)
        #expect(store.syncSnapshot().lastHubSync != nil)
        #expect(await engine.health(of: .videoSource) == .online)
    }
}
