import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// A loopback feed server in YouTube's shape (`/feeds/videos.xml?channel_id=…`) whose feeds a
/// test writes: each channel's entries, newest first, as many as YouTube's 15 or more. A channel
/// without entries answers 404. Counts the requests of each channel.
public final class ScriptedFeedServer: Sendable {
    private let state: State
    private let service: BackgroundService
    /// The server's base URL.
    public let url: String

    /// The feed URL template pointing here.
    public var feedURLTemplate: String { url + "/feeds/videos.xml?channel_id={channelId}" }

    private init(state: State, service: BackgroundService, url: String) {
        self.state = state
        self.service = service
        self.url = url
    }

    /// Starts a server with no feeds.
    public static func start() async -> ScriptedFeedServer {
        let state = State()
        let router = Router()
        router.get("/feeds/videos.xml") { request, _ -> Response in
            let channelID = request.uri.queryParameters.get("channel_id") ?? ""
            guard let videoIDs = state.request(channelID) else { return Response(status: .notFound) }
            let body = ByteBuffer(string: feed(channelID: channelID, videoIDs: videoIDs))
            return Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: body))
        }
        let (service, url) = await BackgroundService.serve(router, label: "scripted-feeds")
        return ScriptedFeedServer(state: state, service: service, url: url)
    }

    /// Makes the feed of `channelID` list `videoIDs`, newest first, a day apart.
    public func setFeed(_ videoIDs: [String], for channelID: String) {
        state.values.withLock { $0.feeds[channelID] = videoIDs }
    }

    /// How many requests each channel's feed got.
    public var requests: [String: Int] { state.values.withLock { $0.requests } }

    /// Stops the server.
    public func stop() { service.stop() }

    /// An Atom feed of `channelID` in YouTube's shape listing `videoIDs`, newest first, the first
    /// published on 2026-11-01 and each next one a day earlier.
    public static func feed(channelID: String, videoIDs: [String]) -> String {
        let newest = Date(timeIntervalSince1970: 1_793_534_400)
        let entries = videoIDs.enumerated().map { offset, videoID in
            let published = ISO8601DateFormatter().string(from: newest.addingTimeInterval(-Double(offset) * 86_400))
            return """
                 <entry>
                  <id>yt:video:\(videoID)</id>
                  <yt:videoId>\(videoID)</yt:videoId>
                  <yt:channelId>\(channelID)</yt:channelId>
                  <title>Upload \(videoID)</title>
                  <link rel="alternate" href="https://www.youtube.com/watch?v=\(videoID)"/>
                  <published>\(published)</published>
                  <updated>\(published)</updated>
                 </entry>

                """
        }
        return MinimalAtomFeed.channel(channelID, title: "Channel \(channelID)", entries: entries)
    }

    /// The feeds and the counts, shared with the router.
    private final class State: Sendable {
        struct Values {
            var feeds: [String: [String]] = [:]
            var requests: [String: Int] = [:]
        }

        let values = Mutex(Values())

        /// Counts a request for the feed of `channelID` and returns its entries, if it has a feed.
        func request(_ channelID: String) -> [String]? {
            values.withLock { values in
                values.requests[channelID, default: 0] += 1
                return values.feeds[channelID]
            }
        }
    }
}
