import Foundation
import Hummingbird
import MeTubeAPI
import MeTubeServer
import MeTubeStore
import Synchronization
import Testing
import TestSupport
@testable import MeTubeSync

/// Plays a slow link in front of `videos/query`: each answer takes `delay`. On each query it
/// notes the query's `afterSeq` and the watermark the store in `storeDirectory` holds on disk
/// at that moment, which is what a run killed then would resume from.
private struct SlowPages: RouterMiddleware {
    typealias Context = BasicRequestContext

    /// A query's `afterSeq`, and the watermark on disk when it arrived.
    struct Seen: Sendable {
        var afterSeq: Int64
        var watermarkOnDisk: Int64
    }

    final class Log: Sendable {
        let seen = Mutex<[Seen]>([])
    }

    let delay: Duration
    let storeDirectory: URL
    let log = Log()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path == HubAPI.videoQueryPath else { return try await next(request, context) }
        var request = request
        let body = try await request.body.collect(upTo: 1 << 20)
        request.body = RequestBody(buffer: body)
        let query = try JSONDecoder().decode(HubVideoQuery.self, from: Data(buffer: body))
        let watermark = try Store.open(at: storeDirectory).syncSnapshot().hubWatermark
        log.seen.withLock { $0.append(Seen(afterSeq: query.afterSeq ?? 0, watermarkOnDisk: watermark)) }
        try await Task.sleep(for: delay)
        return try await next(request, context)
    }
}

@Suite struct HubSlowLinkTests {
    @Test func onASlowLinkEveryPageReceivedIsOnDiskBeforeTheOneAfterNextIsAsked() async throws {
        // Given a hub of 500 videos behind a link where each page takes 1.2 s (as a 500-video page
        // does through 1 Mbit/s), and an empty store following its channels
        let directory = TemporaryDirectory("metube-hub-slow-link")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 10, videoCount: 500, markCount: 0, newest: Date())
        let repository = try SQLiteHubRepository(path: directory.path("hub.sqlite"))
        let slow = SlowPages(delay: .milliseconds(1_200), storeDirectory: directory.url.appendingPathComponent("store", isDirectory: true))
        let hub = try await LiveHub.start(router: buildRouter(hubRepository: repository, firstMiddleware: slow), repository: repository)
        defer { hub.stop() }
        try await hub.seed(library)
        let store = try HubSyncTestSupport.store(in: directory, following: library.channels())

        // When it syncs, asking for each next page while it takes in the one before
        let report = await SyncEngine(store: store, configuration: HubSyncTestSupport.configuration(hub.url, pageSize: 100)).sync()

        // Then whenever it asks for a page, all it has received is on disk but the last two pages
        // (the one being taken in, and the one before it, whose merge may still be running): a
        // run killed then resumes from there and fetches those two again, not a whole batch
        #expect(report.error == nil && store.library().videos.count == 500)
        let seen = slow.log.seen.withLock { $0 }
        #expect(seen.count >= 5)
        for index in seen.indices.dropFirst(2) {
            #expect(seen[index].watermarkOnDisk >= seen[index - 2].afterSeq, "query \(index + 1) after seq \(seen[index].afterSeq)")
        }
    }
}
