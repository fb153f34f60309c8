/// YouTube's own addresses of a video's thumbnail, `https://i<n>.ytimg.com/vi/<video id>/<name>.jpg`
/// (`<n>` a number or nothing; `<name>` the picture: `hqdefault`, `mqdefault`, …), as feeds give
/// them: the one rule for what such an address is and how one is built. A ``Video`` holds the
/// common ones in two bytes; the thumbnail fetch swaps any of them for the medium picture.
public enum YouTubeThumbnail {
    /// The address of `videoID`'s picture `name` on the host `i<host>.ytimg.com`, or `i.ytimg.com`
    /// when `host` is nil.
    public static func address(videoID: String, name: String, host: Int? = nil) -> String {
        "https://i\(host.map(String.init) ?? "").ytimg.com/vi/\(videoID)/\(name).jpg"
    }

    /// Whether `url` is one of YouTube's addresses of a picture of `videoID`: any `<n>` and
    /// `<name>`, over https or http.
    public static func isAddress(_ url: String, of videoID: String) -> Bool {
        guard let rest = url.split(separator: "://", maxSplits: 1).last else { return false }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[1] == "vi", parts[2] == videoID, parts[3].hasSuffix(".jpg") else { return false }
        let host = parts[0]
        guard host.hasSuffix(".ytimg.com") else { return false }
        let name = host.dropLast(".ytimg.com".count)
        return name.first == "i" && name.dropFirst().allSatisfy(\.isNumber)
    }
}
