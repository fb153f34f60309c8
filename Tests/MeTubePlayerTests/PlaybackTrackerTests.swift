import MeTubeCore
import Testing

/// The save / resume / watched-at rules as a model, without a player.
@Suite struct PlaybackTrackerTests {
    private func tracker(watchedAt: Double = 0.9, marks: Bool = true, known: Double? = nil) -> PlaybackTracker {
        PlaybackTracker(videoID: "v", policy: PlaybackPolicy(watchedAt: watchedAt, marksWatched: marks), knownDuration: known)
    }

    @Test func savesEveryFiveSecondsOfPlaybackOnPauseAndAtTheEnd() {
        var tracker = tracker()
        #expect(tracker.observe(.duration(600)).isEmpty)
        #expect(tracker.observe(.timePosition(1)).isEmpty)
        #expect(tracker.observe(.timePosition(4.9)).isEmpty)
        #expect(tracker.observe(.timePosition(5)) == [.save(seconds: 5, duration: 600)])
        #expect(tracker.observe(.timePosition(9.9)).isEmpty)
        #expect(tracker.observe(.timePosition(10.2)) == [.save(seconds: 10.2, duration: 600)])
        #expect(tracker.observe(.timePosition(12)).isEmpty)
        #expect(tracker.observe(.paused(true)) == [.save(seconds: 12, duration: 600)])
        #expect(tracker.observe(.paused(true)).isEmpty)
        #expect(tracker.observe(.timePosition(40)).isEmpty, "a seek while paused waits for the pause to end or the player to stop")
        #expect(tracker.observe(.paused(false)).isEmpty)
        #expect(tracker.observe(.timePosition(41)) == [.save(seconds: 41, duration: 600)])
        #expect(tracker.observe(.timePosition(42)).isEmpty)
        #expect(tracker.finish() == [.save(seconds: 42, duration: 600)])
        #expect(tracker.finish().isEmpty)
    }

    @Test func aSeekBackwardsIsSavedToo() {
        var tracker = tracker()
        _ = tracker.observe(.timePosition(100))
        #expect(tracker.observe(.timePosition(20)) == [.save(seconds: 20, duration: nil)])
    }

    @Test func nothingIsSavedBeforeThePlayerReportsAPosition() {
        var tracker = tracker()
        _ = tracker.observe(.duration(60))
        #expect(tracker.finish().isEmpty)
    }

    @Test func theWatchedShareMarksOnceAndTheEndOfFileMarksToo() {
        var tracker = tracker()
        _ = tracker.observe(.duration(100))
        #expect(tracker.observe(.timePosition(89.9)) == [.save(seconds: 89.9, duration: 100)])
        #expect(tracker.observe(.timePosition(90)) == [.markWatched])
        #expect(tracker.observe(.timePosition(99)) == [.save(seconds: 99, duration: 100)])
        var atEnd = self.tracker()
        #expect(atEnd.observe(.endOfFile(true)) == [.markWatched])
        var never = self.tracker(marks: false)
        _ = never.observe(.duration(10))
        #expect(never.observe(.timePosition(9.5)) == [.save(seconds: 9.5, duration: 10)])
        #expect(never.observe(.endOfFile(true)).isEmpty)
    }

    @Test func theFeedsDurationWinsOverTheGrowingEstimateOfAStream() {
        var tracker = tracker(known: 600)
        _ = tracker.observe(.duration(11))
        #expect(tracker.observe(.timePosition(10)) == [.save(seconds: 10, duration: 600)])
        #expect(!tracker.markedWatched)
    }

    @Test func aPositionPastTheDurationIsClamped() {
        var tracker = tracker()
        _ = tracker.observe(.duration(30))
        #expect(tracker.observe(.timePosition(31)) == [.save(seconds: 30, duration: 30), .markWatched])
        #expect(PlaybackPosition(videoID: "v", seconds: .infinity, duration: .nan, hlc: HybridTimestamp(millis: 1), deviceID: "d").seconds == 0)
        #expect(PlaybackPosition(videoID: "v", seconds: 50, duration: 40, hlc: HybridTimestamp(millis: 1), deviceID: "d").seconds == 40)
        #expect(PlaybackPosition(videoID: "v", seconds: -3, hlc: HybridTimestamp(millis: 1), deviceID: "d").seconds == 0)
        #expect(PlaybackPosition(videoID: "v", seconds: 1e12, hlc: HybridTimestamp(millis: 1), deviceID: "d").seconds == PlaybackPosition.maxSeconds)
    }

    @Test func resumeStartsBeforeTheSavedPositionUnlessFinishedOrOff() {
        func saved(_ seconds: Double, of duration: Double?) -> PlaybackPosition {
            PlaybackPosition(videoID: "v", seconds: seconds, duration: duration, hlc: HybridTimestamp(millis: 1), deviceID: "d")
        }
        let policy = PlaybackPolicy(rewind: 5)
        #expect(policy.resumeSeconds(for: saved(120, of: 600)) == 115)
        #expect(policy.resumeSeconds(for: saved(3, of: 600)) == nil)
        #expect(policy.resumeSeconds(for: saved(590, of: 600)) == nil, "a finished video starts over")
        #expect(policy.resumeSeconds(for: saved(120, of: nil)) == 115)
        #expect(policy.resumeSeconds(for: nil) == nil)
        #expect(PlaybackPolicy(rewind: 0).resumeSeconds(for: saved(120, of: 600)) == 120)
        #expect(PlaybackPolicy(rewind: .nan, watchedAt: 7).watchedAt == 1)
    }
}
