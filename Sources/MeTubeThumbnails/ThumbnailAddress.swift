/// Where a video's thumbnail is fetched from.
public enum ThumbnailAddress {
    /// The address to fetch for `videoID` whose feed gave `thumbnailURL`: YouTube's usual address
    /// (`https://i<n>.ytimg.com/vi/<id>/<name>.jpg`) becomes `mqdefault.jpg` (320×180, no letterbox
    /// bars); without an address, that one is assumed; other http(s) addresses are kept;
    /// anything else has no thumbnail.
    public static func fetchURL(thumbnailURL: String?, videoID: String) -> String? {
        guard let thumbnailURL else { return ThumbnailKey.isValid(videoID) ? youTube(videoID) : nil }
        guard thumbnailURL.hasPrefix("https://") || thumbnailURL.hasPrefix("http://"), thumbnailURL.utf8.count <= 2_048,
              !thumbnailURL.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { return nil }
        return isYouTubeAddress(thumbnailURL, videoID: videoID) ? youTube(videoID) : thumbnailURL
    }

    private static func youTube(_ videoID: String) -> String { "https://i.ytimg.com/vi/\(videoID)/mqdefault.jpg" }

    private static func isYouTubeAddress(_ url: String, videoID: String) -> Bool {
        guard let rest = url.split(separator: "://", maxSplits: 1).last else { return false }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[1] == "vi", parts[2] == videoID, parts[3].hasSuffix(".jpg") else { return false }
        let host = parts[0]
        guard host.hasSuffix(".ytimg.com") else { return false }
        let name = host.dropLast(".ytimg.com".count)
        return name.first == "i" && name.dropFirst().allSatisfy(\.isNumber)
    }
}
