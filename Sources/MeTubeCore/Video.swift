import Foundation

/// One upload of a followed channel.
///
/// Kept small in memory, as a library holds hundreds of thousands: a thumbnail at YouTube's usual
/// address for this video's id (`https://i<n>.ytimg.com/vi/<id>/<name>.jpg`) is held as two bytes,
/// and rebuilt, byte for byte, when read; any other address is held as it is. A video the store
/// loaded holds where its description lies on disk (``descriptionReference``), not the text.
public struct Video: Codable, Sendable, Hashable, Identifiable {
    /// The YouTube video id.
    public var id: String {
        didSet { thumbnail = Thumbnail(thumbnail.url(videoID: oldValue), videoID: id) }
    }
    /// The uploading channel's id.
    public var channelID: String
    /// The video's title.
    public var title: String
    /// When the video was published.
    public var published: Date
    /// Length in seconds, when a source knew it.
    public var duration: Int?
    /// ``views`` as an ``ExactCount``: seven bytes in the hole the layout leaves after ``duration``
    /// (an `Int?` is nine bytes, and ``hubSeq`` is aligned to eight), so it costs nothing.
    private var storedViews = ExactCount.unknown
    /// The feed's description text, when a source provided one and it is held in memory (a video
    /// the store loaded has a ``descriptionReference`` instead; ask the store for the text).
    public var description: String? {
        get { if case .text(let text) = storedDescription { text } else { nil } }
        set { storedDescription = newValue.map(StoredDescription.text) ?? .none }
    }
    /// The hub's global sequence number for this row, when it came from a hub.
    public var hubSeq: Int64?
    /// Whether a source said it is a Short: a `/shorts/` URL, or the channel's Shorts feed
    /// listing it (``ShortsFeed``).
    public var isShortLink: Bool
    /// Whether it can be watched now, as its sources last said (one byte, held beside
    /// ``isShortLink`` where the layout had room).
    public var availability: Availability
    /// The scheduled start in whole seconds since 1970, 0 when unknown: four bytes that fit in the
    /// layout's padding, where a `Date?` would add eight.
    private var scheduledStartSeconds: UInt32
    private var thumbnail: Thumbnail
    private var storedDescription: StoredDescription
    /// ``starRatings`` as an ``ExactCount``: seven bytes in the padding at the end of the layout
    /// (`Int?` would add sixteen). Both counts are exact: the screen may round them, nothing
    /// stored or printed as JSON does.
    private var storedStarRatings = ExactCount.unknown

    /// Creates a video.
    public init(
        id: String, channelID: String, title: String, published: Date, duration: Int? = nil,
        description: String? = nil, thumbnailURL: String? = nil, hubSeq: Int64? = nil, isShortLink: Bool = false,
        availability: Availability = .available, scheduledStart: Date? = nil, views: Int? = nil, starRatings: Int? = nil
    ) {
        self.id = id
        self.channelID = channelID
        self.title = title
        self.published = published
        self.duration = duration
        storedDescription = description.map(StoredDescription.text) ?? .none
        self.hubSeq = hubSeq
        self.isShortLink = isShortLink
        self.availability = availability
        scheduledStartSeconds = Self.seconds(of: scheduledStart)
        thumbnail = Thumbnail(thumbnailURL, videoID: id)
        self.views = views
        self.starRatings = starRatings
    }

    /// How many times it was viewed, as the feed said when last read (`media:statistics`), exactly;
    /// nil when unknown or outside `FeedLimits.count`'s range (negative or above 2^53 − 1).
    public var views: Int? {
        get { storedViews.value }
        set { storedViews = ExactCount(FeedLimits.count(newValue)) }
    }

    /// How many people rated it, as the feed said when last read (`media:starRating`'s count),
    /// exactly; nil when unknown or out of range.
    public var starRatings: Int? {
        get { storedStarRatings.value }
        set { storedStarRatings = ExactCount(FeedLimits.count(newValue)) }
    }

