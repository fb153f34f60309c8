import Foundation
import MeTubeCore

/// The sponsor segments fetched for one video, kept in the store so skipping works offline.
public struct SponsorSegmentRecord: Sendable, Equatable, Codable {
    /// The video.
    public var videoID: String
    /// When SponsorBlock was asked, in whole seconds (so it reads back as written).
    public var fetchedAt: Date
    /// The categories asked for; a change of `[sponsorblock] categories` asks again.
    public var categories: [String]
    /// The segments, screened (none when SponsorBlock knows of none).
    public var segments: [SponsorSegment]

    /// A record of `segments` for `videoID`, fetched at `fetchedAt` (to the second) for `categories`.
    public init(videoID: String, fetchedAt: Date, categories: [String], segments: [SponsorSegment]) {
        self.videoID = videoID
        self.fetchedAt = Date(timeIntervalSince1970: fetchedAt.timeIntervalSince1970.rounded(.down))
        self.categories = categories
        self.segments = segments
    }

    /// Whether the record answers for `categories` and is younger than `maxAge` at `now`.
    public func isCurrent(for categories: [String], maxAge: TimeInterval, now: Date = Date()) -> Bool {
        Set(self.categories) == Set(categories) && now.timeIntervalSince(fetchedAt) < maxAge && fetchedAt <= now.addingTimeInterval(60)
    }
}
