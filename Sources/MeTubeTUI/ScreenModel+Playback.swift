import MeTubeCore
import MeTubePlayer

/// A question waiting for `y` (resume at ``startSeconds``) or `n` (start over).
public struct ResumeQuestion: Sendable, Equatable {
    /// The video to play.
    public var videoID: String
    /// Where a resume starts.
    public var startSeconds: Double
}

extension ScreenModel {
    /// Opens `video` in a tracked mpv: at the saved position less the rewind (after asking when
    /// `resume = "ask"`), marking it at once when `mark-on-open = "always"`.
    mutating func playTracked(_ video: Video, _ player: PlayerSettings) -> [Effect] {
        if playing[video.id] != nil {
            message = FooterMessage(text: "\(video.id) is already playing", isError: false)
            return []
        }
        let start = player.policy.resume == .never ? nil : player.policy.resumeSeconds(for: library.playbackPositions[video.id])
        if let start, player.policy.resume == .ask {
            resumeQuestion = ResumeQuestion(videoID: video.id, startSeconds: start)
            message = FooterMessage(text: "resume at \(PlaybackText.clock(start))? y resumes, n starts over, Esc cancels", isError: false)
            return []
        }
        return startPlaying(video.id, at: start)
    }

    /// Takes the answer to ``resumeQuestion``.
    mutating func answerResume(_ key: Key) -> [Effect] {
        guard let question = resumeQuestion else { return [] }
        resumeQuestion = nil
        switch key.name {
        case "y", "Y", "Enter": return startPlaying(question.videoID, at: question.startSeconds)
        case "n", "N": return startPlaying(question.videoID, at: nil)
        default:
            message = FooterMessage(text: "not played", isError: false)
            return []
        }
    }

    /// Starts the tracked player on `videoID` from `start` (the beginning when `nil`).
    mutating func startPlaying(_ videoID: String, at start: Double?) -> [Effect] {
        message = FooterMessage(text: start.map { "playing \(videoID) from \(PlaybackText.clock($0))" } ?? "playing \(videoID)", isError: false)
        playing[videoID] = PlaybackUpdate(videoID: videoID, seconds: start, duration: nil, isPaused: false)
        let marks = player?.marksAtStart == true ? markVideo(videoID, as: .watched) : []
        return marks + [.play(videoID: videoID, startSeconds: start)]
    }

    /// Takes what a tracked player reported: the live position, a saved position or a watched
    /// mark (already durable), and at the end, what was saved.
    mutating func applyPlayback(_ update: PlaybackUpdate) -> [Effect] {
        if let saved = update.saved {
            library.apply(saved)
            VideoFlags.updateProgress(of: saved.videoID, in: &videoFlags, library: library)
        }
        if let mark = update.mark { setMark(mark) }
        guard let outcome = update.outcome else {
            playing[update.videoID] = update
            return []
        }
        playing[update.videoID] = nil
        message = FooterMessage(text: "\(update.videoID): \(outcome.summary)", isError: outcome.failure != nil || !outcome.saveFailures.isEmpty)
        if query.filter == .inProgress { rebuildRows() }
        return []
    }

    /// What the progress column shows for `videoID`: the live position while it plays (`▶ 12:34`),
    /// else the saved share (`◔ 42%`, `◑`, `◕`) or position, or `nil` when there is none.
    public func progressText(of videoID: String) -> String? {
        if let live = playing[videoID] {
            let glyph = live.isPaused ? (unicode ? "⏸" : "=") : (unicode ? "▶" : ">")
            return "\(glyph) \(PlaybackText.clock(live.seconds ?? 0))"
        }
        guard let position = library.playbackPositions[videoID], position.seconds > 0,
              library.marks[videoID]?.status != .watched else { return nil }
        let duration = position.duration ?? library.video(videoID)?.duration.map(Double.init)
        guard let duration, duration > 0 else { return "\(unicode ? "◔" : "@") \(PlaybackText.clock(position.seconds))" }
        let fraction = min(1, position.seconds / duration)
        let percent = min(99, Int((fraction * 100).rounded(.down)))
        let glyph = unicode ? (fraction < 0.5 ? "◔" : fraction < 0.75 ? "◑" : "◕") : "@"
        return "\(glyph) \(percent)%"
    }
}
