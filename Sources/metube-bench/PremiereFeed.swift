import Foundation
import Hummingbird
import MeTubeCore
import MeTubeFeeds
import NIOCore
import Synchronization
import TestSupport

/// A channel's feed, shaped like the NASA fixture: 14 uploads with views, and premieres announced
/// an hour ago with `views="0"` until ``release(_:)``. Records when each fetch showed a premiere
/// released.
final class PremiereFeed: Sendable {
    let channel: MeTubeCore.Channel
    let uploads: [Video]
    let premieres: [Video]
    private let state = Mutex(State())

    private struct State {
        var released: Set<String> = []
        var fetches: [String: [ContinuousClock.Instant]] = [:]
    }

    /// The feed of a channel with `count` premieres, none released.
    init(premieres count: Int) {
        let library = SyntheticLibrary(channelCount: 1, videoCount: 14 + count, markCount: 0, newest: Date().addingTimeInterval(-86_400))
        channel = library.channels()[0]
        uploads = (0..<14).map { library.video($0) }
        premieres = (14..<(14 + count)).map { index in
            var video = library.video(index)
            video.published = Date().addingTimeInterval(-3_600)
            return video
        }
    }

    /// Serves `GET /feeds/{channelId}` on loopback (404 for another channel); returns the service
    /// and its base URL.
    func serve() async -> (service: BackgroundService, url: String) {
        let router = Router()
        router.get("/feeds/:channelId") { _, context -> Response in
            guard try context.parameters.require("channelId") == self.channel.id else { return Response(status: .notFound) }
            return Response(status: .ok, headers: [.contentType: "application/atom+xml"], body: .init(byteBuffer: ByteBuffer(string: self.answer())))
        }
        return await BackgroundService.serve(router, label: "bench-premiere-feed")
    }

    /// From now on, the feed shows `videoID` with views.
    func release(_ videoID: String) { state.withLock { _ = $0.released.insert(videoID) } }

    /// When the fetches that showed `videoID` released were answered, in order.
    func fetchesShowingRelease(of videoID: String) -> [ContinuousClock.Instant] { state.withLock { $0.fetches[videoID] ?? [] } }

    /// The feed as it stands, recorded as a fetch of every premiere it shows released.
    private func answer() -> String {
        let now = ContinuousClock.now
        let released = state.withLock { state in
            for id in state.released { state.fetches[id, default: []].append(now) }
            return state.released
        }
        var xml = syntheticAtomFeed(channel: channel, videos: premieres + uploads)
        for premiere in premieres where !released.contains(premiere.id) {
            guard let entry = xml.range(of: "<yt:videoId>\(premiere.id)</yt:videoId>"),
                  let views = xml.range(of: #"views="1234""#, range: entry.upperBound..<xml.endIndex) else { continue }
            xml.replaceSubrange(views, with: #"views="0""#)
        }
        return xml
    }

    /// YouTube's WebSub notification of `video` (an entry without media or counts), updated at
    /// `releasedAt`.
    static func push(of video: Video, releasedAt: Date) -> String {
        let updated = ISO8601Timestamp.format(releasedAt)
        let title = xmlEscaped(video.title)
        return """
            <?xml version="1.0" encoding="UTF-8"?><feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom">\
            <link rel="hub" href="https://pubsubhubbub.appspot.com"/>\
            <link rel="self" href="https://www.youtube.com/xml/feeds/videos.xml?channel_id=\(video.channelID)"/>\
            <title>YouTube video feed</title><updated>\(updated)</updated><entry><id>yt:video:\(video.id)</id><yt:videoId>\(video.id)</yt:videoId>\
            <yt:channelId>\(video.channelID)</yt:channelId><title>\(title)</title>\
            <link rel="alternate" href="https://www.youtube.com/watch?v=\(video.id)"/>\
            <author><name>bench</name><uri>https://www.youtube.com/channel/\(video.channelID)</uri></author>\
            <published>\(ISO8601Timestamp.format(video.published))</published><updated>\(updated)</updated></entry></feed>
            """
    }
}
