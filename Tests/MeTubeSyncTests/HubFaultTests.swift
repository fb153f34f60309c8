import Foundation
import Hummingbird
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Synchronization
import Testing
import TestSupport
@testable import MeTubeSync

/// Answers the next requests to `videos/query` with scripted faults, then lets them through.
struct FaultInjector: RouterMiddleware {
    typealias Context = BasicRequestContext

    enum Fault: Sendable {
        case status(Int)
        case tooManyRequests(retryAfterSeconds: Int)
        case truncatedBody
        case slow(Duration)
    }

    /// The faults still to inject and the number of queries seen.
    final class Script: Sendable {
        let faults: Mutex<[Fault]>
        let seen = Atomic<Int>(0)
        init(_ faults: [Fault]) { self.faults = Mutex(faults) }
    }

    let script: Script

    init(_ faults: [Fault]) { script = Script(faults) }

    /// How many queries reached the injector.
    var seenQueries: Int { script.seen.load(ordering: .relaxed) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path == HubAPI.videoQueryPath else { return try await next(request, context) }
        script.seen.add(1, ordering: .relaxed)
        let fault = script.faults.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        switch fault {
        case nil:
            return try await next(request, context)
        case .status(let code):
            return Response(status: .init(code: code), body: .init(byteBuffer: ByteBuffer(string: "{\"error\":\"injected\"}")))
        case .tooManyRequests(let seconds):
            return Response(status: .tooManyRequests, headers: [.retryAfter: String(seconds)], body: .init(byteBuffer: ByteBuffer(string: "{\"error\":\"slow down\"}")))
        case .truncatedBody:
            let cut = "{\"videos\":[{\"seq\":1,\"videoId\":\"AAAAAAAAAAA\",\"channelId\":\"UCAA"
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: cut)))
        case .slow(let delay):
            try await Task.sleep(for: delay)
            return try await next(request, context)
        }
    }
}

@Suite struct HubFaultTests {
    typealias Support = HubSyncTestSupport
    static let library = SyntheticLibrary(channelCount: 10, videoCount: 300, markCount: 0, newest: Date())

    /// A hub behind `injector`, seeded with the library, and an empty store following its channels.
    private func setUp(_ injector: FaultInjector, directory: TemporaryDirectory) async throws -> (LiveHub, Store) {
        let repository = try SQLiteHubRepository(path: directory.path("hub.sqlite"))
        let hub = try await LiveHub.start(router: buildRouter(hubRepository: repository, firstMiddleware: injector), repository: repository)
        try await hub.seed(Self.library)
        return (hub, try Support.store(in: directory, following: Self.library.channels()))
    }

    @Test func serverErrors429AndTruncatedJSONAreRetriedAndTheSyncCompletes() async throws {
        // Given a hub that fails the first query with 500, then 429 (Retry-After 1 s), then a truncated body
        let directory = TemporaryDirectory("metube-hub-faults")
        defer { directory.remove() }
        let injector = FaultInjector([.status(500), .tooManyRequests(retryAfterSeconds: 1), .truncatedBody])
        let (hub, store) = try await setUp(injector, directory: directory)
        defer { hub.stop() }

        // When it syncs with three retries
        let started = ContinuousClock.now
        let report = await SyncEngine(store: store, configuration: Support.configuration(hub.url, pageSize: 500)).sync()

        // Then the fourth attempt succeeded, Retry-After was honoured, and everything arrived
        #expect(report.error == nil)
        #expect(injector.seenQueries == 4)
        #expect(ContinuousClock.now - started >= .seconds(1))
        #expect(store.library().videos.count == 300)
    }

    @Test func persistentFailuresEndWithAClearErrorAndLeaveTheStoreUnchanged() async throws {
        // Given a hub whose query answers 503 four times in a row
        let directory = TemporaryDirectory("metube-hub-faults-fail")
        defer { directory.remove() }
        let injector = FaultInjector(Array(repeating: .status(503), count: 4))
        let (hub, store) = try await setUp(injector, directory: directory)
        defer { hub.stop() }
        let before = store.syncSnapshot().hubWatermark

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(hub.url)).sync()

