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
    /// Starts `metube-server --demo` on a free loopback port, its output in `directory`, and
    /// answers the process and the address it prints, failing after 60 s.
    static func startDemoServer(in directory: TemporaryDirectory) async throws -> (Process, String) {
        let process = Process()
        process.executableURL = ProductBinary.url("metube-server")
        process.arguments = ["--demo", "--host", "127.0.0.1", "--port", "0", "--poll-interval", "0", "--db", directory.path("hub.sqlite")]
        let outputPath = directory.path("server.out")
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            if let line = printed.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }) {
                return (process, String(line.dropFirst("listening on ".count)))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw TmuxError.screenTimedOut(screen: "metube-server --demo did not say it listens")
    }

    @Test("the demo server's own thumbnails show as coloured cells in the pane; the cache fills within its bound")
    func demoPicturesShow() async throws {
        // Given the demo server and a store synced from it
        let directory = TemporaryDirectory("metube-demo-thumbnails")
        defer { directory.remove() }
        let (server, url) = try await Self.startDemoServer(in: directory)
        defer { server.terminate() }
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
        let deadline = ContinuousClock.now + TmuxSession.screenTimeout
        while ContinuousClock.now < deadline, DetailsPaneEndToEndTests.cachedBytes(in: cacheDirectory).files < 20 { try await Task.sleep(for: .milliseconds(50)) }
        let cached = DetailsPaneEndToEndTests.cachedBytes(in: cacheDirectory)
        #expect(cached.files >= 20)
        #expect(cached.bytes <= 1 << 20, "the cache holds \(cached.bytes) bytes, more than its 1 MiB bound")
        try tmux.send("q")
    }
}
