/// Follows one playing video and decides, from what the player reports, when to save its
/// position and when it becomes watched. A pure value: the player session feeds it properties
/// and carries out its decisions.
public struct PlaybackTracker: Sendable, Equatable {
    /// What the tracker wants done.
    public enum Decision: Sendable, Equatable {
        /// Save this position durably.
        case save(seconds: Double, duration: Double?)
        /// Mark the video watched (once per playback).
        case markWatched
    }

    /// The video being played.
    public let videoID: String
    /// The rules in force.
    public let policy: PlaybackPolicy
    /// The last position the player reported.
    public private(set) var seconds: Double?
    /// The length: the one the feed knew, else the one the player reported (which, for a stream,
    /// may grow while it plays).
    public private(set) var duration: Double?
    private let knownDuration: Double?
    /// Whether the player is paused.
    public private(set) var isPaused = false
    /// Whether the end of the file was reached.
    public private(set) var reachedEnd = false
    /// Whether this playback already marked the video watched.
    public private(set) var markedWatched = false
    /// The position saved last, if any.
    public private(set) var savedSeconds: Double?

    /// A tracker for `videoID`; `knownDuration` is the length the feed gave, if any.
    public init(videoID: String, policy: PlaybackPolicy, knownDuration: Double? = nil) {
        self.videoID = videoID
        self.policy = policy
        self.knownDuration = knownDuration.flatMap(PlaybackPosition.checked).flatMap { $0 > 0 ? $0 : nil }
        duration = self.knownDuration
    }

    /// Takes one reported value; returns what to do about it.
    public mutating func observe(_ property: PlayerProperty) -> [Decision] {
        switch property {
        case .timePosition(let value):
            seconds = duration.map { min(value, $0) } ?? value
            guard let seconds, !isPaused else { return watchedDecision() }
            let due = savedSeconds.map { abs(seconds - $0) >= PlaybackPolicy.saveInterval } ?? (seconds >= PlaybackPolicy.saveInterval)
            return (due ? save() : []) + watchedDecision()
        case .duration(let value):
            guard knownDuration == nil else { return [] }
            duration = value
            if let current = seconds, current > value { seconds = value }
            return watchedDecision()
        case .paused(let paused):
            defer { isPaused = paused }
            return paused && !isPaused ? save() : []
        case .endOfFile(let reached):
            guard reached else { return [] }
            reachedEnd = true
            if let duration { seconds = duration }
            return watchedDecision()
        }
    }

    /// The player ended (exited, crashed or was killed): save the last known position.
    public mutating func finish() -> [Decision] {
        save() + watchedDecision()
    }

    /// Saves the current position unless it is the one saved last.
    private mutating func save() -> [Decision] {
        guard let seconds, savedSeconds != seconds else { return [] }
        savedSeconds = seconds
        return [.save(seconds: seconds, duration: duration)]
    }

    private mutating func watchedDecision() -> [Decision] {
        guard policy.marksWatched, !markedWatched,
              policy.isWatched(seconds: seconds ?? 0, duration: duration, endOfFile: reachedEnd) else { return [] }
        markedWatched = true
        return [.markWatched]
    }
}
