import Foundation
import Hummingbird
import MeTubeCore
import MeTubeThumbnails
import Synchronization

/// The demo's thumbnails: real 320×180 JPEGs (libjpeg-turbo) generated from the video id, served
/// by the demo server itself at `GET /demo/thumbnails/{videoId}.jpg`, so a demo shows pictures
/// with no internet. Each id gets its own colours and stripes, the same on every request.
public final class DemoThumbnails: Sendable {
    /// The path of `videoID`'s thumbnail on the demo server.
    public static func path(of videoID: String) -> String { "/demo/thumbnails/\(videoID).jpg" }

    /// The server's address as clients reach it (`http://127.0.0.1:8787`), known once it listens.
    private let base = Mutex<String?>(nil)

    /// A holder whose address is set when the server listens.
    public init() {}

    /// Sets the address from the listening `host` and `port` (a wildcard host becomes 127.0.0.1).
    func listening(host: String, port: Int) {
        let reachable = host == "0.0.0.0" || host == "::" || host.isEmpty ? "127.0.0.1" : (host.contains(":") ? "[\(host)]" : host)
        base.withLock { $0 = "http://\(reachable):\(port)" }
    }

    /// `videoID`'s thumbnail address, nil before the server listens.
    func url(of videoID: String) -> String? {
        base.withLock { $0 }.map { $0 + Self.path(of: videoID) }
    }

    /// `video` with its thumbnail address pointing at this server, when known.
    func pointing(_ video: Video) -> Video {
        var video = video
        if let url = url(of: video.id) { video.thumbnailURL = url }
        return video
    }

    /// The JPEG of `videoID`: two colours from the id's hash in diagonal stripes over a gradient.
    static func jpeg(of videoID: String) throws -> [UInt8] {
        var random = SplitMix64(seed: videoID.utf8.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 })
        let first = (0..<3).map { _ in Int(random.next() % 200) + 30 }
        let second = (0..<3).map { _ in Int(random.next() % 200) + 30 }
        let stripe = Int(random.next() % 24) + 16
        let (width, height) = (320, 180)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let mix = Double(x) / Double(width - 1)
                let shade = ((x + y) / stripe) % 2 == 0 ? 1.0 : 0.7
                let offset = (y * width + x) * 4
                for channel in 0..<3 {
                    let value = (Double(first[channel]) * (1 - mix) + Double(second[channel]) * mix) * shade
                    pixels[offset + channel] = UInt8(max(0, min(255, value)))
                }
            }
        }
        return try JPEGEncoder.encode(RGBAImage(width: width, height: height, pixels: pixels))
    }

    /// Adds `GET /demo/thumbnails/{videoId}.jpg` to `router`: a valid video id gets its JPEG
    /// (`Cache-Control: max-age=86400`), anything else 404 (in the hub's error shape, which the
    /// server's error middleware gives it).
    static func addRoute<Context: RequestContext>(to router: Router<Context>) {
        router.get("/demo/thumbnails/:file") { _, context -> Response in
            let file = context.parameters.get("file") ?? ""
            let videoID = file.hasSuffix(".jpg") ? String(file.dropLast(4)) : ""
            guard VideoID.isValid(videoID) else { throw HTTPError(.notFound) }
            let bytes = try jpeg(of: videoID)
            return Response(
                status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "max-age=86400"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}
