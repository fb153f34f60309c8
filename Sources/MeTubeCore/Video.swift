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

/// Validation of YouTube video ids.
public enum VideoID {
    /// Whether `text` is a video id: 11 characters of `[A-Za-z0-9_-]`.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 11 && text.utf8.allSatisfy(ChannelID.isIDByte)
    }

    /// Finds a video id in a watch, short or youtu.be URL, or a bare id; `nil` when there is none.
    public static func extract(from text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if isValid(trimmed) { return trimmed }
        for marker in ["v=", "youtu.be/", "/shorts/", "/live/", "/embed/"] {
            guard let range = trimmed.range(of: marker) else { continue }
            let candidate = String(decoding: trimmed[range.upperBound...].utf8.prefix(while: ChannelID.isIDByte), as: UTF8.self)
            if isValid(candidate) { return candidate }
        }
        return nil
    }
}
