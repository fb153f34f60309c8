import Foundation

/// One upload of a followed channel.
public struct Video: Codable, Sendable, Hashable, Identifiable {
    /// The YouTube video id.
    public var id: String
    /// The uploading channel's id.
    public var channelID: String
    /// The video's title.
    public var title: String
    /// When the video was published.
    public var published: Date
    /// Length in seconds, when a source knew it.
    public var duration: Int?
    /// The feed's description text, when a source provided one.
    public var description: String?
    /// The thumbnail image, when a source provided one.
    public var thumbnailURL: String?
    /// The hub's global sequence number for this row, when it came from a hub.
    public var hubSeq: Int64?
    /// Whether the source linked it as a Short (`/shorts/` URL).
    public var isShortLink: Bool

    /// Creates a video.
    public init(
        id: String, channelID: String, title: String, published: Date, duration: Int? = nil,
        description: String? = nil, thumbnailURL: String? = nil, hubSeq: Int64? = nil, isShortLink: Bool = false
    ) {
        self.id = id
        self.channelID = channelID
        self.title = title
        self.published = published
        self.duration = duration
        self.description = description
        self.thumbnailURL = thumbnailURL
        self.hubSeq = hubSeq
        self.isShortLink = isShortLink
    }

    /// The watch page of this video.
    public var url: String { "https://www.youtube.com/watch?v=\(id)" }

    /// Whether this is a Short: under 60 seconds when the length is known, or linked as one.
    public var isShort: Bool {
        if let duration, duration > 0 { return duration < 60 || isShortLink }
        return isShortLink
    }
}
