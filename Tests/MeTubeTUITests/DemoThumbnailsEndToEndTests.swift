import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import Testing
import TestSupport

/// `make run`'s setup without the internet: the real `metube-server --demo` serves its own
/// generated JPEG thumbnails, a store synced from it points at them, and the real `metube` in
/// tmux draws them as coloured block cells in the details pane, caching them within its bound.
@Suite("Demo thumbnails end to end in tmux", .serialized)
struct DemoThumbnailsEndToEndTests {
    @Test("the demo server's own thumbnails show as coloured cells in the pane; the cache fills within its bound")
    func demoPicturesShow() async throws {
        // Given the demo server and a store synced from it
        let directory = TemporaryDirectory("metube-demo-thumbnails")
        defer { directory.remove() }
        let server = try await ServerProcess.launch(["--demo", "--host", "127.0.0.1", "--port", "0", "--poll-interval", "0", "--db", directory.path("hub.sqlite")])
        defer { server.stop() }
        let url = server.baseURL
        let storeURL = directory.url.appendingPathComponent("data", isDirectory: true)
        let store = try Store.open(at: storeURL)
        let report = await SyncEngine(
            store: store, configuration: SyncConfiguration(source: .hub, hubURL: url, pageSize: 500, followHubChannels: true)
        ).sync()
        #expect(report.error == nil)
        let newest = try #require(store.library().videos.first)
        #expect(newest.thumbnailURL == "\(url)/demo/thumbnails/\(newest.id).jpg")
        #expect(newest.views != nil)

        // When the TUI opens on it and the pane is opened
        try "[tui]\nthumbnail-cache = 1\n".write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        let tmux = try EndToEndTests.start(storeURL, in: directory, width: 130, height: 30, extraEnvironment: ["XDG_CACHE_HOME": directory.path("cache")])
        defer { tmux.close() }
        try await tmux.waitFor { $0.contains("metube ·") }
        try tmux.send("Tab")

        // Then the picture is drawn in colour, and the cache fills as pages go by, within its 1 MiB
        try await tmux.waitFor(escapes: true, DetailsPaneEndToEndTests.hasColouredCells)
        let cacheDirectory = directory.url.appendingPathComponent("cache/metube/thumbnails")
        for _ in 0..<3 { try tmux.send("NPage") }
        let cached = try await eventually(within: TmuxSession.screenTimeout, "fewer than 20 thumbnails were cached") {
            let cached = DetailsPaneEndToEndTests.cachedBytes(in: cacheDirectory)
            return cached.files >= 20 ? cached : nil
        }
        #expect(cached.bytes <= 1 << 20, "the cache holds \(cached.bytes) bytes, more than its 1 MiB bound")
        try tmux.send("q")
    }
}
