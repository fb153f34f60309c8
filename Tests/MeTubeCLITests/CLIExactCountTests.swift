import Foundation
import Hummingbird
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
import NIOCore
import Testing
import TestSupport

/// View and rating counts reach `metube list --json` and `metube show --json` exactly, or not at
/// all, over the whole path (issue 37.3): an Atom feed read by a real `metube-server`, its SQLite
/// row, the hub's `videos/query` page, a real `metube sync` into the store's journal, and the
/// store's snapshots after `metube compact`.
@Suite struct CLIExactCountTests {
    let metube = ProductBinary.url("metube")
    static let channelID = "UCexactcountsexactcount1"

    /// Each entry's `views` and rating `count` attributes as the feed writes them, and the counts
    /// the CLI must print for them (nil: no count, printed as no field).
    static let entries: [(text: String, count: Int?)] = inRange.map { (String($0), $0) } + [("9007199254740992", nil), ("18446744073709551616", nil), ("-1", nil)]
    /// Counts at the edges of 24, 32, 50 and 53 bits, and the figures.
    static let inRange: [Int] = [
        0, 1, 16_777_215, 16_777_216, 16_777_217, 4_294_967_295, 4_294_967_297, 562_949_953_421_312, 1_125_899_906_842_624,
        9_007_199_254_740_991, 123_456_789, 99_999_999_999,
    ]

    static func videoID(_ index: Int) -> String { "exact" + String(format: "%06d", index) }

    @Test(.timeLimit(.minutes(2))) func countsReachListAndShowExactlyThroughTheHubTheJournalAndTheSnapshots() async throws {
        // Given a feed whose entries carry counts at the edges of 24, 32, 50 and 53 bits (views
        // and ratings in reverse order, so each entry has two different ones), a real metube-server
        // polling it, and a store following the channel
        let directory = TemporaryDirectory("metube-exact-counts")
        defer { directory.remove() }
        let (feeds, feedsURL) = await BackgroundService.serve(Self.feedRouter(), label: "exact-count-feeds")
        defer { feeds.stop() }
        let server = try await ServerProcess.launch([
            "serve", "--port", "0", "--register-limit", "0", "--database", directory.path("hub.sqlite"),
            "--poll-interval", "3600", "--feed-url-template", feedsURL + "/feeds/{channelId}", "--backfill", "0",
        ], within: .seconds(30))
        defer { server.stop() }
        try Store.open(at: directory.url).apply(StoreChange(channels: [Channel(id: Self.channelID)]))
        let environment = ["XDG_CONFIG_HOME": directory.path("config"), "XDG_STATE_HOME": directory.path("state")]
        let common = ["--data-dir", directory.url.path, "--config", directory.path("none.toml")]

        // When it syncs from the hub
        let sync = try await runProcessOffPool(metube, ["sync", "--hub-url", server.baseURL] + common, environment: environment)
        #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")

        // Then list and show print every count exactly, read from the journal, and again after a compaction
        try expectExactCounts(common, environment, when: "read from the journal")
        let compact = try runProcess(metube, ["compact"] + common, environment: environment)
        #expect(compact.status == 0, "\(compact.stderr)")
        try expectExactCounts(common, environment, when: "read from the snapshots")
    }

    private func expectExactCounts(_ common: [String], _ environment: [String: String], when: String) throws {
        let list = try runProcess(metube, ["list", "--json", "--filter", "all"] + common, environment: environment)
        #expect(list.status == 0, "\(list.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
        let videos = Dictionary(uniqueKeysWithValues: ((listed["videos"] as? [[String: Any]]) ?? []).map { ($0["videoId"] as? String ?? "", $0) })
        #expect(videos.count == Self.entries.count, "\(when)")
        for (index, entry) in Self.entries.enumerated() {
            let ratings = Self.entries[Self.entries.count - 1 - index].count
            let id = Self.videoID(index)
            #expect(Self.count(videos[id]?["views"]) == entry.count, "list views of \(entry.text), \(when)")
            #expect(Self.count(videos[id]?["starRatings"]) == ratings, "list ratings of \(id), \(when)")
            let show = try runProcess(metube, ["show", id, "--json"] + common, environment: environment)
            #expect(show.status == 0, "\(show.stderr)")
            let shown = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
            #expect(Self.count(shown?["views"]) == entry.count, "show views of \(entry.text), \(when)")
            #expect(Self.count(shown?["starRatings"]) == ratings, "show ratings of \(id), \(when)")
            #expect(show.stdout.contains("\"views\"") == (entry.count != nil) && !show.stdout.contains("\"views\" : null"))
        }
    }

    /// A JSON number as printed, read exactly (as its digits, never through a double).
    private static func count(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        return Int(number.stringValue)
    }

    /// The channel's feed (entries a day apart, oldest last); 404 for any other address.
    static func feedRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/feeds/:channel") { request, context -> Response in
            guard context.parameters.get("channel") == Self.channelID else { return Response(status: .notFound) }
            return Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: ByteBuffer(string: feed())))
        }
        return router
    }

    private static func feed() -> String {
        let items = entries.enumerated().map { index, entry in
            let id = videoID(index)
            let published = ISO8601Timestamp.format(Date(timeIntervalSince1970: 1_600_000_000 - Double(index) * 86_400))
            return """
                 <entry>
                  <id>yt:video:\(id)</id>
                  <yt:videoId>\(id)</yt:videoId>
                  <yt:channelId>\(channelID)</yt:channelId>
                  <title>Count \(entry.text)</title>
                  <link rel="alternate" href="https://www.youtube.com/watch?v=\(id)"/>
                  <published>\(published)</published>
                  <updated>\(published)</updated>
                  <media:group>
                   <media:title>Count \(entry.text)</media:title>
                   <media:community>
                    <media:starRating count="\(entries[entries.count - 1 - index].text)" average="5.00" min="1" max="5"/>
                    <media:statistics views="\(entry.text)"/>
                   </media:community>
                  </media:group>
                 </entry>

                """
        }
        return MinimalAtomFeed.channel(channelID, title: "Exact counts", entries: items)
    }
}
