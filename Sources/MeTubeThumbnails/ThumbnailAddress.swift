import MeTubeCore

/// Where a video's thumbnail is fetched from.
public enum ThumbnailAddress {
    /// The address to fetch for `videoID` whose feed gave `thumbnailURL`: one of YouTube's
    /// (``YouTubeThumbnail``) becomes its `mqdefault.jpg` (320×180, no letterbox bars); without an
    /// address, that one is assumed; other http(s) addresses are kept; anything else has no thumbnail.
    public static func fetchURL(thumbnailURL: String?, videoID: String) -> String? {
        guard let thumbnailURL else { return ThumbnailKey.isValid(videoID) ? youTube(videoID) : nil }
        guard thumbnailURL.hasPrefix("https://") || thumbnailURL.hasPrefix("http://"), thumbnailURL.utf8.count <= 2_048,
              !thumbnailURL.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { return nil }
        return YouTubeThumbnail.isAddress(thumbnailURL, of: videoID) ? youTube(videoID) : thumbnailURL
    }

    private static func youTube(_ videoID: String) -> String { YouTubeThumbnail.address(videoID: videoID, name: "mqdefault") }
}
