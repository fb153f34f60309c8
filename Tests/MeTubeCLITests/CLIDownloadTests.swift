import Foundation
import MeTubeCore
import MeTubeDownloads
import MeTubeStore
import TestSupport
import Testing

/// `metube download [status|run|remove]` and `metube play` of a copy, with the real yt-dlp and
/// mpv against a loopback server of an ffmpeg-made video.
@Suite struct CLIDownloadTests {
    let metube = ProductBinary.url("metube")

    @Test func runDownloadsTheQueueStatusExplainsFailuresAndPlayUsesTheCopy() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (served, missing) = ("dlServed001", "dlMissing01")
        let server = await MediaServer.start(serving: [served])
        defer { server.stop() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        let videos = [served, missing].map { Video(id: $0, channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "title \($0)", published: Date(timeIntervalSince1970: 0), duration: 5) }
        try store.apply(StoreChange(videos: videos))
        try store.transaction { transaction in for id in [served, missing] { _ = transaction.addToQueue(id) } }
        let (videosDirectory, config) = try Self.downloadConfig(in: directory, server: server, adding: """
            [tui]
            player = "mpv"
            open = "mpv --no-config --vo=null --ao=null --ytdl=no --speed=10 {url}"
            """)
        let options = ["--data-dir", store.directory.path, "--config", config.path]

        // When the queue is downloaded: one video is served, the other is not found
        let run = try await runProcessOffPool(metube, ["download", "run"] + options)
        // Then one has its copy and the other says why it has none; the run exits 2
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\(served)  100%") && run.stdout.contains("\(served)  downloaded"), "\(run.stdout)")
        #expect(run.stdout.contains("\(missing)  failed (attempt 1): the video is unavailable"), "\(run.stdout)")
        let status = try await runProcessOffPool(metube, ["download", "--json"] + options)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let rows = try #require(report["videos"] as? [[String: Any]])
        #expect(rows.map { $0["state"] as? String } == ["downloaded", "failed"])
        #expect(rows.first?["bytes"] as? Int == MediaServer.sampleVideo.count)
        let error = try #require(rows.last?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "unavailable")
        #expect((error["lines"] as? [String])?.contains { $0.contains("HTTP Error 404") } == true)
        let text = try await runProcessOffPool(metube, ["download"] + options)
        #expect(text.stdout.contains("\(served)  ⤓") && text.stdout.contains("    ERROR:"), "\(text.stdout)")

        // When the server is gone and the copy is played
        server.stop()
        let play = try await runProcessOffPool(metube, ["play", served] + options, environment: ["XDG_RUNTIME_DIR": directory.url.path])
        // Then mpv plays the file, tracked as a stream would be
        #expect(play.status == 0, "\(play.stderr)")
        #expect(play.stdout.contains("\(served): playing the copy on disk"))
        #expect(play.stdout.contains("marked watched"), "\(play.stdout)")

        // And removing copies says which had one
        #expect(try await runProcessOffPool(metube, ["download", "remove", served] + options).status == 0)
        #expect(DownloadDirectory(url: videosDirectory).copies().isEmpty)
        let again = try await runProcessOffPool(metube, ["download", "remove", served] + options)
        #expect(again.status == 4 && again.stdout.contains("had no copy"))
    }

    @Test func aWatchedVideoQueuedAgainKeepsItsCopy() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let id = "dlRequeued1"
        let server = await MediaServer.start(serving: [id])
        defer { server.stop() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        let video = Video(id: id, channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "title", published: Date(timeIntervalSince1970: 0), duration: 5)
        // Given a video watched long ago on another device, then queued again here
        let watched = Mark(videoID: id, status: .watched, hlc: HybridTimestamp(millis: 1_000_000_000_000), deviceID: "other-device")
        try store.apply(StoreChange(marks: [watched], videos: [video]))
        try store.transaction { transaction in _ = transaction.addToQueue(id) }
        let (videosDirectory, config) = try Self.downloadConfig(in: directory, server: server, adding: "keep-watched = 0")
        let options = ["--data-dir", store.directory.path, "--config", config.path]

        // When the queue is downloaded twice
        let first = try await runProcessOffPool(metube, ["download", "run"] + options)
        let second = try await runProcessOffPool(metube, ["download", "run"] + options)

        // Then the copy is downloaded once and never removed as watched: the video is queued
        #expect(first.status == 0 && first.stdout.contains("\(id)  downloaded"), "\(first.stdout)\(first.stderr)")
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(!second.stdout.contains("removed") && !second.stdout.contains("\(id)  downloaded"), "\(second.stdout)")
        #expect(DownloadDirectory(url: videosDirectory).copies()[id] != nil)
    }

    /// A config file in `directory` downloading from `server` into its `videos` folder, with
    /// `extra` lines after the `[download]` ones; the folder and the file.
    private static func downloadConfig(in directory: TemporaryDirectory, server: MediaServer, adding extra: String) throws -> (videos: URL, config: URL) {
        let videos = directory.url.appendingPathComponent("videos")
        let config = directory.url.appendingPathComponent("config.toml")
        try """
            [download]
            dir = "\(videos.path)"
            format = "b"
            url-template = "\(server.urlTemplate)"
            \(extra)
            """.write(to: config, atomically: true, encoding: .utf8)
        return (videos, config)
    }
}
