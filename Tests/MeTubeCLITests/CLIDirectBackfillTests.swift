import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `[hub] backfill` and `[youtube] api-key` / `api-key-file` through the real binary: bad values
/// name the setting and the line, the key is never shown, and `metube sync --direct` backfills a
/// newly followed channel from the stand-in yt-dlp or, with a key, the Data API stub, without
/// counting the backfill as new.
@Suite struct CLIDirectBackfillTests {
    let metube = ProductBinary.url("metube")
    static let channel = "UCclibackfillAAAAAAAAAAA"
    static let key = "AIzaSyTestKey_0123456789-abcdefghijkl"

    /// Runs metube with the config `config` (written to config.toml in `directory`).
    private func run(_ arguments: [String], config: String, in directory: TemporaryDirectory, environment: [String: String] = [:]) async throws -> ProcessOutcome {
        try config.write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        let isolated = ["XDG_CONFIG_HOME": directory.path("xdg-config"), "XDG_STATE_HOME": directory.path("state"), "METUBE_HUB_URL": "",
                        "METUBE_YOUTUBE_API_KEY": ""].merging(environment) { $1 }
        return try await runProcessOffPool(metube, arguments + ["--data-dir", directory.path("data"), "--config", directory.path("config.toml")], environment: isolated)
    }

    @Test(arguments: [
        ("[hub]\nbackfill = 501\n", "config.toml:2: [hub] backfill: must be a whole number from 0 to 500, not 501"),
        ("[hub]\nbackfill = -1\n", "config.toml:2: [hub] backfill: must be a whole number from 0 to 500, not -1"),
        ("[youtube]\napi-key = \"AIza key with spaces\"\n", "config.toml:2: [youtube] api-key: must be a YouTube Data API key (1 to 256 of A-Z, a-z, 0-9, - and _), not the value given (not shown)"),
        ("[youtube]\napi-key-file = \"relative/key\"\n", "config.toml:2: [youtube] api-key-file: must be an absolute path"),
        ("[youtube]\n\napi-key-file = \"/nonexistent/metube-key\"\n", "config.toml:3: [youtube] api-key-file: cannot read /nonexistent/metube-key"),
        ("[youtube]\napi-key = \"AIzaOne\"\napi-key-file = \"/nonexistent/metube-key\"\n", "config.toml:3: [youtube] api-key-file: set api-key or api-key-file, not both"),
    ])
    func aBadBackfillOrKeyNamesTheSettingAndTheLine(config: String, message: String) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for command in [["config", "check"], ["sync", "--direct"]] {
            let outcome = try await run(command, config: config, in: directory)
            #expect(outcome.status == 65, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("spaces"))
        }
    }

    @Test func aKeyFileThatHoldsNoKeyIsRefusedAndAGoodOneIsNeverShown() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = directory.path("youtube-api-key")
        try "not a key at all\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        let config = "[youtube]\napi-key-file = \"\(keyFile)\"\n"
        let bad = try await run(["config", "check"], config: config, in: directory)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("config.toml:2: [youtube] api-key-file: \(keyFile) must hold a YouTube Data API key"), "\(bad.stderr)")

        try "\n  \(Self.key)  \n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        let show = try await run(["config", "show"], config: config, in: directory)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("# api-key is set (not shown)  # file"), "\(show.stdout)")
        #expect(show.stdout.contains("backfill = 50  # default"))
        #expect(!show.stdout.contains(Self.key))
        let environment = try await run(["config", "show"], config: "", in: directory, environment: ["METUBE_YOUTUBE_API_KEY": Self.key])
        #expect(environment.stdout.contains("# api-key is set (not shown)  # environment"))
        #expect(!environment.stdout.contains(Self.key))
    }

    /// A store following ``channel``, whose feed lists its last 3 of 30 uploads.
    private func follow(in directory: TemporaryDirectory, server: ScriptedFeedServer, standIn: YTDLPStandIn) throws -> [String] {
        let ids = (0..<30).map { "cli" + String(format: "%08d", $0) }
        server.setFeed(Array(ids.prefix(3)), for: Self.channel)
        try standIn.setUploads(ids.enumerated().map { .init(id: $1, title: "Upload \($1)", duration: Double(60 + $0)) }, for: Self.channel)
        try Store.open(at: URL(fileURLWithPath: directory.path("data"))).apply(StoreChange(channels: [Channel(id: Self.channel)]))
        return ids
    }

    @Test func aDirectSyncBackfillsThroughYTDLPAndDoesNotCountItNew() async throws {
        // Given a newly followed channel, [hub] backfill = 10 and the stand-in yt-dlp
        let directory = TemporaryDirectory()
        let server = await ScriptedFeedServer.start()
        let standIn = try YTDLPStandIn()
        defer { directory.remove(); server.stop(); standIn.remove() }
        let ids = try follow(in: directory, server: server, standIn: standIn)
        let config = "[hub]\nfeed-url-template = \"\(server.feedURLTemplate)\"\nbackfill = 10\n[download]\ncommand = \"\(standIn.executable.path)\"\n"

        // When metube sync --direct runs
        let sync = try await run(["sync", "--direct"], config: config, in: directory)

        // Then it reports the 3 feed videos as new and the 7 backfilled apart, all with lengths
        #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
        #expect(sync.stdout.contains("youtube sync: 3 new videos (7 backfilled, "), "\(sync.stdout)")
        let library = try Store.open(at: URL(fileURLWithPath: directory.path("data"))).library()
        #expect(Set(library.videos.map(\.id)) == Set(ids.prefix(10)))
        #expect(library.videos.allSatisfy { $0.duration != nil })

        // And a sync with nothing new asks yt-dlp nothing and says nothing of backfill
        let again = try await run(["sync", "--direct", "--json"], config: config, in: directory)
        let json = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(json?["newVideos"] as? Int == 0 && json?["backfilledVideos"] as? Int == 0, "\(again.stdout)")
        #expect(standIn.calls().count == 1)
    }

    @Test func aDirectSyncWithAKeyFileBackfillsThroughTheDataAPI() async throws {
        let directory = TemporaryDirectory()
        let server = await ScriptedFeedServer.start()
        let standIn = try YTDLPStandIn()
        let ids = (0..<30).map { "cli" + String(format: "%08d", $0) }
        let stub = await YouTubeStub.start(override: YouTubeStub.uploading { [Self.channel: ids.map { YouTubeStub.Upload(id: $0) }] })
        defer { directory.remove(); server.stop(); standIn.remove(); stub.stop() }
        _ = try follow(in: directory, server: server, standIn: standIn)
        let keyFile = directory.path("youtube-api-key")
        try "\(Self.key)\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        let config = """
            [hub]
            feed-url-template = "\(server.feedURLTemplate)"
            backfill = 10
            [download]
            command = "\(standIn.executable.path)"
            [youtube]
            api-url = "\(stub.url)"
            api-key-file = "\(keyFile)"

            """

        let sync = try await run(["sync", "--direct", "--json"], config: config, in: directory)

        let json = try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)) as? [String: Any]
        #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
        #expect(json?["newVideos"] as? Int == 3 && json?["backfilledVideos"] as? Int == 7, "\(sync.stdout)")
        let calls = stub.requests.filter { $0.path == "/playlistItems" }
        #expect(calls.count == 1 && calls.first?.query["key"] == Self.key && calls.first?.query["playlistId"] == "UU" + Self.channel.dropFirst(2))
        #expect(standIn.calls().isEmpty)
        #expect(!sync.stdout.contains(Self.key) && !sync.stderr.contains(Self.key))
    }
}
