/// One part of a video that SponsorBlock's users marked for skipping, in the video's own seconds.
public struct SponsorSegment: Sendable, Hashable, Codable {
    /// The categories metube skips, as SponsorBlock names them; any other category is dropped.
    public static let categories = ["sponsor", "selfpromo", "interaction", "intro", "outro", "preview", "music_offtopic", "filler"]
    /// The most segments kept for one video.
    public static let maxCount = 100
    /// Segments shorter than this are dropped: there is nothing to skip.
    public static let minLength = 0.5

    /// Where the segment starts.
    public var start: Double
    /// Where it ends; playback resumes here.
    public var end: Double
    /// One of ``categories``.
    public var category: String

    /// A segment from `start` to `end` of `category`, as given (see ``screened(_:categories:duration:)``).
    public init(start: Double, end: Double, category: String) {
        self.start = start
        self.end = end
        self.category = category
    }

    /// `candidates` made safe to skip: only finite times in range, `start < end`, at least
    /// ``minLength`` long, of one of `categories` (and of ``categories``), starting before
    /// `duration` when it is known and cut at it; overlapping segments merged into one (named
    /// after the first); sorted, and at most ``maxCount``.
    public static func screened(_ candidates: some Sequence<SponsorSegment>, categories: [String], duration: Double?) -> [SponsorSegment] {
        let wanted = Set(categories).intersection(Self.categories)
        let limit = duration.flatMap(PlaybackPosition.checked).flatMap { $0 > 0 ? $0 : nil } ?? PlaybackPosition.maxSeconds
        var kept: [SponsorSegment] = []
        for candidate in candidates where wanted.contains(candidate.category) {
            guard let start = PlaybackPosition.checked(candidate.start), let end = PlaybackPosition.checked(candidate.end),
                  start < limit else { continue }
            let cut = min(end, limit)
            guard cut - start >= minLength else { continue }
            kept.append(SponsorSegment(start: start, end: cut, category: candidate.category))
        }
        kept.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        var merged: [SponsorSegment] = []
        for segment in kept {
            if let last = merged.last, segment.start <= last.end {
                merged[merged.count - 1].end = max(last.end, segment.end)
            } else {
                merged.append(segment)
                if merged.count > maxCount { merged.removeLast(); break }
            }
        }
        return merged
    }

    /// What the player's OSD says once the segment is skipped: `skipped sponsor 0:32–1:15`.
    public var skipMessage: String {
        "skipped \(category) \(DurationText.format(Int(start)))–\(DurationText.format(Int(end)))"
    }
}
