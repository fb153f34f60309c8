import Foundation
import Testing
@testable import MeTubeThumbnails

/// The background fetch against a real loopback server: good pictures are cached and revalidated
/// with conditional GET, hostile answers are never cached, a stalling or dripping server is cut
/// at the time limit, failures wait before the next try, and no more than 8 run at once.
@Suite struct ThumbnailFetcherTests {
    final class Outcomes: Sendable {
        let stream: AsyncStream<(String, ThumbnailError?)>
        let continuation: AsyncStream<(String, ThumbnailError?)>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream() }
        func next(_ count: Int) async -> [String: ThumbnailError?] {
            var found: [String: ThumbnailError?] = [:]
            for await (videoID, failure) in stream {
                found[videoID] = failure
                if found.count == count { break }
            }
            return found
        }
    }

    static func temporaryCache(byteLimit: Int = 100 << 20) -> ThumbnailCache {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-thumbnails-\(UUID().uuidString)")
        return ThumbnailCache(directory: directory, byteLimit: byteLimit)
    }

    @Test func goodPicturesAreCachedAndRevalidated() async throws {
        let jpeg = try ThumbnailFixture.bytes("thumbnail-320x180.jpg")
        let server = await ThumbnailStubServer.start(jpeg: jpeg)
        defer { server.service.stop() }
        let cache = Self.temporaryCache()
        let outcomes = Outcomes()
        let fetcher = ThumbnailFetcher(cache: cache) { outcomes.continuation.yield(($0, $1)) }
        await fetcher.want([.init(videoID: "video1", url: "\(server.url)/good/video1")])
        #expect(await outcomes.next(1)["video1"] == .some(nil))
        #expect(await cache.read("video1")?.bytes == jpeg)
        #expect(await cache.read("video1")?.etag == "\"v1\"")

        let again = ThumbnailFetcher(cache: cache) { outcomes.continuation.yield(($0, $1)) }
        await again.want([.init(videoID: "video1", url: "\(server.url)/good/video1")])
        #expect(await outcomes.next(1)["video1"] == .some(nil))
        #expect(server.notModified == 1)
        #expect(await cache.read("video1")?.bytes == jpeg)
    }

    @Test func hostileAnswersAreNeverCached() async throws {
        let server = await ThumbnailStubServer.start(jpeg: try ThumbnailFixture.bytes("thumbnail-320x180.jpg"))
        defer { server.service.stop() }
        let cache = Self.temporaryCache()
        let outcomes = Outcomes()
        let fetcher = ThumbnailFetcher(cache: cache, timeLimit: .seconds(1)) { outcomes.continuation.yield(($0, $1)) }
        await fetcher.want([
            .init(videoID: "html", url: "\(server.url)/html/html"),
            .init(videoID: "fail", url: "\(server.url)/fail/fail"),
            .init(videoID: "stall", url: "\(server.url)/stall/stall"),
            .init(videoID: "drip", url: "\(server.url)/drip/drip"),
        ])
        let found = await outcomes.next(4)
        #expect(found["html"] == .some(.notJPEG(kind: .html)))
        #expect(found["fail"] == .some(.httpStatus(500)))
        for videoID in ["stall", "drip"] {
            guard case .some(.unreachable) = found[videoID] else {
                Issue.record("\(videoID): expected to be cut at the time limit, got \(String(describing: found[videoID]))")
                continue
            }
        }
        for videoID in ["html", "fail", "stall", "drip"] { #expect(await cache.read(videoID) == nil) }
        #expect(await cache.totalBytes == 0)
    }

    @Test func aFailureWaitsBeforeTheNextTry() async throws {
        let server = await ThumbnailStubServer.start(jpeg: try ThumbnailFixture.bytes("thumbnail-320x180.jpg"))
        defer { server.service.stop() }
        let outcomes = Outcomes()
        let fetcher = ThumbnailFetcher(cache: Self.temporaryCache()) { outcomes.continuation.yield(($0, $1)) }
        let request = ThumbnailFetcher.Request(videoID: "fail", url: "\(server.url)/fail/fail")
        await fetcher.want([request])
        _ = await outcomes.next(1)
        for _ in 0..<20 { await fetcher.want([request]) }
        #expect(await fetcher.inFlightCount == 0)
        #expect(server.requests == 1)
        #expect(await fetcher.failure(of: "fail") == .httpStatus(500))
    }

    @Test func atMostEightRequestsAtOnce() async throws {
        let server = await ThumbnailStubServer.start(jpeg: try ThumbnailFixture.bytes("thumbnail-320x180.jpg"), delay: .milliseconds(200))
        defer { server.service.stop() }
        let outcomes = Outcomes()
        let fetcher = ThumbnailFetcher(cache: Self.temporaryCache()) { outcomes.continuation.yield(($0, $1)) }
        let requests = (0..<24).map { ThumbnailFetcher.Request(videoID: "v\($0)", url: "\(server.url)/good/v\($0)") }
        await fetcher.want(requests)
        let found = await outcomes.next(24)
        #expect(found.values.allSatisfy { $0 == nil })
        #expect(server.mostRunning <= 8)
        #expect(server.mostRunning > 1)
    }
}
