import Foundation
import MeTubeCore
import MeTubeFeeds

/// `metube show`'s details of one video, as JSON (the field names) and as text (``text``).
struct ShowOutput: Encodable {
    /// One chapter of the description.
    struct Chapter: Encodable {
        var startSeconds: Int
        var title: String
    }

    var videoId: String
    var channelId: String
    var channelTitle: String
    var title: String
    var published: Date
    var durationSeconds: Int?
    var isShort: Bool
    var url: String
    var thumbnailUrl: String?
    var views: Int?
    var starRatings: Int?
    var status: WatchStatus?
    var syncState: SyncState?
    var positionSeconds: Double?
    var description: String?
    var chapters: [Chapter]
    var links: [String]

    init(_ video: Video, library: Library, description: String?) {
        let mark = library.marks[video.id]
        let outline = DescriptionOutline(description ?? "")
        videoId = video.id
        channelId = video.channelID
        channelTitle = library.channels[video.channelID]?.displayName ?? video.channelID
        title = video.title
        published = video.published
        durationSeconds = video.duration
        isShort = video.isShort
        url = video.url
        thumbnailUrl = video.thumbnailURL
        views = video.views
        starRatings = video.starRatings
        status = mark?.status
        syncState = mark?.syncState
        positionSeconds = library.playbackPositions[video.id]?.seconds
        self.description = description
        chapters = outline.chapters.map { Chapter(startSeconds: $0.start, title: $0.title) }
        links = outline.links
    }

    /// The details as lines of text, every value made safe for the terminal.
    var text: String {
        var lines = [DisplayText.line(title), "\(DisplayText.line(channelTitle)) · \(ISO8601Timestamp.format(published))" + (durationSeconds.map { " · " + DurationText.format($0) } ?? "")]
        let counts = [views.map { "\($0) views" }, starRatings.map { "\($0) ratings" }].compactMap { $0 }
        if !counts.isEmpty { lines.append(counts.joined(separator: " · ")) }
        if let status { lines.append([status.rawValue, syncState?.rawValue].compactMap { $0 }.joined(separator: " · ")) }
        if let positionSeconds { lines.append("stopped at \(DurationText.format(Int(positionSeconds)))") }
        lines.append(url)
        if let description, !description.isEmpty {
            lines.append("")
            lines += description.split(separator: "\n", omittingEmptySubsequences: false).prefix(2_000).map { DisplayText.line($0, limit: 2_000) }
        }
        if !chapters.isEmpty {
            lines.append("")
            lines.append("Chapters:")
            lines += chapters.map { "  \(DurationText.format($0.startSeconds))  \(DisplayText.line($0.title))" }
        }
        if !links.isEmpty {
            lines.append("")
            lines.append("Links:")
            lines += links.map { "  " + DisplayText.line($0, limit: 2_048) }
        }
        return lines.joined(separator: "\n")
    }
}
