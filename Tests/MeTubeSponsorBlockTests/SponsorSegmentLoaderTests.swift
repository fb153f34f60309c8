import Foundation
import MeTubeCore
import MeTubeSponsorBlock
import MeTubeStore
import Synchronization
import Testing
import TestSupport

/// The loader keeps what SponsorBlock answered and hands it over again with the server gone.
@Suite struct SponsorSegmentLoaderTests {
    private let videoID = "dQw4w9WgXcQ"
    private let both = ["sponsor", "selfpromo"]

    @Test func theLoaderKeepsFetchedSegmentsAndUsesThemOffline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        let video = Video(id: videoID, channelID: "UC", title: "t", published: Date(timeIntervalSince1970: 0), duration: 600)
        let stub = await SponsorBlockStub.start(videos: [videoID: [.init(32, 75)]])
        let settings = SponsorBlockSettings(enabled: true, categories: both, api: stub.url)
        let online = try #require(SponsorSegmentLoader(settings: settings, store: store))
        let (delivered, continuation) = AsyncStream<[SponsorSegment]>.makeStream()
        online.load(video, into: { continuation.yield($0) }, failed: { Issue.record("\($0)") })
        var iterator = delivered.makeAsyncIterator()
        #expect(await iterator.next() == [SponsorSegment(start: 32, end: 75, category: "sponsor")])
        #expect(try store.sponsorSegments(of: videoID)?.segments.count == 1)
        stub.stop()
        // offline: the kept segments are handed over at once, and nothing is asked
        let offline = try #require(SponsorSegmentLoader(settings: settings, store: try Store.open(at: store.directory)))
        let kept = Mutex<[SponsorSegment]?>(nil)
        offline.load(video, into: { segments in kept.withLock { $0 = segments } }, failed: { Issue.record("\($0)") })
        #expect(kept.withLock { $0 } == [SponsorSegment(start: 32, end: 75, category: "sponsor")])
        #expect(stub.requests.count == 1)
        #expect(SponsorSegmentLoader(settings: SponsorBlockSettings(enabled: false, categories: both, api: stub.url), store: store) == nil)
    }
}
