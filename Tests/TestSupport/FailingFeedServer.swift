import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// A loopback feed server in YouTube's shape (`/feeds/videos.xml?channel_id=…`) that fails on
/// command, for every channel at once or for some, and counts the requests of each channel.
/// Each answering channel's feed holds one entry, a video of that channel, linked as `watch?v=`.
/// Shorts playlist feeds (`?playlist_id=UUSH…`) answer 404 unless set with
/// ``setShortsFeed(_:for:)``, and are counted apart (``shortsRequests``).
public final class FailingFeedServer: Sendable {
    /// How the server answers.
    public enum Mode: Sendable, Equatable {
        /// Every feed answers 200 with its Atom feed.
        case answering
        /// Every feed answers `status`, with `retryAfter` as its `Retry-After` when given.
        case failing(status: Int, retryAfter: String? = nil)
    }

    private let state: FeedServerState
    private let service: BackgroundService
    /// The server's base URL.
    public let url: String

    /// The feed URL template pointing here, for direct mode and the server's poller.
    public var feedURLTemplate: String { url + "/feeds/videos.xml?channel_id={channelId}" }

    private init(service: BackgroundService, url: String, state: FeedServerState) {
        self.service = service
        self.url = url
        self.state = state
    }

    /// Starts a server answering every feed.
    public static func start() async -> FailingFeedServer {
        let state = FeedServerState()
        let router = Router()
        router.get("/feeds/videos.xml") { request, _ -> Response in
            if let playlistID = request.uri.queryParameters.get("playlist_id") {
                let channelID = "UC" + playlistID.dropFirst(4)
                if let silence = state.locked({ $0.silentShorts[channelID] }) { try await Task.sleep(for: silence) }
                return state.shortsAnswer(for: channelID)
            }
            let channelID = request.uri.queryParameters.get("channel_id") ?? ""
            let mode = state.answer(for: channelID)
            switch mode {
            case .answering:
                let body = ByteBuffer(string: Self.feed(for: channelID))
                return Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: body))
            case .failing(let status, let retryAfter):
                var headers = HTTPFields()
                if let retryAfter { headers[.retryAfter] = retryAfter }
                return Response(status: .init(code: status), headers: headers)
            }
        }
        let (service, url) = await BackgroundService.serve(router, label: "failing-feeds")
        return FailingFeedServer(service: service, url: url, state: state)
    }

    /// Makes every feed answer per `mode` (channels failing on their own keep failing).
    public func set(_ mode: Mode) { state.locked { $0.mode = mode } }

    /// Makes the feeds of `channelIDs` answer per `mode` whatever the server's mode.
    public func set(_ mode: Mode, for channelIDs: [String]) {
        state.locked { state in
            for id in channelIDs { state.failingChannels[id] = mode }
        }
    }

    /// Makes the Shorts feed of `channelID` answer `answer` (a status and its body).
    public func setShortsFeed(_ answer: (status: Int, body: String), for channelID: String) {
        state.locked { $0.shortsFeeds[channelID] = answer }
    }

    /// Makes the Shorts feed of `channelID` answer only after `silence` (a peer that times out).
    public func silenceShortsFeed(for channelID: String, during silence: Duration) {
        state.locked { $0.silentShorts[channelID] = silence }
    }

    /// How many requests each channel's Shorts feed got.
    public var shortsRequests: [String: Int] { state.locked { $0.shortsRequests } }

    /// The id of the one video in the feed of `channelID` (``feed(for:)``).
    public static func videoID(of channelID: String) -> String {
        String(("AAAAAAAAAAA" + channelID).suffix(11))
    }

    /// How many requests each channel's feed got.
    public var requests: [String: Int] { state.locked { $0.requests } }

    /// Calls `observer` with the channel id of each feed request as it arrives (one observer;
    /// a new one replaces it).
    public func observe(_ observer: @escaping @Sendable (String) -> Void) { state.locked { $0.observer = observer } }

    /// Forgets the request counts.
    public func resetCounts() { state.locked { $0.requests.removeAll() } }

    /// Stops the server.
    public func stop() { service.stop() }

    /// A one-entry Atom feed of `channelID`, in YouTube's shape, whose video id is the
    /// channel id's last 11 characters.
    public static func feed(for channelID: String) -> String {
        MinimalAtomFeed.text(channelID: channelID, videoID: videoID(of: channelID))
    }

    /// `count` channel ids, `UC000…0`, `UC000…1`, ….
    public static func channelIDs(_ count: Int) -> [String] {
        (0..<count).map { "UC" + String(repeating: "0", count: 22 - String($0).count) + String($0) }
    }
}

/// What a ``FailingFeedServer`` answers and has counted, shared with its router.
private final class FeedServerState: Sendable {
    struct Values {
        var mode = FailingFeedServer.Mode.answering
        var failingChannels: [String: FailingFeedServer.Mode] = [:]
        var requests: [String: Int] = [:]
        var shortsFeeds: [String: (status: Int, body: String)] = [:]
        var shortsRequests: [String: Int] = [:]
        var silentShorts: [String: Duration] = [:]
        var observer: (@Sendable (String) -> Void)?
    }

    private let values = Mutex(Values())

    func locked<T>(_ body: (inout Values) -> T) -> T { values.withLock { body(&$0) } }

    /// Counts a request for `channelID`'s feed and says how to answer it.
    func answer(for channelID: String) -> FailingFeedServer.Mode {
        let (mode, observer) = locked { values in
            values.requests[channelID, default: 0] += 1
            return (values.failingChannels[channelID] ?? values.mode, values.observer)
        }
        observer?(channelID)
        return mode
    }

    /// Counts a request for the Shorts feed of `channelID` and answers it.
    func shortsAnswer(for channelID: String) -> Response {
        let answer = locked { values in
            values.shortsRequests[channelID, default: 0] += 1
            return values.shortsFeeds[channelID] ?? (404, "")
        }
        return Response(status: .init(code: answer.status), headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: ByteBuffer(string: answer.body)))
    }
}
