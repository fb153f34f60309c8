import Foundation
import MeTubeCore

/// One video of a channel's catalog as yt-dlp's flat playlist or the Data API's
/// `playlistItems.list` lists it: a valid id, a sanitized title, a length when the answer gave one.
public struct CatalogVideo: Sendable, Equatable {
    /// The longest length accepted, in seconds: 7 days, what the client accepts from a hub.
    public static let maxDurationSeconds = 7 * 86_400
    /// The longest title kept, in characters.
    public static let maxTitleLength = 300

    /// The 11-character video id.
    public var id: String
    /// The title as one line, nil when the answer gave none.
    public var title: String?
    /// The length in whole seconds (1 s … 7 days), nil when unknown (live, upcoming, not given).
    public var durationSeconds: Int?
    /// When it was published, when the answer said (between 2005 and a day from now).
    public var published: Date?

    /// A video; `title` is sanitized to one line, `published` kept only when believable.
    public init(id: String, title: String?, durationSeconds: Int?, published: Date? = nil) {
        self.id = id
        let line = title.map { DisplayText.line($0.trimmingCharacters(in: .whitespacesAndNewlines), limit: Self.maxTitleLength) }
        self.title = line?.isEmpty == false ? line : nil
        self.durationSeconds = durationSeconds
        self.published = published.flatMap { date in
            (Date(timeIntervalSince1970: 1_104_537_600)...Date().addingTimeInterval(86_400)).contains(date) ? date : nil
        }
    }

    /// `seconds` as a length when it is a finite number of 1 s … 7 days (fractions dropped); nil otherwise.
    static func duration(_ seconds: Double?) -> Int? {
        guard let seconds, seconds.isFinite, seconds >= 1, seconds <= Double(maxDurationSeconds) else { return nil }
        return Int(seconds)
    }
}

/// A channel's latest uploads, newest first, as one catalog call returned them.
public struct ChannelUploads: Sendable, Equatable {
    /// The channel's `UC…` id.
    public var channelID: String
    /// The videos, newest first, each id at most once.
    public var videos: [CatalogVideo]
    /// Entries dropped for an invalid id, a duplicate or the count bound.
    public var rejected: Int

    /// The uploads of `channelID`.
    public init(channelID: String, videos: [CatalogVideo], rejected: Int = 0) {
        self.channelID = channelID
        self.videos = videos
        self.rejected = rejected
    }
}

extension ChannelUploads {
    /// `uploads` (some of this answer's, in its order) as ordinary videos of the channel, titled
    /// by the answer or their id, and dated by the answer or, when it gives no date, a second
    /// apart in that order just before `anchor`.
    public func ordinaryVideos(_ uploads: some Sequence<CatalogVideo>, datedBefore anchor: Date) -> [Video] {
        uploads.enumerated().map { offset, upload in
            Video(id: upload.id, channelID: channelID, title: upload.title ?? upload.id,
                  published: upload.published ?? anchor.addingTimeInterval(-Double(offset + 1)), duration: upload.durationSeconds)
        }
    }
}
