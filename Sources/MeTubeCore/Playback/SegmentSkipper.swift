/// Decides, from the positions a player reports, when to skip a ``SponsorSegment``: entering a
/// segment skips it to its end, once per playback, so a segment the user seeks back into plays.
/// A pure value: the player session feeds it positions and carries out the skips.
public struct SegmentSkipper: Sendable, Equatable {
    /// How close to a segment's end a position may be and still be skipped; nearer, playback is
    /// let run out of it.
    public static let endMargin = 0.25

    /// The segments in force, screened and sorted.
    public private(set) var segments: [SponsorSegment]
    /// Segments already skipped this playback; entering one again plays it.
    private var passed: Set<SponsorSegment> = []

    /// A skipper for `segments` (already screened, see ``SponsorSegment/screened(_:categories:duration:)``).
    public init(segments: [SponsorSegment] = []) {
        self.segments = segments
    }

    /// Replaces the segments (fetched while the video played); those already skipped stay skipped.
    public mutating func use(_ segments: [SponsorSegment]) {
        self.segments = segments
    }

    /// Takes one reported position; returns the segment to skip to the end of, if any.
    public mutating func observe(seconds: Double) -> SponsorSegment? {
        guard let segment = segments.first(where: { $0.start <= seconds && seconds < $0.end - Self.endMargin }),
              passed.insert(segment).inserted else { return nil }
        return segment
    }
}
