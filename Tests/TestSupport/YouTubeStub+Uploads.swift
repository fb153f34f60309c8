import Foundation

extension YouTubeStub {
    /// One upload of a channel's uploads playlist.
    public struct Upload: Sendable {
        public var id: String
        public var title: String
        /// ISO 8601, as `contentDetails.videoPublishedAt`.
        public var published: String
        /// What `videos.list` gives as `contentDetails.duration` (ISO 8601, or anything a test
        /// feeds); nil leaves the field out.
        public var duration: String?

        /// An upload titled `title` (by default "Upload ID"), published at `published`, `duration` long.
        public init(id: String, title: String? = nil, published: String = "2026-10-01T12:00:00Z", duration: String? = "PT4M13S") {
            self.id = id
            self.title = title ?? "Upload \(id)"
            self.published = published
            self.duration = duration
        }
    }

    /// ``uploading(_:quotaSpent:)`` of uploads that do not change.
    public static func uploads(_ uploads: [String: [Upload]], quotaSpent: @escaping @Sendable () -> Bool = { false }) -> @Sendable (Request, Int) -> Reply? {
        uploading({ uploads }, quotaSpent: quotaSpent)
    }

    /// Answers `playlistItems.list?part=snippet,contentDetails&playlistId=UU…` in Google's
    /// documented shape (`playlistItemListResponse`): the channel's uploads as `uploads` returns
    /// them at the time, newest first, `maxResults` (at most 50) a page, `nextPageToken` `p1`,
    /// `p2`… while more follow; an unknown playlist is 404 `playlistNotFound`. And
    /// `videos.list?part=contentDetails&id=…` (``videoLengthList(_:)``) with the uploads among the
    /// ids, other ids left out as the API leaves out a deleted or private video. `quotaSpent`
    /// answers both 403 `quotaExceeded`. Pass it as `override` to
    /// ``start(channels:polls:initialAccessToken:revokedRefreshToken:override:)``; other paths fall through.
    public static func uploading(
        _ uploads: @escaping @Sendable () -> [String: [Upload]], quotaSpent: @escaping @Sendable () -> Bool = { false }
    ) -> @Sendable (Request, Int) -> Reply? {
        { request, _ in
            guard request.path == "/playlistItems" || request.path == "/videos", request.query["key"] != nil else { return nil }
            if quotaSpent() {
                return .json(apiError(status: 403, reason: "quotaExceeded", message: "The request cannot be completed because you have exceeded your quota."), status: 403)
            }
            if request.path == "/videos" {
                let asked = Set((request.query["id"] ?? "").split(separator: ",").map(String.init))
                return .json(videoLengthList(uploads().values.joined().filter { asked.contains($0.id) }.map { ($0.id, $0.duration) }))
            }
            let playlistID = request.query["playlistId"] ?? ""
            guard playlistID.hasPrefix("UU"), let playlist = uploads()["UC" + playlistID.dropFirst(2)] else {
                return .json(apiError(status: 404, reason: "playlistNotFound", message: "The playlist identified with the request's <code>playlistId</code> parameter cannot be found."), status: 404)
            }
            let channel = "UC" + playlistID.dropFirst(2)
            let size = min(Int(request.query["maxResults"] ?? "5") ?? 5, 50)
            let page = request.query["pageToken"].flatMap { $0.hasPrefix("p") ? Int($0.dropFirst()) : nil } ?? 0
            let slice = playlist.dropFirst(page * size).prefix(size)
            let items = slice.enumerated().map { offset, upload in
                """
                {"kind":"youtube#playlistItem","etag":"e","id":"item-\(upload.id)","snippet":{"publishedAt":"\(upload.published)","channelId":"\(channel)",\
                "title":"\(upload.title)","description":"","playlistId":"\(playlistID)","position":\(page * size + offset),"resourceId":{"kind":"youtube#video","videoId":"\(upload.id)"}},\
                "contentDetails":{"videoId":"\(upload.id)","videoPublishedAt":"\(upload.published)"}}
                """
            }
            let next = (page + 1) * size < playlist.count ? "\"nextPageToken\":\"p\(page + 1)\"," : ""
            return .json("""
                {"kind":"youtube#playlistItemListResponse","etag":"e",\(next)"items":[\(items.joined(separator: ","))],\
                "pageInfo":{"totalResults":\(playlist.count),"resultsPerPage":\(size)}}
                """)
        }
    }

    /// A `videoListResponse` of `part=contentDetails`: each video with its `duration` as given
    /// (nil leaves it out).
    public static func videoLengthList(_ videos: [(id: String, duration: String?)]) -> String {
        let items = videos.map { video in
            let duration = video.duration.map { "\"duration\":\(quoted($0))," } ?? ""
            return "{\"kind\":\"youtube#video\",\"etag\":\"e\",\"id\":\(quoted(video.id)),\"contentDetails\":{\(duration)\"dimension\":\"2d\",\"definition\":\"hd\",\"caption\":\"false\",\"licensedContent\":true,\"contentRating\":{},\"projection\":\"rectangular\"}}"
        }
        return "{\"kind\":\"youtube#videoListResponse\",\"etag\":\"e\",\"items\":[\(items.joined(separator: ","))],\"pageInfo\":{\"totalResults\":\(videos.count),\"resultsPerPage\":\(videos.count)}}"
    }
}
