import Foundation
import MeTubeCore
import MeTubeStore
@testable import MeTubeSync
import MeTubeYouTube
import TestSupport
import Testing

/// Direct mode's lengths with a Data API key, against a loopback feed server and the Data API
/// stub: the videos a run brings without a length (new in a feed, backfilled) get theirs from
/// `videos.list`, 50 ids a call, each asked once; an impossible length stays unknown; a failing
/// call is one line that loses nothing, and the next sync brings the lengths owed.
@Suite(.serialized) struct DirectDataAPILengthsTests {
    static let channel = DirectBackfillTests.channel

    /// Uploads of `ids`, each `100 + index` seconds long.
    static func uploads(_ ids: [String]) -> [YouTubeStub.Upload] {
        ids.enumerated().map { YouTubeStub.Upload(id: $1, duration: "PT\(100 + $0)S") }
    }

    /// The ids each `videos.list` call of `stub` asked, call by call.
    static func lengthCalls(_ stub: YouTubeStub) -> [[String]] {
        stub.requests.filter { $0.path == "/videos" }.map { ($0.query["id"] ?? "").split(separator: ",").map(String.init) }
    }

    @Test func newAndBackfilledVideosGetTheirLengthsFiftyIdsACallEachAskedOnce() async throws {
        // Given a newly followed channel whose feed lists its last 3 uploads, of 130 the Data API
        // knows, the second a 30-second Short
        let setup = try await DirectBackfillTests.Setup.start()
        defer { setup.stop() }
        let ids = DirectBackfillTests.ids("vid", 130)
        var uploads = Self.uploads(ids)
        uploads[1].duration = "PT30S"
        let playlists = SharedValue([Self.channel: uploads])
        let stub = await YouTubeStub.start(override: YouTubeStub.uploading { playlists.value })
        defer { stub.stop() }
        setup.server.setFeed(Array(ids.prefix(3)), for: Self.channel)
        let source = setup.source(backfill: 120, dataAPI: YouTubeDataAPI(key: "test-key", baseURL: stub.url))

        // When direct mode syncs with [hub] backfill = 120
        let report = try await source.sync { _ in }

        // Then the 3 new and 117 backfilled videos all have their lengths, the Short known by
        // it, from 3 calls of at most 50 ids asking each video once; yt-dlp is not asked
        #expect(report.isComplete, "\(report)")
        #expect(report.notes.isEmpty, "\(report.notes)")
        #expect(report.newVideos == 3 && report.backfilledVideos == 117)
        #expect(setup.videos().count == 120 && setup.videos().allSatisfy { $0.duration != nil })
        #expect(setup.store.library().video(ids[0])?.duration == 100)
        #expect(setup.store.library().video(ids[119])?.duration == 219)
        #expect(setup.store.library().video(ids[1])?.isShort == true)
        let calls = Self.lengthCalls(stub)
        #expect(calls.count == 3 && calls.allSatisfy { $0.count <= YouTubeDataAPI.maxIDsPerCall })
        #expect(calls.joined().sorted() == Array(ids.prefix(120)).sorted())
        #expect(setup.standIn.calls().isEmpty)

        // And a sync with nothing new asks nothing
        let again = try await source.sync { _ in }
        #expect(again.newVideos == 0 && again.backfilledVideos == 0)
        #expect(Self.lengthCalls(stub).count == 3)

        // And a new upload gets its length from one call asking it alone, once
        let fresh = "new00000001"
        playlists.value = [Self.channel: [YouTubeStub.Upload(id: fresh, duration: "PT12M34S")] + uploads]
        setup.server.setFeed([fresh] + ids.prefix(2), for: Self.channel)
        let third = try await source.sync { _ in }
        #expect(third.newVideos == 1 && third.notes.isEmpty)
        #expect(setup.store.library().video(fresh)?.duration == 754)
        #expect(Self.lengthCalls(stub).last == [fresh] && Self.lengthCalls(stub).count == 4)
        _ = try await source.sync { _ in }
        #expect(Self.lengthCalls(stub).count == 4)
    }

