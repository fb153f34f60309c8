import Foundation
import Hummingbird
import MeTubeCore
import MeTubeStore
import MeTubeThumbnails
import Testing
import TestSupport

/// The details pane in the real `metube` binary in tmux: thumbnails fetched from a loopback image
/// server fill the cache within its bound and show as coloured block cells; with the network gone,
/// cached pictures still show and the rest get a placeholder.
@Suite("Details pane end to end in tmux", .serialized)
struct DetailsPaneEndToEndTests {
    /// A 640×360 picture of noise: large as JPEGs go (about 100 KiB or more), so a few of them
    /// pass the cache's 1 MiB bound.
    static func noisyJPEG(seed: UInt32) throws -> [UInt8] {
        var state = seed &* 2_654_435_761 | 1
        var pixels = [UInt8](repeating: 255, count: 640 * 360 * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            state = state &* 1_664_525 &+ 1_013_904_223
            pixels[index] = UInt8(truncatingIfNeeded: state >> 24)
            pixels[index + 1] = UInt8(truncatingIfNeeded: state >> 16)
            pixels[index + 2] = UInt8(truncatingIfNeeded: state >> 8)
        }
        return try JPEGEncoder.encode(RGBAImage(width: 640, height: 360, pixels: pixels), quality: 95)
    }

    /// A store of `count` videos whose thumbnails are at `base/ID.jpg`.
    static func makeStore(count: Int, thumbnailBase: String, in directory: TemporaryDirectory) throws -> URL {
        try makeStore(count: count, in: directory) { $0.thumbnailURL = "\(thumbnailBase)/\($0.id).jpg" }
    }

    /// A store of `count` synthetic videos, each first given to `change`.
    static func makeStore(count: Int, in directory: TemporaryDirectory, changing change: (inout Video) -> Void) throws -> URL {
        let library = SyntheticLibrary(channelCount: 4, videoCount: count, markCount: 0)
        let videos = library.videos().map { video -> Video in
            var changed = video
            change(&changed)
            return changed
        }
        let url = directory.url.appendingPathComponent("data", isDirectory: true)
        let store = try Store.open(at: url)
        try store.apply(StoreChange(marks: [], videos: videos, channels: library.channels()))
        try store.compact()
        return url
    }

    static func cachedBytes(in directory: URL) -> (files: Int, bytes: Int) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let pictures = names.filter { $0.hasSuffix(".jpg") }
        let bytes = pictures.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
        return (pictures.count, bytes)
    }

    /// Whether `screen` (captured with escapes) draws cells in 256-colour or 24-bit colours.
    static func hasColouredCells(_ screen: String) -> Bool {
        screen.contains("[38;5;") || screen.contains("[48;5;") || screen.contains("[38;2;") || screen.contains("[48;2;")
    }

    @Test("pictures show as coloured block cells; the cache fills and stays within its bound")
    func cacheFillsWithinItsBound() async throws {
        let pictures = try (0..<6).map { try Self.noisyJPEG(seed: UInt32($0 + 1)) }
        let router = Router()
        router.get("thumbs/:name") { _, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let picture = pictures[abs(name.hashValue) % pictures.count]
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: picture)))
        }
        let (service, url) = await BackgroundService.serve(router, label: "thumbnail-images")
        defer { service.stop() }
        let directory = TemporaryDirectory("metube-details-e2e")
        defer { directory.remove() }
        let storeURL = try Self.makeStore(count: 200, thumbnailBase: "\(url)/thumbs", in: directory)
        try "[tui]\nthumbnail-cache = 1\n".write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        let cacheDirectory = directory.url.appendingPathComponent("cache/metube/thumbnails")
        let tmux = try EndToEndTests.start(storeURL, in: directory, width: 130, height: 30, extraEnvironment: ["XDG_CACHE_HOME": directory.path("cache")])
        defer { tmux.close() }
        try await tmux.waitFor { $0.contains("hub: not configured") }

        try tmux.send("Tab")
        try await tmux.waitFor(escapes: true, Self.hasColouredCells)
        for _ in 0..<4 {
            try tmux.send("PPage")
            try tmux.send("NPage", "NPage")
        }
        let deadline = ContinuousClock.now + TmuxSession.screenTimeout
        while ContinuousClock.now < deadline, Self.cachedBytes(in: cacheDirectory).files < 2 { try await Task.sleep(for: .milliseconds(50)) }
        let cached = Self.cachedBytes(in: cacheDirectory)
        #expect(cached.files >= 2)
        #expect(cached.bytes <= 1 << 20, "the cache holds \(cached.bytes) bytes, more than its 1 MiB bound")
        try tmux.send("q")
    }

    @Test("with the network gone: the cached picture shows, the others get a placeholder")
    func offline() async throws {
        let directory = TemporaryDirectory("metube-details-offline")
        defer { directory.remove() }
        let storeURL = try Self.makeStore(count: 30, thumbnailBase: "http://127.0.0.1:9/thumbs", in: directory)
        let first = SyntheticLibrary(channelCount: 4, videoCount: 30, markCount: 0).video(0)
        let cache = ThumbnailCache(directory: directory.url.appendingPathComponent("cache/metube/thumbnails"), byteLimit: 100 << 20)
        try await cache.store(CachedThumbnail(bytes: try Self.noisyJPEG(seed: 9)), for: first.id)
        let tmux = try EndToEndTests.start(storeURL, in: directory, width: 130, height: 30, extraEnvironment: ["XDG_CACHE_HOME": directory.path("cache")])
        defer { tmux.close() }
        try await tmux.waitFor { $0.contains("hub: not configured") }
        try tmux.send("Tab")
        try await tmux.waitFor(escapes: true, Self.hasColouredCells)
        try tmux.send("j")
        try await tmux.waitFor { $0.contains("unreachable") }
        try tmux.send("q")
    }
}
