import Foundation
import Hummingbird
import MeTubeAPI
import MeTubeCore
import MeTubeStore
import NIOCore
import Testing
import TestSupport
@testable import MeTubeSync

/// What sources bring into the hub is screened before it is stored (issue 37.5): no C0 or C1
/// control, DEL or bidi control in titles, descriptions and channel names, and only http(s)
/// thumbnail addresses. Each class of character and each refused scheme goes through a real
/// `metube-server` on SQLite and on PostgreSQL, from an Atom feed it polls and a yt-dlp backfill of
/// the same channel, and is read back raw from the hub API and by a second store syncing from it.
@Suite struct IngestScreeningTests {
    static let channelID = "UCscreeningscreening0001"
    /// The feed's entry that carries the hostile input, the feed's clean entry, and the older
    /// upload only the yt-dlp backfill brings.
    static let hostileID = "screenHost1", cleanID = "screenClean", backfilledID = "screenBack1"
    static let cleanThumbnail = "http://thumbnails.example.org/clean.jpg"

    /// One class of hostile input: what the sources send, and what the hub must keep.
    struct Hostile: Sendable, CustomTestStringConvertible {
        var name: String
        var title: String, keptTitle: String
        var text: String, keptText: String
        var channelName: String, keptChannelName: String
        var uploadTitle: String, keptUploadTitle: String
        var thumbnailURL = "https://i.ytimg.com/vi/\(IngestScreeningTests.hostileID)/hqdefault.jpg"
        var keepsThumbnail = true
        var testDescription: String { name }

        /// Plain text with a thumbnail address of a refused scheme.
        static func scheme(_ name: String, _ url: String) -> Hostile {
            Hostile(name: name, title: "Plain title", keptTitle: "Plain title", text: "Plain\ntext", keptText: "Plain\ntext",
                    channelName: "Plain channel", keptChannelName: "Plain channel", uploadTitle: "Plain upload", keptUploadTitle: "Plain upload",
                    thumbnailURL: url, keepsThumbnail: false)
        }
    }

    /// The classes: C0 (an Atom feed can carry only tab, LF and CR; yt-dlp's JSON carries ESC,
    /// BEL, NUL and BS), C1, DEL, bidi controls, and the schemes `javascript:`, `data:` and `file:`.
    static let cases: [Hostile] = [
        Hostile(name: "C0", title: "Tab\there\nand\rthere", keptTitle: "Tab here and there",
                text: "one\r\ntwo\rthree\n\tfour\u{2028}five", keptText: "one\ntwo\nthree\n\tfour\nfive",
                channelName: "Chan\tnel\nname", keptChannelName: "Chan nel name",
                uploadTitle: "Clear\u{1B}[2J screen\u{7}\u{0}\u{8}!", keptUploadTitle: "Clear[2J screen!"),
        Hostile(name: "C1", title: "Next\u{85}line \u{9B}31mred", keptTitle: "Nextline 31mred", text: "a\u{90}b\nc\u{9F}d", keptText: "ab\ncd",
                channelName: "C1\u{9D} channel", keptChannelName: "C1 channel", uploadTitle: "Up\u{85}lo\u{9B}ad", keptUploadTitle: "Upload"),
        Hostile(name: "DEL", title: "De\u{7F}lete", keptTitle: "Delete", text: "x\u{7F}y", keptText: "xy",
                channelName: "Chan\u{7F}nel", keptChannelName: "Channel", uploadTitle: "Up\u{7F}load", keptUploadTitle: "Upload"),
        Hostile(name: "bidi", title: "\u{202E}txt.exe\u{202C} \u{2066}iso\u{2069}\u{200F}\u{200E}\u{061C}!", keptTitle: "txt.exe iso!",
                text: "\u{202B}rtl\u{202C}\n\u{2067}x\u{2069}\u{202A}", keptText: "rtl\nx",
                channelName: "\u{202D}Chan\u{202C}nel", keptChannelName: "Channel", uploadTitle: "\u{2068}Up\u{2069}load\u{202E}", keptUploadTitle: "Upload"),
        .scheme("javascript:", "javascript:alert(document.cookie)"),
        .scheme("data:", "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"),
        .scheme("file:", "file:///etc/passwd"),
    ]

