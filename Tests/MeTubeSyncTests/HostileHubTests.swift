import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeStore
@testable import MeTubeSync
import MeTubeTransfer
import Testing
import TestSupport

/// A hub that misbehaves in every way the client must survive: hostile Retry-After values,
/// stalled and dripping answers, endless, repeating and overlapping pages, watermarks it claims
/// or refuses, and rows with bad ids, huge strings and wrong types. Nothing may crash or hang the
/// sync, and nothing stored may be beyond what the client can read back.
@Suite struct HostileHubTests {
    typealias Support = HubSyncTestSupport
    static let channelID = HostileHub.channelID(1)

    /// A hub answering register and channels politely and `videos/query` with `videos`.
    private func hub(videos: @escaping @Sendable (HostilePeer.Request) async -> HostilePeer.Reply) async throws -> HostilePeer {
        try await HostilePeer.start { request in
            switch request.path {
            case HubAPI.registerPath: .json(HostileHub.registered((request.json?["channelIds"] as? [Any])?.count ?? 0))
            case HubAPI.channelsPath: .json("{\"channels\":[]}")
            case HubAPI.videoQueryPath: await videos(request)
            default: .json("{\"error\":\"not found\"}", status: 404)
            }
        }
    }

    /// A store following the one hostile channel.
    private func store(_ directory: TemporaryDirectory) throws -> Store {
        try Support.store(in: directory, following: [Channel(id: Self.channelID, title: "hostile")])
    }

    /// `count` valid rows numbered after `afterSeq`, their video ids from `firstVideo`.
    private static func rows(after afterSeq: Int64, count: Int, firstVideo: Int) -> [String] {
        (0..<count).map { HostileHub.row(seq: afterSeq + 1 + Int64($0), videoID: HostileHub.videoID(firstVideo + $0), channelID: channelID) }
    }

    @Test(arguments: ["nan", "inf", "-inf", "1e300", "-5", "9300000000000000000", "soon"])
    func aHostileRetryAfterNeverCrashesTheSync(_ value: String) async throws {
        // Given a hub that answers every query 429 with a Retry-After of `value`
        let directory = TemporaryDirectory("metube-hostile-retry-after")
        defer { directory.remove() }
        let peer = try await hub { _ in .json("{\"error\":\"slow down\"}", status: 429, headers: [("Retry-After", value)]) }
        defer { peer.stop() }

        // When it syncs
        let report = await SyncEngine(store: try store(directory), configuration: Support.configuration(peer.url)).sync()

        // Then the run ends normally with the hub's error
        #expect(report.error?.description == "the server answered HTTP 429: slow down")
    }

    @Test(.timeLimit(.minutes(1))) func aHubThatStallsAfterTheHeadersCannotHangTheSync() async throws {
        // Given a hub that sends the headers and the first bytes of a page, then nothing for 2 min
        let directory = TemporaryDirectory("metube-hostile-stall")
        defer { directory.remove() }
        let peer = try await hub { _ in
            HostilePeer.Reply(body: .stall(prefix: Data("{\"videos\":[".utf8), for: .seconds(120), rest: Data("],\"maxSeqReturned\":0}".utf8)))
        }
        defer { peer.stop() }
        var configuration = Support.configuration(peer.url, timeout: .seconds(2))
        configuration.retryPolicy = .none

        // When it syncs with a 2 s request limit
        let started = ContinuousClock.now
        let report = await SyncEngine(store: try store(directory), configuration: configuration).sync()

        // Then the request is cut off at its total deadline with a clear message (the bound
        // leaves room for a loaded machine; without the deadline it would take 2 min)
        #expect(report.error?.description == "the server did not answer within 2 s")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test(.timeLimit(.minutes(1))) func aHubThatDripsItsAnswerIsCutOffByTheMinimumRate() async throws {
        // Given a hub that sends a valid 16 KB page 16 bytes every 100 ms (160 B/s: 100 s)
        let directory = TemporaryDirectory("metube-hostile-drip")
        defer { directory.remove() }
        let page = HostileHub.page(Self.rows(after: 0, count: 1, firstVideo: 0), maxSeqReturned: "1") + String(repeating: " ", count: 16_000)
        let peer = try await hub { _ in HostilePeer.Reply(body: .drip(Data(page.utf8), chunkSize: 16, every: .milliseconds(100))) }
        defer { peer.stop() }
        var configuration = Support.configuration(peer.url, timeout: .seconds(30))
        configuration.retryPolicy = .none

        // When it syncs with a generous 30 s request limit
        let started = ContinuousClock.now
        let report = await SyncEngine(store: try store(directory), configuration: configuration).sync()

        // Then the minimum rate (1 KiB/s after 3 s) stops it long before
        #expect(report.error?.description.contains("the answer arrived too slowly") == true)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func anOversizedAnswerIsRefused() async throws {
        // Given a hub whose page is 17 MiB
        let directory = TemporaryDirectory("metube-hostile-huge")
        defer { directory.remove() }
        let huge = Data(("{\"videos\":[],\"maxSeqReturned\":0,\"pad\":\"" + String(repeating: "x", count: 17 << 20) + "\"}").utf8)
        let peer = try await hub { _ in HostilePeer.Reply(body: .bytes(huge)) }
        defer { peer.stop() }

        // When it syncs
        let report = await SyncEngine(store: try store(directory), configuration: Support.configuration(peer.url)).sync()

        // Then the body cap stops it
        #expect(report.error?.description.contains("larger than 16 MiB") == true)
    }

