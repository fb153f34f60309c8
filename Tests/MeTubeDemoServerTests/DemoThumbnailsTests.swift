import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeCore
import MeTubeDemo
@testable import MeTubeDemoServer
import MeTubeServer
import MeTubeThumbnails
import Testing

/// The demo server's own thumbnails: real JPEGs of YouTube's `mqdefault` size, the same bytes for
/// the same id, and 404 for anything that is not a video id.
@Suite struct DemoThumbnailsTests {
    @Test func aVideoIDGetsADecodableJPEGAndAnythingElse404() async throws {
        let router = Router()
        router.add(middleware: ServerErrorMiddleware())
        DemoThumbnails.addRoute(to: router)
        try await Application(router: router).test(.router) { client in
            let id = DemoCatalog.videoID(7)
            let first = try await client.execute(uri: DemoThumbnails.path(of: id), method: .get)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "image/jpeg")
            let image = try JPEGDecoder().decode(Array(first.body.readableBytesView))
            #expect(image.width == 320 && image.height == 180)
            let again = try await client.execute(uri: DemoThumbnails.path(of: id), method: .get)
            #expect(again.body == first.body)
            let other = try await client.execute(uri: DemoThumbnails.path(of: DemoCatalog.videoID(8)), method: .get)
            #expect(other.body != first.body)
            for bad in ["/demo/thumbnails/short.jpg", "/demo/thumbnails/\(id).png", "/demo/thumbnails/..%2F..%2Fetc.jpg"] {
                #expect(try await client.execute(uri: bad, method: .get).status == .notFound, "\(bad)")
            }
        }
    }

    @Test func theAddressFollowsTheListeningPortAndAWildcardHostIsReachedOnLoopback() {
        let thumbnails = DemoThumbnails()
        let video = DemoCatalog().video(0)
        #expect(thumbnails.pointing(video).thumbnailURL == video.thumbnailURL)
        thumbnails.listening(host: "0.0.0.0", port: 4242)
        #expect(thumbnails.pointing(video).thumbnailURL == "http://127.0.0.1:4242/demo/thumbnails/\(video.id).jpg")
    }
}