    @Test(.timeLimit(.minutes(2)), arguments: MarkSyncServerProcess.Backend.allCases, cases)
    func aSourcesControlsAndRefusedThumbnailsAreNeitherStoredNorServed(backend: MarkSyncServerProcess.Backend, hostile: Hostile) async throws {
        // Given a feed and a yt-dlp catalog carrying the hostile input, and a real metube-server
        // polling the one and backfilling from the other
        let directory = TemporaryDirectory("metube-screening")
        defer { directory.remove() }
        let (feeds, feedsURL) = await BackgroundService.serve(Self.feedRouter(hostile), label: "screening-feeds")
        defer { feeds.stop() }
        let ytDLP = try YTDLPStandIn()
        defer { ytDLP.remove() }
        try ytDLP.setUploads([
            .init(id: Self.hostileID, title: hostile.title, duration: 600), .init(id: Self.cleanID, title: "Clean", duration: 600),
            .init(id: Self.backfilledID, title: hostile.uploadTitle, duration: 600),
        ], for: Self.channelID)
        let server = try await MarkSyncServerProcess(backend, in: directory, arguments: [
            "--poll-interval", "3600", "--feed-url-template", feedsURL + "/feeds/{channelId}", "--yt-dlp", ytDLP.executable.path, "--backfill", "10",
        ])

        // When a first store registers the channel, the hub has fetched the feed and backfilled
        // the older upload, and a second store syncs from it
        let firstDirectory = TemporaryDirectory("metube-screening-first"), secondDirectory = TemporaryDirectory("metube-screening-second")
        defer { firstDirectory.remove(); secondDirectory.remove() }
        let first = try HubSyncTestSupport.store(in: firstDirectory, following: [Channel(id: Self.channelID)])
        #expect(await SyncEngine(store: first, configuration: HubSyncTestSupport.configuration(server.baseURL)).sync().error == nil)
        let hub = HubClient(baseURL: server.baseURL)
        let rows = try await Self.rowsOnceBackfilled(hub)
        let second = try HubSyncTestSupport.store(in: secondDirectory, following: [Channel(id: Self.channelID)])
        let report = await SyncEngine(store: second, configuration: HubSyncTestSupport.configuration(server.baseURL)).sync()
        #expect(report.error == nil)

        // Then the hub serves the kept text and no refused address, and the second store reads back the same
        let served = Dictionary(uniqueKeysWithValues: rows.map { ($0.videoID, $0) })
        #expect(served[Self.hostileID]?.title == hostile.keptTitle)
        #expect(served[Self.hostileID]?.description == hostile.keptText)
        #expect(served[Self.hostileID]?.thumbnailURL == (hostile.keepsThumbnail ? hostile.thumbnailURL : nil))
        #expect(served[Self.cleanID]?.thumbnailURL == Self.cleanThumbnail)
        #expect(served[Self.backfilledID]?.title == hostile.keptUploadTitle)
        let channels = try await hub.channels().channels
        #expect(channels.first { $0.channelID == Self.channelID }?.title == hostile.keptChannelName)
        let reopened = try Store.open(at: second.directory)
        let library = reopened.library()
        #expect(library.video(Self.hostileID)?.title == hostile.keptTitle)
        #expect(try reopened.description(of: Self.hostileID) == hostile.keptText)
        #expect(library.video(Self.hostileID)?.thumbnailURL == (hostile.keepsThumbnail ? hostile.thumbnailURL : nil))
        #expect(library.video(Self.cleanID)?.thumbnailURL == Self.cleanThumbnail)
        #expect(library.video(Self.backfilledID)?.title == hostile.keptUploadTitle)
        #expect(library.channels[Self.channelID]?.title == hostile.keptChannelName)
    }

    /// The hub's rows of the channel once the backfilled upload and the feed's description are
    /// there (the catalog and the poller run on their own), asked again until then, for 30 s at most.
    private static func rowsOnceBackfilled(_ hub: HubClient) async throws -> [HubVideo] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let rows = try await hub.videos(HubVideoQuery(channelIDs: [channelID], afterSeq: 0, limit: 100)).videos
            let latest = Dictionary(rows.map { ($0.videoID, $0) }, uniquingKeysWith: { $0.seq > $1.seq ? $0 : $1 })
            if latest[backfilledID] != nil, latest[hostileID]?.description != nil { return Array(latest.values) }
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The channel's feed: the hostile entry and a clean one, a day apart; 404 for any other address.
    static func feedRouter(_ hostile: Hostile) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/feeds/:channel") { _, context -> Response in
            guard context.parameters.get("channel") == channelID else { return Response(status: .notFound) }
            return Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: ByteBuffer(string: feed(hostile))))
        }
        return router
    }

    private static func feed(_ hostile: Hostile) -> String {
        func entry(_ id: String, _ title: String, _ text: String, _ thumbnail: String, published: String) -> String {
            """
             <entry>
              <id>yt:video:\(id)</id>
              <yt:videoId>\(id)</yt:videoId>
              <yt:channelId>\(channelID)</yt:channelId>
              <title>\(xml(title))</title>
              <link rel="alternate" href="https://www.youtube.com/watch?v=\(id)"/>
              <published>\(published)</published>
              <updated>\(published)</updated>
              <media:group>
               <media:title>\(xml(title))</media:title>
               <media:thumbnail url="\(xml(thumbnail))" width="480" height="360"/>
               <media:description>\(xml(text))</media:description>
               <media:community><media:statistics views="10"/></media:community>
              </media:group>
             </entry>

            """
        }
        return MinimalAtomFeed.channel(channelID, title: xml(hostile.channelName), entries: [
            entry(hostileID, hostile.title, hostile.text, hostile.thumbnailURL, published: "2026-11-02T12:00:00+00:00"),
            entry(cleanID, "Clean", "Clean text", cleanThumbnail, published: "2026-11-01T12:00:00+00:00"),
        ])
    }

    /// `text` for XML: markup characters, and every character outside printable ASCII as a
    /// character reference (so a CR is not read as a line end, and C1 and bidi characters arrive as sent).
    private static func xml(_ text: String) -> String {
        text.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case "\"": "&quot;"
            case " "..."~": String(scalar)
            default: "&#x\(String(scalar.value, radix: 16));"
            }
        }.joined()
    }
}
