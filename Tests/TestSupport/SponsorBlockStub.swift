import Crypto
import Foundation
import Hummingbird
import Synchronization

/// A loopback stand-in for SponsorBlock's API on 127.0.0.1, in its documented shape:
/// `GET /api/skipSegments/{hashPrefix}?categories=[…]` answers a JSON array of
/// `{"videoID", "hash", "segments": [{"category", "actionType", "segment": [start, end], "UUID",
/// "videoDuration", "locked", "votes", "description"}]}` for every video whose id's SHA-256 starts
/// with the prefix, or 404 when there is none. A script may answer anything instead.
public final class SponsorBlockStub: Sendable {
    /// One segment as the stub serves it.
    public struct Segment: Sendable {
        public var start: Double
        public var end: Double
        public var category: String
        public var actionType: String

        public init(_ start: Double, _ end: Double, category: String = "sponsor", actionType: String = "skip") {
            self.start = start
            self.end = end
            self.category = category
            self.actionType = actionType
        }
    }

    /// The base URL, e.g. `http://127.0.0.1:54321`.
    public let url: String
    private let service: BackgroundService
    private let seen: RequestLog

    /// The requests received, as `path?query`.
    public var requests: [String] { seen.paths.withLock { $0 } }

    /// The requests received, shared with the route.
    private final class RequestLog: Sendable {
        let paths = Mutex<[String]>([])
    }

    private init(url: String, service: BackgroundService, seen: RequestLog) {
        self.url = url
        self.service = service
        self.seen = seen
    }

    /// Serves the documented answers for `videos` (segments by video id).
    public static func start(videos: [String: [Segment]]) async -> SponsorBlockStub {
        await start { prefix in documentedAnswer(prefix: prefix, videos: videos) }
    }

    /// Answers every request for a hash prefix with what `answer` gives: a status and a body.
    public static func start(_ answer: @escaping @Sendable (_ prefix: String) async -> (status: Int, body: Data)) async -> SponsorBlockStub {
        let router = Router()
        let log = RequestLog()
        router.get("/api/skipSegments/:prefix") { request, context -> Response in
            log.paths.withLock { $0.append(request.uri.path + "?" + (request.uri.query ?? "")) }
            let (status, body) = await answer(context.parameters.get("prefix") ?? "")
            return Response(status: .init(code: status), headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        let (service, url) = await BackgroundService.serve(router, label: "sponsorblock-stub")
        return SponsorBlockStub(url: url, service: service, seen: log)
    }

    /// The documented answer for `prefix`: every video of `videos` whose id's hash starts with it.
    public static func documentedAnswer(prefix: String, videos: [String: [Segment]]) -> (status: Int, body: Data) {
        let matching = videos.keys.sorted().filter { hash(of: $0).hasPrefix(prefix.lowercased()) }
        guard !matching.isEmpty else { return (404, Data("Not Found".utf8)) }
        let entries: [[String: Any]] = matching.map { videoID in
            [
                "videoID": videoID, "hash": hash(of: videoID),
                "segments": (videos[videoID] ?? []).enumerated().map { index, segment in
                    [
                        "category": segment.category, "actionType": segment.actionType, "segment": [segment.start, segment.end],
                        "UUID": "\(videoID)-\(index)", "videoDuration": 0, "locked": 0, "votes": 1, "description": "",
                    ] as [String: Any]
                },
            ]
        }
        return (200, (try? JSONSerialization.data(withJSONObject: entries)) ?? Data())
    }

    /// The hex SHA-256 of `videoID`.
    public static func hash(of videoID: String) -> String {
        SHA256.hash(data: Data(videoID.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Another 11-character video id whose hash shares the first 4 hex digits with `videoID`'s:
    /// an entry a prefix request also answers with.
    public static func neighbour(of videoID: String) -> String {
        let prefix = String(hash(of: videoID).prefix(4))
        var generator = 0
        while true {
            generator += 1
            let candidate = String(format: "nb%09d", generator)
            if candidate != videoID, hash(of: candidate).hasPrefix(prefix) { return candidate }
        }
    }

    /// Stops the stub.
    public func stop() { service.stop() }
}
