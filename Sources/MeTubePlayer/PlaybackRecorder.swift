import Foundation
import MeTubeCore
import MeTubeStore
import Synchronization

/// Plays one video in mpv and records it: follows the player on a thread of its own, saves the
/// position durably as the ``PlaybackTracker`` decides (every 5 s of playback, on pause, when the
/// player ends however it ends) and marks the video watched by progress.
public final class PlaybackRecorder: Sendable {
    /// The video playing.
    public let videoID: String
    /// The player session.
    public let session: MPVSession
    private let outcome = Mutex<PlaybackOutcome?>(nil)
    private let skipper = Mutex(SegmentSkipper())
    private let finished = DispatchSemaphore(value: 0)

    private init(videoID: String, session: MPVSession) {
        self.videoID = videoID
        self.session = session
    }

    /// Starts mpv for `video` (its page, or the `localFile` when it has an offline copy) and
    /// begins recording. `onUpdate` is called from the recorder's thread with each change and
    /// once with the outcome. A player that fails to start throws and saves nothing.
    public static func start(
        video: Video, localFile: URL? = nil, store: Store, policy: PlaybackPolicy, command: MPVCommand, startSeconds: Double?,
        socketDirectory: URL, socketTimeout: Double = 10, onUpdate: @escaping @Sendable (PlaybackUpdate) -> Void = { _ in }
    ) throws(PlayerError) -> PlaybackRecorder {
        let session = try MPVSession.start(command: command, url: localFile?.path ?? video.url, startSeconds: startSeconds,
                                           socketDirectory: socketDirectory, socketTimeout: socketTimeout)
        let recorder = PlaybackRecorder(videoID: video.id, session: session)
        let knownDuration = video.duration.map(Double.init)
        let thread = Thread { recorder.record(store: store, policy: policy, knownDuration: knownDuration, onUpdate: onUpdate) }
        thread.name = "metube-player-\(video.id)"
        thread.start()
        return recorder
    }

    /// The outcome once the player has ended; `nil` while it plays.
    public var result: PlaybackOutcome? { outcome.withLock { $0 } }

    /// Waits until the player has ended and its last position is saved.
    public func waitUntilEnded() -> PlaybackOutcome {
        finished.wait()
        finished.signal()
        return result!
    }

    /// Asks mpv to quit and waits at most `seconds` for its last position to be saved; `nil`
    /// when it did not end in time.
    @discardableResult
    public func stop(waitingAtMost seconds: Double) -> PlaybackOutcome? {
        session.quit()
        guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
        finished.signal()
        return result
    }

    /// Skips `segments` from now on (the ones kept in the store, or fetched while the video
    /// plays); a segment already skipped is not skipped again.
    public func useSegments(_ segments: [SponsorSegment]) {
        skipper.withLock { $0.use(segments) }
    }

    /// Seeks past the segment `seconds` entered, if any, and says so on mpv's OSD. Positions stay
    /// the video's own: mpv reports the time after the seek.
    private func skipSegment(at seconds: Double) {
        guard let segment = skipper.withLock({ $0.observe(seconds: seconds) }) else { return }
        session.seek(to: segment.end)
        session.showText(segment.skipMessage)
    }

    private func record(store: Store, policy: PlaybackPolicy, knownDuration: Double?, onUpdate: @Sendable (PlaybackUpdate) -> Void) {
        var tracker = PlaybackTracker(videoID: videoID, policy: policy, knownDuration: knownDuration)
        var lastSaved: PlaybackPosition?
        var failures: [String] = []
        /// Writes the decisions as one journal line; returns what was written.
        func carryOut(_ decisions: [PlaybackTracker.Decision]) -> (PlaybackPosition?, Mark?) {
            guard !decisions.isEmpty else { return (nil, nil) }
            do {
                let written = try store.transaction { transaction -> (PlaybackPosition?, Mark?) in
                    var written: (PlaybackPosition?, Mark?) = (nil, nil)
                    for decision in decisions {
                        switch decision {
                        case let .save(seconds, duration): written.0 = transaction.savePosition(videoID, seconds: seconds, duration: duration)
                        case .markWatched: written.1 = transaction.mark(videoID, as: .watched)
                        }
                    }
                    return written
                }
                lastSaved = written.0 ?? lastSaved
                return written
            } catch {
                failures.append(error.description)
                return (nil, nil)
            }
        }
        func update(_ written: (PlaybackPosition?, Mark?), outcome: PlaybackOutcome? = nil) -> PlaybackUpdate {
            PlaybackUpdate(videoID: videoID, seconds: tracker.seconds, duration: tracker.duration, isPaused: tracker.isPaused,
                           saved: written.0, mark: written.1, outcome: outcome)
        }
        let ending = session.follow { property in
            if case .timePosition(let seconds) = property { skipSegment(at: seconds) }
            let written = carryOut(tracker.observe(property))
            onUpdate(update(written))
        }
        let written = carryOut(tracker.finish())
        let result = PlaybackOutcome(savedPosition: lastSaved, markedWatched: tracker.markedWatched, ending: ending, saveFailures: failures)
        outcome.withLock { $0 = result }
        finished.signal()
        onUpdate(update(written, outcome: result))
    }
}
