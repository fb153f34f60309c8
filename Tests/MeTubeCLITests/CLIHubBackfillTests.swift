import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube sync` against a real `metube-server` whose catalog backfills a newly followed channel
/// through the stand-in yt-dlp: the backfilled videos arrive, but "N new" counts only the feed's.
@Suite struct CLIHubBackfillTests {
    let metube = ProductBinary.url("metube")
    static let channel = "UCclihubbackfillAAAAAAAA"

    @Test(.timeLimit(.minutes(2))) func aHubBackfillArrivesButIsNotCountedNew() async throws {
        // Given a metube-server with --backfill 10 whose feed of the channel lists 3 of its 30
        // uploads, and a store following the channel
        let directory = TemporaryDirectory("metube-cli-hub-backfill")
        let feeds = await ScriptedFeedServer.start()
        let standIn = try YTDLPStandIn()
        defer { directory.remove(); feeds.stop(); standIn.remove() }
        let ids = (0..<30).map { "hcl" + String(format: "%08d", $0) }
        feeds.setFeed(Array(ids.prefix(3)), for: Self.channel)
        try standIn.setUploads(ids.enumerated().map { .init(id: $1, title: "Upload \($1)", duration: Double(90 + $0)) }, for: Self.channel)
        let server = try await ServerProcess.launch([
            "serve", "--port", "0", "--register-limit", "0", "--database", directory.path("hub.sqlite"),
            "--poll-interval", "3600", "--feed-url-template", feeds.feedURLTemplate, "--feed-rate", "0", "--yt-dlp", standIn.executable.path, "--backfill", "10",
        ], within: .seconds(30))
        defer { server.stop() }
        try Store.open(at: URL(fileURLWithPath: directory.path("data"))).apply(StoreChange(channels: [Channel(id: Self.channel)]))
        let arguments = ["sync", "--hub-url", server.baseURL, "--json", "--data-dir", directory.path("data"), "--config", directory.path("none.toml")]
        let environment = ["XDG_CONFIG_HOME": directory.path("config"), "XDG_STATE_HOME": directory.path("state")]

        // When metube sync runs until the client holds the channel's last 10 uploads (the hub
        // fetches the feed, then backfills; no event tells the client, so it syncs again)
        var (new, backfilled, runs) = (0, 0, 0)
        let start = ContinuousClock.now
        while try Store.open(at: URL(fileURLWithPath: directory.path("data"))).library().videos.count < 10, ContinuousClock.now - start < .seconds(60) {
            if runs > 0 { try await Task.sleep(for: .milliseconds(200)) }
            let sync = try await runProcessOffPool(metube, arguments, environment: environment)
            runs += 1
            let json = try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)) as? [String: Any]
            new += json?["newVideos"] as? Int ?? 0
            backfilled += json?["backfilledVideos"] as? Int ?? 0
        }

        // Then it holds them, every one with its length, and only the feed's 3 were counted new
        let library = try Store.open(at: URL(fileURLWithPath: directory.path("data"))).library()
        #expect(Set(library.videos.map(\.id)) == Set(ids.prefix(10)), "after \(runs) syncs")
        #expect(library.videos.allSatisfy { $0.duration != nil })
        #expect(new == 3)
        #expect(backfilled == 7)
    }
}
