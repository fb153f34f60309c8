import Foundation
import MeTubeCore
import MeTubeFeeds

extension YTDLPCatalog {
    /// The channel `link` names, asked of yt-dlp for the channel id only: a video with
    /// `--print channel_id` (one line), a handle, custom name or user with `--dump-single-json
    /// --flat-playlist --playlist-items 0` (the channel tab's info-dict without entries). yt-dlp
    /// saying the channel or video does not exist throws ``YouTubeError/notFound(_:)``.
    public func channelID(of link: ChannelLink) async throws(YouTubeError) -> String {
        let common = ["--ignore-config", "--no-warnings"]
        let channelID: String?
        do {
            if case .video = link {
                let output = try await output(common + ["--print", "channel_id", "--", link.url])
                channelID = String(decoding: output.prefix(256), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            } else {
                let answer = try await json(common + ["--dump-single-json", "--flat-playlist", "--playlist-items", "0", "--", link.url])
                channelID = answer["channel_id"]?.string
            }
        } catch let .failed(_, lastLine) where Self.saysMissing(lastLine) {
            throw .notFound(link.description)
        }
        guard let channelID, MeTubeCore.ChannelID.isValid(channelID) else {
            throw .garbage("yt-dlp printed no valid channel id for \(link.description)")
        }
        return channelID
    }

    /// Whether yt-dlp's last error line says the channel or video does not exist.
    static func saysMissing(_ line: String) -> Bool {
        ["does not exist", "404", "Video unavailable", "This video is unavailable", "is not a valid URL"].contains { line.contains($0) }
    }
}
