import Foundation

extension YouTubeStub {
    /// Answers the Data API's lookups of a channel by handle, user name or video, in Google's
    /// documented shapes: `channels.list?forHandle=` (with or without `@`, any case) and
    /// `?forUsername=` give a `channelListResponse` with the channel's id, or no `items` when
    /// unknown; `videos.list?part=snippet&id=` a `videoListResponse` whose `snippet.channelId` is
    /// the video's channel, or no items. Pass it as `override` to ``start(channels:polls:initialAccessToken:revokedRefreshToken:override:)``;
    /// other paths fall through. `quotaSpent` answers every lookup 403 `quotaExceeded`.
    public static func resolving(
        handles: [String: String] = [:], users: [String: String] = [:], videos: [String: String] = [:],
        quotaSpent: @escaping @Sendable () -> Bool = { false }
    ) -> @Sendable (Request, Int) -> Reply? {
        let handles = Dictionary(handles.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        let users = Dictionary(users.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        return { request, _ in
            guard request.path == "/channels" || request.path == "/videos", request.query["key"] != nil else { return nil }
            if quotaSpent() {
                return .json(apiError(status: 403, reason: "quotaExceeded", message: "The request cannot be completed because you have exceeded your quota."), status: 403)
            }
            if request.path == "/videos" {
                let id = request.query["id"] ?? ""
                return .json(videoChannelList(videos[id].map { [(video: id, channel: $0)] } ?? []))
            }
            let id: String?
            if let handle = request.query["forHandle"] {
                id = handles[(handle.hasPrefix("@") ? String(handle.dropFirst()) : handle).lowercased()]
            } else {
                id = request.query["forUsername"].flatMap { users[$0.lowercased()] }
            }
            return .json(channelIDList(id.map { [$0] } ?? []))
        }
    }

    /// A `channelListResponse` of `part=id`; no ids leaves `items` out, as the API does for an unknown handle.
    public static func channelIDList(_ ids: [String]) -> String {
        let items = ids.map { "{\"kind\":\"youtube#channel\",\"etag\":\"e\",\"id\":\"\($0)\"}" }
        let itemsField = items.isEmpty ? "" : ",\"items\":[\(items.joined(separator: ","))]"
        return "{\"kind\":\"youtube#channelListResponse\",\"etag\":\"e\",\"pageInfo\":{\"totalResults\":\(ids.count),\"resultsPerPage\":5}\(itemsField)}"
    }

    /// A `videoListResponse` of `part=snippet`, as far as each video's channel.
    public static func videoChannelList(_ videos: [(video: String, channel: String)]) -> String {
        let items = videos.map { video in
            "{\"kind\":\"youtube#video\",\"etag\":\"e\",\"id\":\"\(video.video)\",\"snippet\":{\"publishedAt\":\"2024-01-02T03:04:05Z\",\"channelId\":\"\(video.channel)\",\"title\":\"A video\",\"channelTitle\":\"A channel\",\"liveBroadcastContent\":\"none\"}}"
        }
        return "{\"kind\":\"youtube#videoListResponse\",\"etag\":\"e\",\"items\":[\(items.joined(separator: ","))],\"pageInfo\":{\"totalResults\":\(videos.count),\"resultsPerPage\":\(videos.count)}}"
    }
}
