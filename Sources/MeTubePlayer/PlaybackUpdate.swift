import MeTubeCore

/// What a tracked player is doing, for a screen to show: sent on every reported property and
/// once more when the player has ended.
public struct PlaybackUpdate: Sendable, Equatable {
    /// The video playing.
    public var videoID: String
    /// The live position, when reported.
    public var seconds: Double?
    /// The length, when reported.
    public var duration: Double?
    /// Whether playback is paused.
    public var isPaused: Bool
    /// The position saved durably with this update, if one was.
    public var saved: PlaybackPosition? = nil
    /// The watched mark made durably with this update, if one was.
    public var mark: Mark? = nil
    /// Set once, when the player has ended and its last position is saved.
    public var outcome: PlaybackOutcome? = nil

    /// An update.
    public init(
        videoID: String, seconds: Double?, duration: Double?, isPaused: Bool, saved: PlaybackPosition? = nil, mark: Mark? = nil,
        outcome: PlaybackOutcome? = nil
    ) {
        self.videoID = videoID
        self.seconds = seconds
        self.duration = duration
        self.isPaused = isPaused
        self.saved = saved
        self.mark = mark
        self.outcome = outcome
    }
}

/// How one tracked playback ended, and what it saved.
public struct PlaybackOutcome: Sendable, Equatable {
    /// The last position saved, if any.
    public var savedPosition: PlaybackPosition?
    /// Whether the playback marked the video watched.
    public var markedWatched: Bool
    /// How mpv ended.
    public var ending: MPVEnding
    /// Saves the store refused (a full disk, a lock held too long), as messages.
    public var saveFailures: [String]

    /// An outcome.
    public init(savedPosition: PlaybackPosition?, markedWatched: Bool, ending: MPVEnding, saveFailures: [String]) {
        self.savedPosition = savedPosition
        self.markedWatched = markedWatched
        self.ending = ending
        self.saveFailures = saveFailures
    }

    /// Why the video did not play, when the player ended with an error before reporting any
    /// position (a URL it cannot play, a bad option).
    public var failure: String? {
        guard savedPosition == nil, !ending.killedBySignal, ending.status != 0 else { return nil }
        return "the player exited with status \(ending.status) before playing; check [tui] open and that mpv can play the video"
    }

    /// One line for the user: what was saved and how the player ended.
    public var summary: String {
        var parts: [String] = []
        if let failure { return failure }
        if let position = savedPosition {
            var saved = "position \(PlaybackText.clock(position.seconds))"
            if let duration = position.duration { saved += " of \(PlaybackText.clock(duration))" }
            if let fraction = position.fraction { saved += " (\(Int((fraction * 100).rounded(.down)))%)" }
            parts.append("saved \(saved)")
        } else {
            parts.append("no position saved")
        }
        if markedWatched { parts.append("marked watched") }
        if ending.killedBySignal { parts.append("the player was ended by signal \(ending.status)") }
        if ending.garbageLines > 0 { parts.append("\(ending.garbageLines) unreadable IPC line(s) ignored") }
        parts += saveFailures.prefix(1).map { "could not save: \($0)" }
        return parts.joined(separator: "; ")
    }
}