    /// When a premiere or stream is scheduled to start, when a source said so; held to the whole
    /// second, and only between 1970 and 2106 (a start outside is a source's error and reads as
    /// unknown).
    public var scheduledStart: Date? {
        get { scheduledStartSeconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(scheduledStartSeconds)) }
        set { scheduledStartSeconds = Self.seconds(of: newValue) }
    }

    private static func seconds(of date: Date?) -> UInt32 {
        guard let seconds = date?.timeIntervalSince1970.rounded(.down), seconds >= 1, seconds <= TimeInterval(UInt32.max) else { return 0 }
        return UInt32(seconds)
    }

    /// Whether lists that promise something to watch leave this video out at `now`: upcoming or
    /// gone; an upcoming video whose start (or publication) lies long past counts as available,
    /// so no source's silence hides a video for good.
    public func isHiddenFromLists(now: Date) -> Bool {
        switch availability {
        case .upcoming: !ScheduledStart.isStale(scheduledStart, published: published, now: now)
        case .gone, .privateVideo: true
        case .available, .live, .membersOnly: false
        }
    }

    /// The thumbnail image, when a source provided one.
    public var thumbnailURL: String? {
        get { thumbnail.url(videoID: id) }
        set { thumbnail = Thumbnail(newValue, videoID: id) }
    }

    /// Where the store keeps this video's description, when it holds a reference rather than the
    /// text.
    public var descriptionReference: DescriptionReference? {
        get { if case .stored(let reference) = storedDescription { reference } else { nil } }
        set { storedDescription = newValue.map(StoredDescription.stored) ?? .none }
    }

    /// Whether a source provided a description (held as text or as a reference).
    public var hasDescription: Bool {
        if case .none = storedDescription { false } else { true }
    }

    /// Takes the description (text or reference) of `other` when this video has none: a hub row
    /// has no description, and must not lose the one a feed gave.
    public mutating func keepDescription(of other: Video) {
        if !hasDescription { storedDescription = other.storedDescription }
    }

    /// The watch page of this video.
    public var url: String { "https://www.youtube.com/watch?v=\(id)" }

    /// Whether this is a Short: under 60 seconds when the length is known, or linked as one.
    public var isShort: Bool {
        if let duration, duration > 0 { return duration < 60 || isShortLink }
        return isShortLink
    }

    /// The keys of a video's JSON object in the store's files and backups: the one place they
    /// are spelled, used by this type's `Codable` conformance and by the store's own reader and writer.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case id, channelID, title, published, duration, description, thumbnailURL, hubSeq, isShortLink, availability, scheduledStart
        case views, starRatings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), channelID: try container.decode(String.self, forKey: .channelID),
            title: try container.decode(String.self, forKey: .title), published: try container.decode(Date.self, forKey: .published),
            duration: try container.decodeIfPresent(Int.self, forKey: .duration),
            description: try container.decodeIfPresent(String.self, forKey: .description),
            thumbnailURL: try container.decodeIfPresent(String.self, forKey: .thumbnailURL),
            hubSeq: try container.decodeIfPresent(Int64.self, forKey: .hubSeq), isShortLink: try container.decode(Bool.self, forKey: .isShortLink),
            availability: Availability(wire: try container.decodeIfPresent(String.self, forKey: .availability)),
            scheduledStart: try container.decodeIfPresent(Date.self, forKey: .scheduledStart),
            views: try container.decodeIfPresent(Int.self, forKey: .views), starRatings: try container.decodeIfPresent(Int.self, forKey: .starRatings)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(channelID, forKey: .channelID)
        try container.encode(title, forKey: .title)
        try container.encode(published, forKey: .published)
        try container.encodeIfPresent(duration, forKey: .duration)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(thumbnailURL, forKey: .thumbnailURL)
        try container.encodeIfPresent(hubSeq, forKey: .hubSeq)
        try container.encode(isShortLink, forKey: .isShortLink)
        if availability != .available { try container.encode(availability, forKey: .availability) }
        try container.encodeIfPresent(scheduledStart, forKey: .scheduledStart)
        try container.encodeIfPresent(views, forKey: .views)
        try container.encodeIfPresent(starRatings, forKey: .starRatings)
    }
}

/// A video's description: the text, or where the store keeps it.
private enum StoredDescription: Sendable, Hashable {
    case none
    case text(String)
    case stored(DescriptionReference)
}

/// A video's thumbnail address, compact when it is one of YouTube's (``YouTubeThumbnail``) for the
/// video's id with a one-digit host or none and one of the usual ``names``.
private enum Thumbnail: Sendable, Hashable {
    case none
    /// ``YouTubeThumbnail/address(videoID:name:host:)`` of `names[name]` on `host`, a digit, or
    /// ``noDigit`` for `https://i.ytimg.com/…`.
    case youTube(host: UInt8, name: UInt8)
    case other(String)

    private static let noDigit: UInt8 = 0xFF
    private static let names = ["hqdefault", "mqdefault", "default", "sddefault", "maxresdefault", "hq720", "0", "1", "2", "3"]
    private static let fileNames = names.map { Array("\($0).jpg".utf8) }

    init(_ url: String?, videoID: String) {
        guard let url else { self = .none; return }
        self = Self.compact(url, videoID: videoID) ?? .other(url)
    }

    private static let prefix = Array("https://i".utf8)
    private static let middle = Array(".ytimg.com/vi/".utf8)

    /// The two-byte form of `url`, when ``url(videoID:)`` rebuilds exactly its bytes.
    private static func compact(_ url: String, videoID: String) -> Thumbnail? {
        var (url, videoID) = (url, videoID)
        return url.withUTF8 { url in videoID.withUTF8 { videoID in compact(url, videoID: videoID) } }
    }

    /// ``compact(_:videoID:)`` over the bytes: what ``url(videoID:)`` would build, compared part
    /// by part without building it (a sync makes a video of every feed entry).
    private static func compact(_ url: UnsafeBufferPointer<UInt8>, videoID: UnsafeBufferPointer<UInt8>) -> Thumbnail? {
        var position = 0
        func take(_ part: UnsafeBufferPointer<UInt8>) -> Bool {
            guard url.count - position >= part.count, UnsafeBufferPointer(rebasing: url[position..<(position + part.count)]).elementsEqual(part) else { return false }
            position += part.count
            return true
        }
        guard prefix.withUnsafeBufferPointer(take), position < url.count else { return nil }
        let first = url[position]
        let host = first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") ? first - UInt8(ascii: "0") : noDigit
        if host != noDigit { position += 1 }
        guard middle.withUnsafeBufferPointer(take), take(videoID), position < url.count, url[position] == UInt8(ascii: "/") else { return nil }
        let file = UnsafeBufferPointer(rebasing: url[(position + 1)...])
        guard let index = fileNames.firstIndex(where: { file.elementsEqual($0) }) else { return nil }
        return .youTube(host: host, name: UInt8(index))
    }

    func url(videoID: String) -> String? {
        switch self {
        case .none: nil
        case .other(let url): url
        case .youTube(let host, let name):
            YouTubeThumbnail.address(videoID: videoID, name: Self.names[Int(name)], host: host == Self.noDigit ? nil : Int(host))
        }
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