    @Test func anImpossibleLengthStaysUnknownAndWhatWasNotAskedIsIgnored() async throws {
        // Given a channel whose first upload's length the Data API gives as garbage
        let setup = try await DirectBackfillTests.Setup.start()
        defer { setup.stop() }
        let old = "old00000001"
        let fresh = ["PT", "P1Y", "-PT5S", "PT99999999H", "P0D", "PT2M"].enumerated().map { (id: "new0000000\($0)", duration: $1) }
        let answers = SharedValue<[(id: String, duration: String?)]>([(old, "PT")])
        let stub = await YouTubeStub.start(override: { request, _ in
            request.path == "/videos" ? .json(YouTubeStub.videoLengthList(answers.value)) : nil
        })
        defer { stub.stop() }
        setup.server.setFeed([old], for: Self.channel)
        let source = setup.source(backfill: 0, dataAPI: YouTubeDataAPI(key: "test-key", baseURL: stub.url))
        _ = try await source.sync { _ in }
        #expect(setup.store.library().video(old).map { $0.duration == nil } == true)

        // When its next uploads' lengths come back impossible, one right, and the answer also
        // gives a length for the first upload, not asked this time
        answers.value = fresh.map { ($0.id, $0.duration) } + [(old, "PT3M")]
        setup.server.setFeed(fresh.map(\.id) + [old], for: Self.channel)
        let report = try await source.sync { _ in }

        // Then only the right one is known; the others and the first upload stay unknown, never 0
        #expect(report.newVideos == 6 && report.notes.isEmpty, "\(report)")
        let library = setup.store.library()
        #expect(library.video("new00000005")?.duration == 120)
        #expect(fresh.dropLast().allSatisfy { library.video($0.id).map { $0.duration == nil } == true })
        #expect(library.video(old).map { $0.duration == nil } == true)
        #expect(Self.lengthCalls(stub) == [[old], fresh.map(\.id)])
    }

    /// How `videos.list` fails.
    enum Fault: String, CaseIterable { case quota, serverError, garbage }

    @Test(arguments: Fault.allCases) func aFailingVideosListLosesNothingAndTheNextSyncBringsTheLengths(fault: Fault) async throws {
        // Given a newly followed channel of 30 uploads and a Data API whose videos.list fails
        let setup = try await DirectBackfillTests.Setup.start()
        defer { setup.stop() }
        let ids = DirectBackfillTests.ids("vid", 30)
        let failing = SharedValue(true)
        let answer = YouTubeStub.uploads([Self.channel: Self.uploads(ids)])
        let stub = await YouTubeStub.start(override: { request, pages in
            guard request.path == "/videos", failing.value else { return answer(request, pages) }
            switch fault {
            case .quota: return .json(YouTubeStub.apiError(status: 403, reason: "quotaExceeded", message: "The request cannot be completed because you have exceeded your quota."), status: 403)
            case .serverError: return .json(YouTubeStub.apiError(status: 500, reason: "backendError", message: "Backend Error"), status: 500)
            case .garbage: return .json("{\"items\":[{\"id\":7}]}")
            }
        })
        defer { stub.stop() }
        setup.server.setFeed(Array(ids.prefix(3)), for: Self.channel)
        let dataAPI = YouTubeDataAPI(key: "test-key", baseURL: stub.url)

        // When direct mode syncs
        let report = try await setup.source(backfill: 10, dataAPI: dataAPI).sync { _ in }

        // Then the feed's videos are in without lengths and the failure is one line
        #expect(report.isComplete, "\(report)")
        #expect(report.newVideos == 3 && report.backfilledVideos == 0)
        #expect(report.notes.count == 1 && report.notes[0].hasPrefix("backfill and lengths: "), "\(report.notes)")
        #expect(!report.notes[0].contains("test-key"))
        #expect(setup.videos().count == 3 && setup.videos().allSatisfy { $0.duration == nil })

        // And once videos.list works again the next `metube sync` (a new source, reading the
        // state file) brings the backfill and every length, the feed's included
        failing.value = false
        let next = try await setup.source(backfill: 10, dataAPI: dataAPI).sync { _ in }
        #expect(next.notes.isEmpty, "\(next.notes)")
        #expect(next.newVideos == 0 && next.backfilledVideos == 7)
        #expect(setup.videos().count == 10 && setup.videos().allSatisfy { $0.duration != nil })
        #expect(setup.store.library().video(ids[0])?.duration == 100)
        #expect(Self.lengthCalls(stub).last.map(Set.init) == Set(ids.prefix(10)))
    }

