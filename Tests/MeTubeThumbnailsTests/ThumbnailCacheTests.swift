import Foundation
import Testing
@testable import MeTubeThumbnails

@Suite struct ThumbnailCacheTests {
    @Test func staysWithinItsBoundDroppingTheLeastRecentlyUsed() async throws {
        let cache = ThumbnailFetcherTests.temporaryCache(byteLimit: 2_500)
        let picture = CachedThumbnail(bytes: Array(repeating: 7, count: 1_000))
        try await cache.store(picture, for: "a")
        try await cache.store(picture, for: "b")
        _ = await cache.read("a")
        try await cache.store(picture, for: "c")
        #expect(await cache.totalBytes <= 2_500)
        #expect(await cache.read("b") == nil)
        #expect(await cache.read("a") != nil)
        #expect(await cache.read("c") != nil)
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).filter { $0.hasSuffix(".jpg") }
        #expect(onDisk.sorted() == ["a.jpg", "c.jpg"])
    }

    @Test func theKeptPictureOutlivesNewerOnes() async throws {
        let cache = ThumbnailFetcherTests.temporaryCache(byteLimit: 2_500)
        let picture = CachedThumbnail(bytes: Array(repeating: 7, count: 1_000))
        await cache.keep("shown")
        try await cache.store(picture, for: "shown")
        for other in ["a", "b", "c", "d"] { try await cache.store(picture, for: other) }
        #expect(await cache.read("shown") != nil)
        #expect(await cache.totalBytes <= 2_500)
    }

    @Test func aNewCacheOverAnOldDirectoryKnowsItsFiles() async throws {
        let cache = ThumbnailFetcherTests.temporaryCache(byteLimit: 10_000)
        try await cache.store(CachedThumbnail(bytes: [1, 2, 3], etag: "\"e\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT"), for: "x")
        let reopened = ThumbnailCache(directory: cache.directory, byteLimit: 10_000)
        #expect(await reopened.totalBytes == 3)
        #expect(await reopened.read("x") == CachedThumbnail(bytes: [1, 2, 3], etag: "\"e\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT"))
    }

    @Test func unsafeNamesAreRefused() async {
        let cache = ThumbnailFetcherTests.temporaryCache()
        await #expect(throws: ThumbnailError.unsupportedAddress) { try await cache.store(CachedThumbnail(bytes: [1]), for: "../escape") }
        #expect(await cache.read("../escape") == nil)
    }

    @Test func aDamagedFileOnDiskGivesItsReasonAndIsDropped() async throws {
        let cache = ThumbnailFetcherTests.temporaryCache()
        try await cache.store(CachedThumbnail(bytes: try ThumbnailFixture.bytes("damaged.jpg")), for: "damaged")
        let drawing = ThumbnailDrawing(renderer: SymbolRenderer(colors: .direct))
        let result = await drawing.draw("damaged", from: cache, columns: 40, rows: 12)
        guard case .failure(.damaged) = result else {
            Issue.record("expected a damaged picture, got \(String(describing: result))")
            return
        }
        #expect(await cache.read("damaged") == nil)
    }

    @Test func youTubeAddressesFetchTheMediumPicture() {
        #expect(ThumbnailAddress.fetchURL(thumbnailURL: "https://i4.ytimg.com/vi/abcDEF12345/hqdefault.jpg", videoID: "abcDEF12345")
            == "https://i.ytimg.com/vi/abcDEF12345/mqdefault.jpg")
        #expect(ThumbnailAddress.fetchURL(thumbnailURL: nil, videoID: "abcDEF12345") == "https://i.ytimg.com/vi/abcDEF12345/mqdefault.jpg")
        #expect(ThumbnailAddress.fetchURL(thumbnailURL: "http://127.0.0.1:8080/thumbnails/x.jpg", videoID: "x") == "http://127.0.0.1:8080/thumbnails/x.jpg")
        #expect(ThumbnailAddress.fetchURL(thumbnailURL: "file:///etc/passwd", videoID: "x") == nil)
        #expect(ThumbnailAddress.fetchURL(thumbnailURL: "https://evil\u{1B}]52;c;/x.jpg", videoID: "x") == nil)
    }
}
