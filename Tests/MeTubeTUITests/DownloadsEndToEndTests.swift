import Foundation
import MeTubeCore
import MeTubeDownloads
import MeTubeStore
import TestSupport
import Testing

/// Background downloads in the real `metube` binary in tmux, with the real yt-dlp against a
/// loopback server of an ffmpeg-made video, and the real mpv playing the copy.
@Suite("TUI downloads end to end in tmux")
struct DownloadsEndToEndTests {
    @Test("a queued video is downloaded in the background by default, its row shows ⤓, D shows it downloaded, and Enter plays the file")
    func backgroundDownloadAndOfflinePlay() async throws {
        let directory = TemporaryDirectory("mt-dl")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 2, videoCount: 20, markCount: 0)
        let storeURL = try EndToEndTests.makeStore(library, in: directory)
        let video = library.video(0)
        try Store.open(at: storeURL).transaction { _ = $0.addToQueue(video.id) }
        let server = await MediaServer.start(serving: [video.id])
        defer { server.stop() }
        try """
            [download]
            dir = "\(directory.path("videos"))"
            format = "b"
            url-template = "\(server.urlTemplate)"
            [tui]
            player = "mpv"
            open = "mpv --no-config --vo=null --ao=null --ytdl=no --speed=10 {url}"
            """.write(to: directory.url.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let tmux = try EndToEndTests.start(storeURL, in: directory, extraEnvironment: ["XDG_RUNTIME_DIR": directory.url.path])
        defer { tmux.close() }
        let title = String(video.title.prefix(12))
        // When the TUI runs with the video queued: its row gets the copy's glyph
        let screen = try await tmux.waitFor(timeout: .seconds(120)) { screen in
            let row = EndToEndTests.line(1, of: screen)
            return row.contains(title) && row.dropFirst().hasPrefix("⤓")
        }
        #expect(DownloadDirectory(url: directory.url.appendingPathComponent("videos")).copy(of: video.id) != nil, "\(screen)")
        // And D shows it downloaded, with its size, in the downloads view
        try tmux.send("D")
        try await tmux.waitFor { $0.contains("downloads (1 video)") && EndToEndTests.line(1, of: $0).contains("downloaded ") }
        // When the server is gone and Enter plays it there: mpv plays the file (it could not play the page)
        server.stop()
        try tmux.send("Enter")
        try await tmux.waitFor { $0.contains("marked watched") }
        try tmux.send("q")
        #expect(try await tmux.waitForExit() == 0)
        #expect(try Store.open(at: storeURL).library().marks[video.id]?.status == .watched)
    }
}