    @Test func aChannelFollowedDuringAnOutageWhoseProbeCallFailsIsOwedItsBackfillAndLengths() async throws {
        // Given a source down as a whole (the feeds of 4 followed channels all fail), and then a
        // newly followed channel, first in line for the probe
        let others = (0..<4).map { "UCzoutage\($0)" + String(repeating: "A", count: 14) }
        let setup = try await DirectBackfillTests.Setup.start(following: others)
        defer { setup.stop() }
        let ids = DirectBackfillTests.ids("vid", 30)
        let spent = SharedValue(true)
        let stub = await YouTubeStub.start(override: YouTubeStub.uploading({ [Self.channel: Self.uploads(ids)] }, quotaSpent: { spent.value }))
        defer { stub.stop() }
        let dataAPI = YouTubeDataAPI(key: "test-key", baseURL: stub.url)
        let down = try await setup.source(backfill: 10, dataAPI: dataAPI).sync { _ in }
        #expect(down.outageBegan, "\(down)")
        try setup.store.apply(StoreChange(channels: [Channel(id: Self.channel)]))
        setup.server.setFeed(Array(ids.prefix(3)), for: Self.channel)

        // When the next sync's probe of that channel finds its feed but the Data API's quota spent
        let probed = try await setup.source(backfill: 10, dataAPI: dataAPI).sync { _ in }
        #expect(probed.newVideos == 3 && probed.backfilledVideos == 0, "\(probed)")
        #expect(probed.notes.count == 1 && probed.notes.first?.hasPrefix("backfill and lengths: ") == true, "\(probed.notes)")
        #expect(setup.videos().allSatisfy { $0.duration == nil })

        // Then once the quota is back the next sync brings the backfill and every length
        spent.value = false
        _ = try await setup.source(backfill: 10, dataAPI: dataAPI).sync { _ in }
        #expect(setup.videos().count == 10 && setup.videos().allSatisfy { $0.duration != nil })
        #expect(setup.store.library().video(ids[0])?.duration == 100)
    }

    @Test func lengthsOwedWithoutABackfillComeAtTheNextSync() async throws {
        // Given a channel synced once, whose next uploads arrive while the quota is spent
        let setup = try await DirectBackfillTests.Setup.start()
        defer { setup.stop() }
        let ids = DirectBackfillTests.ids("vid", 4)
        let spent = SharedValue(false)
        let stub = await YouTubeStub.start(override: YouTubeStub.uploading({ [Self.channel: Self.uploads(ids)] }, quotaSpent: { spent.value }))
        defer { stub.stop() }
        let source = setup.source(backfill: 0, dataAPI: YouTubeDataAPI(key: "test-key", baseURL: stub.url))
        setup.server.setFeed([ids[3]], for: Self.channel)
        _ = try await source.sync { _ in }
        spent.value = true
        setup.server.setFeed(ids.reversed(), for: Self.channel)
        let report = try await source.sync { _ in }
        #expect(report.newVideos == 3 && report.notes.count == 1, "\(report)")
        #expect(ids.prefix(3).allSatisfy { setup.store.library().video($0).map { $0.duration == nil } == true })

        // When the quota is back and the feed no longer lists them (as when it answers 304)
        spent.value = false
        setup.server.setFeed([ids[3]], for: Self.channel)
        let next = try await source.sync { _ in }

        // Then the owed lengths are asked once and filled
        #expect(next.newVideos == 0 && next.notes.isEmpty, "\(next)")
        #expect(ids.allSatisfy { setup.store.library().video($0)?.duration != nil })
        #expect(Self.lengthCalls(stub).last.map(Set.init) == Set(ids.prefix(3)))
        _ = try await source.sync { _ in }
        #expect(Self.lengthCalls(stub).count == 3)
    }
}
