import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube show VIDEO`: the details as text and JSON with the description's chapters and links,
/// hostile text made harmless, the cached thumbnail drawn, and clear errors with distinct exit codes.
@Suite struct CLIShowTests {
    let metube = ProductBinary.url("metube")
    static let description = """
        A look at the specs.\u{1B}]0;owned\u{7}
        0:00 Intro
        12:34 - Results
        1:02:03 Outro
        99:99 not a chapter
        More at https://example.com/specs and \u{202E}https://example.org/x.
        """

    /// A store holding one video with views, a description and a mark.
    private func makeStore(_ directory: TemporaryDirectory) throws -> Store {
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        var video = Video(id: "dQw4w9WgXcQ", channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "Specs \u{1B}[2J explained", published: Date(timeIntervalSince1970: 1_790_000_000),
                          duration: 3_723, description: Self.description, views: 23_088, starRatings: 1_580)
        video.thumbnailURL = "http://127.0.0.1:1/unused.jpg"
        try store.apply(StoreChange(videos: [video], channels: [Channel(id: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "Digital Foundry")]))
        try store.compact()
        return store
    }

    @Test func textAndJSONCarryTheDetailsChaptersAndLinksWithNoEscapeReachingTheTerminal() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try makeStore(directory)
        let text = try runProcess(metube, ["show", "https://youtu.be/dQw4w9WgXcQ", "--data-dir", store.directory.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Digital Foundry"))
        #expect(text.stdout.contains("23088 views · 1580 ratings"))
        #expect(text.stdout.contains("  0:00  Intro\n  12:34  Results\n  1:02:03  Outro"), "\(text.stdout)")
        #expect(text.stdout.contains("  https://example.com/specs"))
        #expect(!text.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" })

        let json = try runProcess(metube, ["show", "dQw4w9WgXcQ", "--json", "--data-dir", store.directory.path])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["views"] as? Int == 23_088)
        #expect(object["starRatings"] as? Int == 1_580)
        #expect((object["chapters"] as? [[String: Any]])?.compactMap { $0["startSeconds"] as? Int } == [0, 754, 3_723])
        #expect(object["links"] as? [String] == ["https://example.com/specs", "https://example.org/x"])
        #expect(object["description"] as? String == Self.description)
    }

    @Test func anUnknownVideoAndANonIDFailWithDistinctCodes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try makeStore(directory)
        let unknown = try runProcess(metube, ["show", "AAAAAAAAAAA", "--data-dir", store.directory.path])
        #expect(unknown.status == 4)
        #expect(unknown.stderr.contains("no video AAAAAAAAAAA in the library"))
        let garbage = try runProcess(metube, ["show", "not a video \u{1B}[2J", "--data-dir", store.directory.path])
        #expect(garbage.status == 65)
        #expect(!garbage.stderr.contains("\u{1B}"))
    }

    @Test func theCachedThumbnailIsDrawnInColourOrWithoutUnderNoColor() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try makeStore(directory)
        let cache = directory.url.appendingPathComponent("cache/metube/thumbnails")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MeTubeTUITests/Fixtures/thumbnail-320x180.jpg")
        try FileManager.default.copyItem(at: fixture, to: cache.appendingPathComponent("dQw4w9WgXcQ.jpg"))
        let coloured = try runProcess(metube, ["show", "dQw4w9WgXcQ", "--thumbnail", "--columns", "20", "--data-dir", store.directory.path],
                                      environment: ["XDG_CACHE_HOME": directory.path("cache"), "NO_COLOR": ""])
        #expect(coloured.status == 0, "\(coloured.stderr)")
        #expect(coloured.stdout.contains("\u{1B}[38;2;"))
        #expect(coloured.stdout.contains("Digital Foundry"))
        let plain = try runProcess(metube, ["show", "dQw4w9WgXcQ", "--thumbnail", "--columns", "20", "--data-dir", store.directory.path],
                                   environment: ["XDG_CACHE_HOME": directory.path("cache"), "NO_COLOR": "1"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.stdout.contains("\u{1B}"))
    }
}
