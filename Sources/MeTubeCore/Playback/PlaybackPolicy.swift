/// When opening a partly watched video resumes it.
public enum ResumeMode: String, CaseIterable, Sendable {
    /// Always start at the saved position (the default).
    case always
    /// Ask first.
    case ask
    /// Always start from the beginning.
    case never
}

/// The rules of tracked playback: where a video starts, when a position is saved, and when the
/// video counts as watched.
public struct PlaybackPolicy: Sendable, Equatable {
    /// Seconds of playback between two saves while playing.
    public static let saveInterval = 5.0

    /// Whether a partly watched video resumes.
    public var resume: ResumeMode
    /// Seconds before the saved position that a resume starts at.
    public var rewind: Double
    /// The share of the duration that marks a video watched, in `0.1...1`.
    public var watchedAt: Double
    /// Whether reaching ``watchedAt`` (or the end) marks the video watched (`mark-on-open` is not
    /// `never`).
    public var marksWatched: Bool

    /// A policy; values out of range are clamped.
    public init(resume: ResumeMode = .always, rewind: Double = 5, watchedAt: Double = 0.9, marksWatched: Bool = true) {
        self.resume = resume
        self.rewind = rewind.isFinite ? min(max(rewind, 0), 600) : 5
        self.watchedAt = watchedAt.isFinite ? min(max(watchedAt, 0.1), 1) : 0.9
        self.marksWatched = marksWatched
    }

    /// The position a resume of `saved` starts at: the saved seconds less the rewind, or `nil`
    /// (start at the beginning) when there is nothing to resume or the saved position is already
    /// at the watched share, so a finished video starts over.
    public func resumeSeconds(for saved: PlaybackPosition?) -> Double? {
        guard let saved, saved.seconds > 0 else { return nil }
        if let fraction = saved.fraction, fraction >= watchedAt { return nil }
        let start = max(0, saved.seconds - rewind)
        return start > 0 ? start : nil
    }

    /// Whether `seconds` of `duration`, or the end of the file, counts as watched.
    public func isWatched(seconds: Double, duration: Double?, endOfFile: Bool) -> Bool {
        if endOfFile { return true }
        guard let duration, duration > 0 else { return false }
        return seconds >= duration * watchedAt
    }
}