        // Then it reports a retryable HTTP error after four attempts, and no video or watermark changed
        #expect(report.error?.description == "the server answered HTTP 503: injected")
        #expect(report.errorIsRetryable)
        #expect(injector.seenQueries == 4)
        #expect(store.library().videos.isEmpty)
        #expect(store.syncSnapshot().hubWatermark == before)
    }

    @Test func aBadRequestIsNotRetried() async throws {
        let directory = TemporaryDirectory("metube-hub-faults-400")
        defer { directory.remove() }
        let injector = FaultInjector([.status(400)])
        let (hub, store) = try await setUp(injector, directory: directory)
        defer { hub.stop() }
        let report = await SyncEngine(store: store, configuration: Support.configuration(hub.url)).sync()
        #expect(report.error?.description == "the server answered HTTP 400: injected")
        #expect(!report.errorIsRetryable)
        #expect(injector.seenQueries == 1)
    }

    @Test func slowAnswersTimeOutAndAreRetried() async throws {
        // Given a hub whose first query takes longer than the client's 1.5 s timeout (generous, so
        // that ordinary answers on a loaded machine never hit it)
        let directory = TemporaryDirectory("metube-hub-faults-slow")
        defer { directory.remove() }
        let injector = FaultInjector([.slow(.seconds(5))])
        let (hub, store) = try await setUp(injector, directory: directory)
        defer { hub.stop() }

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(hub.url, timeout: .milliseconds(1_500))).sync()

        // Then the timed-out attempt was retried and the sync completed
        #expect(report.error == nil)
        #expect(store.library().videos.count == 300)
    }

    @Test(.timeLimit(.minutes(1))) func afterATimeoutTheEngineGoesOfflineProbesAndSyncsAgainOnceReachable() async throws {
        // Given a hub whose first query hangs past the client's timeout, and no retries (the
        // timeout is generous, so that the answers after it never hit it on a loaded machine:
        // a page cut off there would leave the final sync fewer than 300 new videos)
        let directory = TemporaryDirectory("metube-hub-reconnect")
        defer { directory.remove() }
        let injector = FaultInjector([.slow(.seconds(5))])
        let (hub, store) = try await setUp(injector, directory: directory)
        defer { hub.stop() }
        var configuration = Support.configuration(hub.url, timeout: .milliseconds(1_500))
        configuration.retryPolicy = .none
        let engine = SyncEngine(store: store, configuration: configuration)

        // When a sync times out
        let failed = await engine.sync()

        // Then the engine goes offline, a health probe finds the hub, and a sync follows by itself
        #expect(failed.error?.description.contains("did not answer") == true)
        var sawOffline = false
        var sawOnline = false
        for await event in engine.events {
            switch event {
            case .health(.videoSource, .offline): sawOffline = true
            case .health(.videoSource, .online): sawOnline = true
            case .finished(let report) where report.error == nil && sawOnline:
                #expect(report.newVideos == 300)
                await engine.shutdown()
            default: break
            }
        }
        #expect(sawOffline && sawOnline)
        #expect(store.library().videos.count == 300)
    }

    @Test func anUnreachableHubMakesTheEngineOffline() async throws {
        // Given a hub address nobody listens on
        let directory = TemporaryDirectory("metube-hub-offline")
        defer { directory.remove() }
        let store = try Support.store(in: directory, following: Self.library.channels())
        var configuration = Support.configuration("http://127.0.0.1:1")
        configuration.retryPolicy = .none
        let engine = SyncEngine(store: store, configuration: configuration)

        // When it syncs
        let report = await engine.sync()

        // Then the error says the server cannot be reached, it is retryable, and the engine is offline
        #expect(report.error?.isOffline == true, "\(String(describing: report.error))")
        #expect(report.error?.description.hasPrefix("cannot reach the server") == true || report.error == .timeout(seconds: 10),
                "a refused connection, or on a starved machine the request deadline: \(String(describing: report.error))")
        #expect(report.errorIsRetryable)
        guard await engine.health(of: .videoSource).offlineSince != nil else {
            Issue.record("expected offline, got \(await engine.health(of: .videoSource))")
            return
        }
        await engine.shutdown()
    }
}