    @Test func theWholeRunHasADeadline() async throws {
        // Given a hub that answers endless full pages of new videos, each after 300 ms
        let directory = TemporaryDirectory("metube-hostile-run-deadline")
        defer { directory.remove() }
        let peer = try await hub { request in
            let (afterSeq, limit) = HostileHub.query(request)
            let page = HostileHub.page(Self.rows(after: afterSeq, count: limit, firstVideo: Int(afterSeq)), maxSeqReturned: String(afterSeq + Int64(limit)))
            return HostilePeer.Reply(body: .stall(prefix: Data(), for: .milliseconds(300), rest: Data(page.utf8)))
        }
        defer { peer.stop() }
        let store = try store(directory)

        // When a run limited to 2 s syncs with pages of 2
        let run = HubSyncRun(store: store, client: HubClient(baseURL: peer.url, retryPolicy: .none), pageSize: 2, followHubChannels: false, progress: { _ in }, runLimit: .seconds(2))
        let started = ContinuousClock.now
        let error = await #expect(throws: SyncError.self) { try await run.run() }

        // Then it stopped at its deadline, keeping the pages merged before it
        #expect(error?.description.contains("the sync ran out of its time limit") == true)
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(store.syncSnapshot().hubWatermark == Int64(store.library().videos.count))
    }

    @Test(.timeLimit(.minutes(1))) func endlessPagesStopWithAClearError() async throws {
        // Given a hub that always answers a full page of new videos
        let directory = TemporaryDirectory("metube-hostile-endless")
        defer { directory.remove() }
        let peer = try await hub { request in
            let (afterSeq, limit) = HostileHub.query(request)
            return .json(HostileHub.page(Self.rows(after: afterSeq, count: limit, firstVideo: Int(afterSeq)), maxSeqReturned: String(afterSeq + Int64(limit))))
        }
        defer { peer.stop() }
        let store = try store(directory)

        // When it syncs one channel
        let report = await SyncEngine(store: store, configuration: Support.configuration(peer.url, pageSize: 100)).sync()

        // Then the run stops at what one channel can plausibly need, keeping what it merged
        #expect(report.error?.description.contains("the hub kept sending pages") == true)
        #expect(store.library().videos.count <= 1200)
        #expect(store.syncSnapshot().hubWatermark == Int64(store.library().videos.count))
    }

    @Test(.timeLimit(.minutes(1))) func theSamePageAgainWithTheWatermarkPlusOneIsDetected() async throws {
        // Given a hub that answers the same videos on every page, renumbered after the watermark
        let directory = TemporaryDirectory("metube-hostile-repeat")
        defer { directory.remove() }
        let peer = try await hub { request in
            let (afterSeq, limit) = HostileHub.query(request)
            return .json(HostileHub.page(Self.rows(after: afterSeq, count: limit, firstVideo: 0), maxSeqReturned: String(afterSeq + Int64(limit))))
        }
        defer { peer.stop() }
        let store = try store(directory)

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(peer.url, pageSize: 50)).sync()

