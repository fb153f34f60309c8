import Foundation
import HTTPTypes
import Hummingbird
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
import Synchronization
import Testing
import TestSupport
@testable import MeTubeSync

/// The client asks every peer for gzip and inflates within its limits: against the real hub,
/// with and without compression on the server's side, and against hostile peers whose compressed
/// answers are bombs, cut short, mislabelled or of the wrong length. Each hostile answer ends the
/// run with one clear error, in bounded memory, with nothing stored.
@Suite struct CompressedSyncTests {
    typealias Support = HubSyncTestSupport
    static let channelID = HostileHub.channelID(3)

    @Test func aHubSyncAsksForGzipAndTheRealHubGzipsEveryPage() async throws {
        let directory = TemporaryDirectory("metube-gzip-both")
        defer { directory.remove() }
        let (report, store, encodings) = try await syncFromLiveHub(in: directory, serverCompresses: true)
        #expect(report.error == nil)
        #expect(store.library().videos.count == 600)
        // (the last answer is the empty page that ends the sync, too small to compress)
        #expect(encodings.count > 1)
        #expect(encodings.dropLast().allSatisfy { $0 == "gzip" })
        #expect(encodings.last == .some(nil))
    }

    @Test func aHubThatDoesNotCompressIsSyncedAsBefore() async throws {
        let directory = TemporaryDirectory("metube-gzip-client-only")
        defer { directory.remove() }
        let (report, store, encodings) = try await syncFromLiveHub(in: directory, serverCompresses: false)
        #expect(report.error == nil)
        #expect(store.library().videos.count == 600)
        #expect(encodings.allSatisfy { $0 == nil })
    }

    @Test(.timeLimit(.minutes(1))) func aGzipBombFromAHubIsRefusedInBoundedMemory() async throws {
        // Given a hub whose page is 10 MB on the wire and inflates to 10 GiB
        let bomb = try GzipBody.bomb(gibibytes: 10)
        let peakBefore = ProcessMemory.peakResidentMiB()
        let (report, store) = try await syncFromHostileHub(.gzipped(bomb))

        // Then the sync stops at the answer's limit with a clear error, having stored nothing,
        // its memory far below the bomb's (the bound leaves room for the tests running beside it)
        #expect(report.error?.description.contains("larger than 16 MiB") == true, "\(String(describing: report.error))")
        #expect(store.library().videos.isEmpty)
        #expect(ProcessMemory.peakResidentMiB() - peakBefore < 1024)
    }

    @Test func aTruncatedGzipPageIsAClearError() async throws {
        let whole = try GzipBody.gzip(Data(Self.page.utf8))
        let (report, store) = try await syncFromHostileHub(.gzipped(whole.prefix(whole.count / 2)))
        #expect(report.error?.description.contains("compressed stream cut short") == true, "\(String(describing: report.error))")
        #expect(store.library().videos.isEmpty)
    }

    @Test func aPlainPageLabelledGzipIsAClearError() async throws {
        let (report, store) = try await syncFromHostileHub(.gzipped(Data(Self.page.utf8)))
        #expect(report.error?.description.contains("not a valid compressed stream") == true, "\(String(describing: report.error))")
        #expect(store.library().videos.isEmpty)
    }

    @Test func aCodingTheClientDidNotAskForIsAClearError() async throws {
        let (report, store) = try await syncFromHostileHub(HostilePeer.Reply.json(Self.page, headers: [("Content-Encoding", "br")]))
        #expect(report.error?.description.contains("encoded as br, which was not asked for") == true, "\(String(describing: report.error))")
        #expect(store.library().videos.isEmpty)
    }

    @Test func aContentLengthShorterThanTheGzipBodyIsAClearError() async throws {
        let whole = try GzipBody.gzip(Data(Self.page.utf8))
        let (report, store) = try await syncFromHostileHub(.gzipped(whole, contentLength: whole.count - 20))
        #expect(report.error?.description.contains("compressed stream cut short") == true, "\(String(describing: report.error))")
        #expect(store.library().videos.isEmpty)
    }

    @Test(.timeLimit(.minutes(1))) func aContentLengthLongerThanTheGzipBodyEndsAtTheDeadline() async throws {
        let whole = try GzipBody.gzip(Data(Self.page.utf8))
        let (report, store) = try await syncFromHostileHub(.gzipped(whole, contentLength: whole.count + 100), timeout: .seconds(2))
        #expect(report.error?.description == "the server did not answer within 2 s")
        #expect(store.library().videos.isEmpty)
    }

    @Test(.timeLimit(.minutes(1))) func aGzipBombFromAFeedServerFailsThatChannelInBoundedMemory() async throws {
        // Given a feed server whose feed is 10 MB on the wire and inflates to 10 GiB
        let bomb = try GzipBody.bomb(gibibytes: 10)
        let peer = try await HostilePeer.start { _ in
            HostilePeer.Reply(headers: [("Content-Type", "application/atom+xml"), ("Content-Encoding", "gzip")], body: .bytes(bomb))
        }
        defer { peer.stop() }
        let directory = TemporaryDirectory("metube-gzip-feed-bomb")
        defer { directory.remove() }
        let store = try Support.store(in: directory, following: [Channel(id: Self.channelID, title: "hostile")])
        let peakBefore = ProcessMemory.peakResidentMiB()

        // When it syncs directly
        let report = await SyncEngine(store: store, configuration: Self.directConfiguration(peer)).sync()

        // Then the feed was asked for gzip, its channel failed with the limit, nothing is stored,
        // and memory stayed far below the bomb's
        #expect(peer.requests.first?.headers[.acceptEncoding]?.contains("gzip") == true)
        #expect(describing(report.failedChannels[Self.channelID])?.contains("larger than 4 MiB") == true, "\(report.failedChannels)")
        #expect(store.library().videos.isEmpty)
        #expect(ProcessMemory.peakResidentMiB() - peakBefore < 1024)
    }

