import MeTubeCore
import MeTubeFeeds

/// Turns links into channel ids the one way that is set: the Data API when there is a key, else
/// yt-dlp, else an error naming both ways.
public struct ChannelResolver: Sendable {
    /// The Data API client, when a key is set.
    public var dataAPI: YouTubeDataAPI?
    /// yt-dlp, when one is configured.
    public var ytDLP: YTDLPCatalog?
    /// How the two ways are set where this resolver runs (for ``YouTubeError/noResolver(key:ytDLP:)``).
    public var hints: (key: String, ytDLP: String)

    /// A resolver asking `dataAPI`, else `ytDLP`; `hints` name where each is set.
    public init(dataAPI: YouTubeDataAPI?, ytDLP: YTDLPCatalog?, hints: (key: String, ytDLP: String)) {
        self.dataAPI = dataAPI
        self.ytDLP = ytDLP
        self.hints = hints
    }

    /// The channel `link` names.
    public func channelID(of link: ChannelLink) async throws(YouTubeError) -> String {
        if let dataAPI { return try await dataAPI.channelID(of: link) }
        if let ytDLP { return try await ytDLP.channelID(of: link) }
        throw .noResolver(key: hints.key, ytDLP: hints.ytDLP)
    }
}
