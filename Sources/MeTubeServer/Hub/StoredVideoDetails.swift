import MeTubeCore

/// What the hub holds of a known video, to decide what a newly read copy changes.
///
/// A changed title, availability or description gives the row a fresh `seq`, so clients receive it again. View
/// and rating counts and the thumbnail are refreshed in place (no fresh `seq`, so clients see the
/// figures of when they last received the row): counts change on nearly every poll, and
/// re-sequencing for them would send every recent video to every client again and again. A
/// count is refreshed when it was unknown or moved by at least a tenth, so that polls do not
/// rewrite every row (and empty the page cache) for a few more views.
public struct StoredVideoDetails: Sendable, Equatable {
    /// How a newly read copy changes a known row.
    public enum Change: Sendable, Equatable {
        /// Nothing worth writing.
        case none
        /// Counts or the thumbnail, written in place.
        case refresh
        /// Title, availability or description: stored under a fresh `seq`.
        case resequence
    }

    /// The stored title.
    public var title: String
    /// The stored availability: NULL (nil) for available.
    public var availability: String?
    /// The stored description, nil when no copy had one.
    public var description: String?
    /// The stored thumbnail, nil when no copy had one.
    public var thumbnailURL: String?
    /// The stored view count, nil when no copy had one.
    public var views: Int?
    /// The stored rating count, nil when no copy had one.
    public var starRatings: Int?
    /// The stored scheduled start, seconds since 1970.
    public var scheduledStart: Double?
    /// Whether the Data API gave the stored availability (see ``FeedAvailabilityPrecedence``).
    public var checkedByDataAPI: Bool

    /// Details as stored.
    public init(
        title: String, availability: String?, description: String?, thumbnailURL: String?, views: Int?, starRatings: Int?,
        scheduledStart: Double? = nil, checkedByDataAPI: Bool = false
    ) {
        self.title = title
        self.availability = availability
        self.description = description
        self.thumbnailURL = thumbnailURL
        self.views = views
        self.starRatings = starRatings
        self.scheduledStart = scheduledStart
        self.checkedByDataAPI = checkedByDataAPI
    }

    /// `video`, read again from a feed, with the availability the hub keeps for it
    /// (``FeedAvailabilityPrecedence``).
    func reconciled(_ video: Video) -> Video {
        var video = video
        (video.availability, video.scheduledStart) = FeedAvailabilityPrecedence.resolve(
            incoming: video, stored: availability, storedStart: scheduledStart, checkedByDataAPI: checkedByDataAPI)
        return video
    }

    /// What `video`, read again, changes. Fields `video` lacks (a WebSub push has no description
    /// or counts) change nothing.
    public func change(to video: Video) -> Change {
        if video.title != title || video.storedAvailability != availability { return .resequence }
        if let text = video.description, text != description { return .resequence }
        if let url = video.thumbnailURL, url != thumbnailURL { return .refresh }
        return Self.moved(views, to: video.views) || Self.moved(starRatings, to: video.starRatings) ? .refresh : .none
    }

    private static func moved(_ old: Int?, to new: Int?) -> Bool {
        guard let new else { return false }
        guard let old else { return true }
        return abs(new - old) * 10 >= max(old, 1)
    }
}
