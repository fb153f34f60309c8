import MeTubeCore
import MeTubeFeeds

extension YouTubeDataAPI {
    /// The channel `link` names, through `channels.list?part=id` with `forHandle` (a handle; a
    /// custom name is tried as a handle, which YouTube made of most of them, then as a user name)
    /// or `forUsername` (a legacy user), or `videos.list?part=snippet` (a video's
    /// `snippet.channelId`): one unit a call. An answer without a valid channel id throws
    /// ``YouTubeError/notFound(_:)``.
    public func channelID(of link: ChannelLink) async throws(YouTubeError) -> String {
        switch link {
        case let .handle(name):
            return try await channel(["forHandle": "@" + name], link: link)
        case let .customName(name):
            do {
                return try await channel(["forHandle": "@" + name], link: link)
            } catch .notFound {
                return try await channel(["forUsername": name], link: link)
            }
        case let .user(name):
            return try await channel(["forUsername": name], link: link)
        case let .video(id):
            let answer = try await list(VideoChannel.self, resource: "videos", query: ["part": "snippet", "id": id], ids: 1)
            guard let channelID = answer.items?.first(where: { $0.id == id })?.snippet?.channelId else { throw .notFound(link.description) }
            guard ChannelID.isValid(channelID) else { throw .garbage("videos.list answered an invalid channel id for \(id)") }
            return channelID
        }
    }

    /// The one channel `channels.list?part=id` answers for `query`.
    private func channel(_ query: [String: String], link: ChannelLink) async throws(YouTubeError) -> String {
        let answer = try await list(ChannelItemID.self, resource: "channels", query: query.merging(["part": "id"]) { given, _ in given }, ids: 0)
        guard let id = answer.items?.first?.id else { throw .notFound(link.description) }
        guard ChannelID.isValid(id) else { throw .garbage("channels.list answered an invalid channel id for \(link.description)") }
        return id
    }

    /// An item of `channels.list?part=id`.
    private struct ChannelItemID: Decodable, Sendable {
        var id: String
    }

    /// An item of `videos.list?part=snippet`, as far as its channel.
    private struct VideoChannel: Decodable, Sendable {
        struct Snippet: Decodable, Sendable { var channelId: String? }
        var id: String
        var snippet: Snippet?
    }
}