        // Then the second page is recognised as a repeat
        #expect(report.error?.description.contains("repeats 50 videos") == true)
        #expect(store.library().videos.count == 50)
    }

    @Test func pagesThatOverlapTheWatermarkAreDetected() async throws {
        // Given a hub that ignores afterSeq and always answers the first full page
        let directory = TemporaryDirectory("metube-hostile-overlap")
        defer { directory.remove() }
        let peer = try await hub { request in
            let (_, limit) = HostileHub.query(request)
            return .json(HostileHub.page(Self.rows(after: 0, count: limit, firstVideo: 0), maxSeqReturned: String(limit)))
        }
        defer { peer.stop() }
        let store = try store(directory)

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(peer.url, pageSize: 10)).sync()

        // Then the overlap is an error and the watermark stays at what the first page proved
        #expect(report.error?.description.contains("its pages overlap") == true)
        #expect(store.syncSnapshot().hubWatermark == 10)
    }

    @Test func aWatermarkIsNeverSavedBeyondThePagesRows() async throws {
        // Given a hub whose last page of 3 rows claims maxSeqReturned 2^63 − 1
        let directory = TemporaryDirectory("metube-hostile-max-seq")
        defer { directory.remove() }
        let peer = try await hub { _ in .json(HostileHub.page(Self.rows(after: 0, count: 3, firstVideo: 0), maxSeqReturned: "9223372036854775807")) }
        defer { peer.stop() }
        let store = try store(directory)

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(peer.url)).sync()

        // Then the watermark is what the rows prove, with a note
        #expect(report.error == nil)
        #expect(store.syncSnapshot().hubWatermark == 3)
        #expect(report.notes.contains { $0.contains("claimed maxSeqReturned 9223372036854775807") })
    }

    @Test func aWatermarkTheHubRefusesIsForgottenAndEverythingFetchedAgain() async throws {
        // Given a hub restored from an older backup: it answers 400 to any afterSeq above its
        // newest seq (3), and a store whose watermark is 500
        let directory = TemporaryDirectory("metube-hostile-refused")
        defer { directory.remove() }
        let peer = try await hub { request in
            let (afterSeq, _) = HostileHub.query(request)
            guard afterSeq <= 3 else { return .json("{\"error\":\"afterSeq is beyond the newest seq\"}", status: 400) }
            return .json(HostileHub.page(afterSeq == 0 ? Self.rows(after: 0, count: 3, firstVideo: 0) : [], maxSeqReturned: "3"))
        }
        defer { peer.stop() }
        let store = try store(directory)
        try store.syncTransaction { transaction in
            transaction.sync.hubWatermark = 500
            transaction.sync.hubRegisteredChannelIDs = [Self.channelID]
        }

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(peer.url)).sync()

        // Then it registered again, fetched from the start, and recorded the refusal for doctor
        #expect(report.error == nil)
        #expect(store.library().videos.count == 3)
        #expect(store.syncSnapshot().hubWatermark == 3)
        #expect(peer.requests.filter { $0.path == HubAPI.registerPath }.count == 2)
        #expect(SyncRejections.load(from: store.directory).hubWatermark?.contains("refused the watermark 500") == true)

        // And a later clean sync clears the record
        _ = await SyncEngine(store: store, configuration: Support.configuration(peer.url)).sync()
        #expect(SyncRejections.load(from: store.directory).isEmpty)
    }

    @Test func aStoredWatermarkBeyondWhatTheHubAcceptsRecoversAgainstTheRealServer() async throws {
        // Given a real hub and a store left with the watermark 2^63 − 1 by an older metube
        let directory = TemporaryDirectory("metube-hostile-stuck")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 3, videoCount: 30, markCount: 0, newest: Date())
        let hub = try await LiveHub.start(in: directory)
        defer { hub.stop() }
        try await hub.seed(library)
        let store = try Support.store(in: directory, following: library.channels())
        try store.syncTransaction { transaction in
            transaction.sync.hubWatermark = .max
            transaction.sync.hubRegisteredChannelIDs = library.channels().map(\.id)
        }

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(hub.url)).sync()

        // Then it is not stuck: everything arrived and the watermark is one the hub accepts
        #expect(report.error == nil)
        #expect(store.library().videos.count == 30)
        #expect((1...HubAPI.maxAfterSeq).contains(store.syncSnapshot().hubWatermark))
        #expect(SyncRejections.load(from: store.directory).hubWatermark != nil)
    }

    @Test func badRowsAreDroppedOrClearedAndTheRestOfThePageIsKept() async throws {
        // Given a page mixing good rows with every kind of bad one
        let directory = TemporaryDirectory("metube-hostile-rows")
        defer { directory.remove() }
        let channel = Self.channelID
        let rows = [
            HostileHub.row(seq: 1, videoID: HostileHub.videoID(1), channelID: channel),
            HostileHub.row(seq: 2, videoID: "AAAAAAAAA\u{0}A", channelID: channel),
            HostileHub.row(seq: 3, videoID: "AAAAAAAAAA\n", channelID: channel),
            HostileHub.row(seq: 4, videoID: String(repeating: "A", count: 5000), channelID: channel),
            HostileHub.row(seq: 5, videoID: HostileHub.videoID(5), channelID: "UC\u{1B}]0;owned\u{7}"),
            HostileHub.row(seq: 6, videoID: HostileHub.videoID(6), channelID: channel, title: String(repeating: "\u{1B}[2J", count: 5000)),
            HostileHub.row(seq: 7, videoID: HostileHub.videoID(7), channelID: channel, duration: "9000000000000000"),
            HostileHub.row(seq: 8, videoID: HostileHub.videoID(8), channelID: channel, duration: "1e300"),
            HostileHub.row(seq: 9, videoID: HostileHub.videoID(9), channelID: channel, duration: "\"long\""),
            "{\"seq\":\"10\",\"videoId\":\"\(HostileHub.videoID(10))\",\"channelId\":\"\(channel)\",\"publishedAt\":\"2025-12-10T18:11:22Z\",\"url\":\"\"}",
            "42",
            HostileHub.row(seq: 12, videoID: HostileHub.videoID(12), channelID: channel, title: "fine"),
        ]
        let peer = try await hub { _ in .json(HostileHub.page(rows, maxSeqReturned: "\"twelve\"")) }
        defer { peer.stop() }
        let store = try store(directory)

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(peer.url)).sync()

        // Then the good rows are stored, bad fields cleared, titles capped, and the rest dropped
        // with a note; the watermark is the largest usable seq
        #expect(report.error == nil)
        let videos = store.library().videos
        #expect(Set(videos.map(\.id)) == Set([1, 6, 7, 8, 9, 12].map(HostileHub.videoID)))
        #expect(videos.allSatisfy { $0.title.count <= PeerInput.maxTitleCharacters })
        #expect(videos.allSatisfy { $0.duration == nil || $0.duration == 60 })
        #expect(store.syncSnapshot().hubWatermark == 12)
        #expect(report.notes.contains { $0.contains("5 row(s) dropped") || $0.contains("row(s) dropped") })

        // And everything stored reads back
        let reopened = try Store.open(at: store.directory)
        #expect(reopened.library().videos.count == 6)
    }

    @Test func hostileRegisterCountsAreRangeChecked() async throws {
        // Given a hub whose register answer has counts of the wrong type and range
        let directory = TemporaryDirectory("metube-hostile-register")
        defer { directory.remove() }
        let peer = try await HostilePeer.start { request in
            switch request.path {
            case HubAPI.registerPath: .json("{\"requested\":1e300,\"inserted\":-5,\"alreadyPresent\":\"x\",\"totalChannels\":9223372036854775807}")
            default: .json(HostileHub.page(Self.rows(after: 0, count: 2, firstVideo: 0), maxSeqReturned: "2"))
            }
        }
        defer { peer.stop() }
        let store = try store(directory)

        // When it syncs
        let report = await SyncEngine(store: store, configuration: Support.configuration(peer.url)).sync()

        // Then the answer is read, the hub is not taken for reset, and the videos arrive
        #expect(report.error == nil)
        #expect(!report.hubWasReset)
        #expect(store.library().videos.count == 2)
    }
}