    @Test func aGzippedFeedIsReadAndItsETagStillSavesTheNextFetch() async throws {
        // Given a feed server answering a gzipped feed with an ETag, and 304 to that ETag
        let feed = try GzipBody.gzip(Data(MinimalAtomFeed.text(channelID: Self.channelID, videoID: HostileHub.videoID(1)).utf8))
        let peer = try await HostilePeer.start { request in
            if request.headers[.ifNoneMatch] == "\"v1\"" { return HostilePeer.Reply(status: 304, headers: [("ETag", "\"v1\"")], body: .bytes(Data())) }
            return HostilePeer.Reply(headers: [("Content-Type", "application/atom+xml"), ("Content-Encoding", "gzip"), ("ETag", "\"v1\"")], body: .bytes(feed))
        }
        defer { peer.stop() }
        let directory = TemporaryDirectory("metube-gzip-feed-etag")
        defer { directory.remove() }
        let store = try Support.store(in: directory, following: [Channel(id: Self.channelID, title: "feed")])

        // When it syncs twice
        let first = await SyncEngine(store: store, configuration: Self.directConfiguration(peer)).sync()
        let second = await SyncEngine(store: store, configuration: Self.directConfiguration(peer)).sync()

        // Then the first read the gzipped feed and the second was a 304 that kept it
        #expect(first.failedChannels.isEmpty && second.failedChannels.isEmpty)
        #expect(store.library().videos.map(\.id) == [HostileHub.videoID(1)])
        #expect(peer.requests.count == 2)
        #expect(peer.requests.last?.headers[.ifNoneMatch] == "\"v1\"")
    }

    /// One valid page of two videos of ``channelID``.
    private static let page = HostileHub.page(
        (0..<2).map { HostileHub.row(seq: Int64($0) + 1, videoID: HostileHub.videoID($0), channelID: channelID, title: String(repeating: "a long title ", count: 40)) },
        maxSeqReturned: "2")

    private static func directConfiguration(_ peer: HostilePeer) -> SyncConfiguration {
        var configuration = SyncConfiguration(source: .direct, feedURLTemplate: peer.url + "/feeds/{channelId}", requestTimeout: .seconds(15))
        configuration.retryPolicy = .none
        return configuration
    }

    /// Syncs a new store following ``channelID`` from a hub answering every page with `page`.
    private func syncFromHostileHub(_ page: HostilePeer.Reply, timeout: Duration = .seconds(10)) async throws -> (SyncReport, Store) {
        let peer = try await HostilePeer.start { request in
            switch request.path {
            case HubAPI.registerPath: .json(HostileHub.registered(1))
            case HubAPI.channelsPath: .json("{\"channels\":[]}")
            default: page
            }
        }
        defer { peer.stop() }
        let directory = TemporaryDirectory("metube-gzip-hostile")
        defer { directory.remove() }
        let store = try Support.store(in: directory, following: [Channel(id: Self.channelID, title: "hostile")])
        var configuration = Support.configuration(peer.url, timeout: timeout)
        configuration.retryPolicy = .none
        return (await SyncEngine(store: store, configuration: configuration).sync(), store)
    }

    /// Syncs a new store from a real hub holding 600 videos of 6 channels; when
    /// `serverCompresses` is false the hub never sees the client's `Accept-Encoding`. Returns the
    /// `Content-Encoding` of every `videos/query` answer.
    private func syncFromLiveHub(in directory: TemporaryDirectory, serverCompresses: Bool) async throws -> (SyncReport, Store, [String?]) {
        let repository = try SQLiteHubRepository(path: directory.path("hub.sqlite"))
        let recorder = EncodingRecorder(serverCompresses: serverCompresses)
        let hub = try await LiveHub.start(router: buildRouter(hubRepository: repository, firstMiddleware: recorder), repository: repository)
        defer { hub.stop() }
        let library = SyntheticLibrary(channelCount: 6, videoCount: 600, markCount: 0)
        try await hub.seed(library)
        let store = try Support.store(in: directory, following: library.channels())
        let report = await SyncEngine(store: store, configuration: Support.configuration(hub.url)).sync()
        return (report, store, recorder.encodings)
    }
}

extension HostilePeer.Reply {
    /// A JSON answer labelled `Content-Encoding: gzip` whose body is `body`, with
    /// `contentLength` as its `Content-Length` when given.
    static func gzipped(_ body: Data, contentLength: Int? = nil) -> Self {
        var headers = [("Content-Type", "application/json"), ("Content-Encoding", "gzip")]
        if let contentLength { headers.append(("Content-Length", String(contentLength))) }
        return Self(headers: headers, body: .bytes(body))
    }
}

/// Notes the `Content-Encoding` of every `videos/query` answer; with `serverCompresses` false
/// it hides the client's `Accept-Encoding` from the server, which then answers uncompressed.
private struct EncodingRecorder: RouterMiddleware {
    typealias Context = BasicRequestContext

    let serverCompresses: Bool
    private let log = Log()

    init(serverCompresses: Bool) { self.serverCompresses = serverCompresses }

    var encodings: [String?] { log.encodings.withLock { $0 } }

    private final class Log: Sendable {
        let encodings = Mutex<[String?]>([])
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var head = request.head
        if !serverCompresses { head.headerFields[.acceptEncoding] = nil }
        let response = try await next(Request(head: head, body: request.body), context)
        if request.uri.path == HubAPI.videoQueryPath { log.encodings.withLock { $0.append(response.headers[.contentEncoding]) } }
        return response
    }
}
