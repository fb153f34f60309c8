import Foundation

extension YouTubeStub {
    /// Answers the Data API's `playlistItems.list` in Google's documented shape
    /// (`playlistItemListResponse`): the uploads playlist `UU…` of each channel of what `uploads`
    /// returns at the time lists its video ids, newest first, `maxResults` a page through `nextPageToken`; an unknown
    /// playlist is 404 `playlistNotFound`. Pass it as `override`; other paths fall through.
    /// `quotaSpent` answers 403 `quotaExceeded`.
    public static func uploading(_ uploads: @escaping @Sendable () -> [String: [String]], quotaSpent: @escaping @Sendable () -> Bool = { false }) -> @Sendable (Request, Int) -> Reply? {
        { request, _ in
            guard request.path == "/playlistItems", request.query["key"] != nil else { return nil }
            if quotaSpent() {
                return .json(apiError(status: 403, reason: "quotaExceeded", message: "The request cannot be completed because you have exceeded your quota."), status: 403)
            }
            let playlist = request.query["playlistId"] ?? ""
            guard playlist.hasPrefix("UU"), let videoIDs = uploads()["UC" + playlist.dropFirst(2)] else {
                return .json(apiError(status: 404, reason: "playlistNotFound", message: "The playlist identified with the request's playlistId parameter cannot be found."), status: 404)
            }
            let size = min(Int(request.query["maxResults"] ?? "5") ?? 5, 50)
            let page = request.query["pageToken"].flatMap { $0.hasPrefix("p") ? Int($0.dropFirst()) : nil } ?? 0
            let slice = Array(videoIDs.dropFirst(page * size).prefix(size))
            let next = (page + 1) * size < videoIDs.count ? "p\(page + 1)" : nil
            return .json(playlistItemsPage(playlist: playlist, videoIDs: slice, next: next, total: videoIDs.count))
        }
    }

    /// One `playlistItemListResponse` page of `part=snippet,contentDetails`.
    public static func playlistItemsPage(playlist: String, videoIDs: [String], next: String?, total: Int) -> String {
        let items = videoIDs.map { id in
            """
            {"kind":"youtube#playlistItem","etag":"e","id":"item-\(id)","snippet":{"publishedAt":"2026-10-01T12:00:00Z",\
            "channelId":"UC\(playlist.dropFirst(2))","title":"Upload \(id)","description":"","playlistId":"\(playlist)","position":0,\
            "resourceId":{"kind":"youtube#video","videoId":"\(id)"}},"contentDetails":{"videoId":"\(id)","videoPublishedAt":"2026-10-01T12:00:00Z"}}
            """
        }
        let nextField = next.map { "\"nextPageToken\":\"\($0)\"," } ?? ""
        return "{\"kind\":\"youtube#playlistItemListResponse\",\"etag\":\"e\",\(nextField)\"items\":[\(items.joined(separator: ","))],\"pageInfo\":{\"totalResults\":\(total),\"resultsPerPage\":50}}"
    }
}
