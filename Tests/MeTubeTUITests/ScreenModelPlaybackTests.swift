import Foundation
import MeTubeCore
import MeTubePlayer
import TestSupport
@testable import MeTubeTUI
import Testing

/// Tracked playback in the screen model: resume, the ask question, live and saved progress in the
/// row, the in-progress filter.
@Suite struct ScreenModelPlaybackTests {
    private func id(_ number: Int) -> String { SyntheticLibrary.videoID(number) }

    private func model(_ config: String = "", unicode: Bool = true) throws -> ScreenModel {
        var tui = try Fixture.config("[tui]\nplayer = \"mpv\"\n" + config)
        #expect(tui.player != nil)
        tui.forceASCII = !unicode
        return Fixture.model(unicode: unicode, config: tui)
    }


    private func position(_ number: Int, _ seconds: Double, of duration: Double?) -> PlaybackPosition {
        PlaybackPosition(videoID: id(number), seconds: seconds, duration: duration, hlc: HybridTimestamp(millis: 5), deviceID: "phone")
    }

    @Test func aSavedPositionFromThePlayerShowsAndEndsTheLiveRow() throws {
        var model = try model()
        _ = model.apply(.playback(PlaybackUpdate(videoID: id(0), seconds: 600, duration: 1_834, isPaused: false, saved: position(0, 600, of: 1_834))))
        #expect(model.playing[id(0)] != nil && model.library.playbackPositions[id(0)]?.seconds == 600)
    }

    @Test func enterPlaysAPartlyWatchedVideoFromTheSavedPositionLessTheRewind() throws {
        var model = try model()
        _ = model.apply(.playback(PlaybackUpdate(videoID: id(0), seconds: 600, duration: 1_834, isPaused: false,
                                                 saved: position(0, 600, of: 1_834), outcome: nil)))
        _ = model.apply(.playback(PlaybackUpdate(videoID: id(0), seconds: 600, duration: 1_834, isPaused: false, outcome: PlaybackOutcome(
            savedPosition: position(0, 600, of: 1_834), markedWatched: false, ending: MPVEnding(status: 0, killedBySignal: false, garbageLines: 0), saveFailures: []))))
        #expect(model.playing.isEmpty)
        #expect(model.message?.text == "\(id(0)): saved position 10:00 of 30:34 (32%)")
        #expect(model.press(.enter) == [.play(videoID: id(0), startSeconds: 595)])
        #expect(model.progressText(of: id(0)) == "▶ 9:55")
        #expect(model.press(.enter).isEmpty, "a video already playing is not started twice")
    }

    @Test func askWaitsForYesOrNo() throws {
        var model = try model("resume = \"ask\"\nresume-rewind = 0\n")
        model.save(position(0, 120, of: 1_834))
        #expect(model.press(.enter).isEmpty)
        #expect(model.resumeQuestion == ResumeQuestion(videoID: id(0), startSeconds: 120))
        #expect(model.press(.character("n")) == [.play(videoID: id(0), startSeconds: nil)])
        var again = try self.model("resume = \"ask\"\n")
        again.save(position(0, 120, of: 1_834))
        _ = again.press(.enter)
        #expect(again.press(.character("y")) == [.play(videoID: id(0), startSeconds: 115)])
    }

    @Test func markOnOpenAlwaysMarksAtStartAndNeverResumesWithResumeNever() throws {
        var model = try model("mark-on-open = \"always\"\nresume = \"never\"\n")
        model.save(position(0, 120, of: 1_834))
        #expect(model.press(.enter) == [.mark(videoID: id(0), status: .watched), .play(videoID: id(0), startSeconds: nil)])
    }

    @Test func theRowShowsLiveAndSavedProgressWithAnASCIIFallback() throws {
        var model = try model()
        model.save(position(0, 700, of: 1_834))
        model.save(position(1, 2_000, of: 3_723))
        model.save(position(5, 30, of: nil))
        model.save(position(4, 30, of: nil))
        #expect(model.progressText(of: id(0)) == "◔ 38%")
        #expect(model.progressText(of: id(1)) == "◑ 53%")
        #expect(model.progressText(of: id(5)) == "◔ 3%", "the feed's duration when the player gave none")
        #expect(model.progressText(of: id(4)) == "◔ 0:30", "no duration at all: the position")
        #expect(ScreenRenderer.render(model).text(ofRow: 1).hasSuffix("◔ 38%"))
        _ = model.apply(.playback(PlaybackUpdate(videoID: id(1), seconds: 2_100, duration: 3_723, isPaused: true)))
        #expect(model.progressText(of: id(1)) == "⏸ 35:00")
        var ascii = try self.model(unicode: false)
        ascii.save(position(0, 1_500, of: 1_834))
        _ = ascii.apply(.playback(PlaybackUpdate(videoID: id(1), seconds: 61, duration: nil, isPaused: false)))
        #expect(ascii.progressText(of: id(0)) == "@ 81%")
        #expect(ascii.progressText(of: id(1)) == "> 1:01")
    }

    @Test func theInProgressFilterShowsPartlyWatchedVideosOnly() throws {
        var model = try model()
        model.save(position(0, 700, of: 1_834))
        model.save(position(2, 100, of: 600))
        while model.query.filter != .inProgress { model.press(.character("f")) }
        #expect(Fixture.rowIDs(model) == [id(0)], "video 2 is watched, so not in progress")
    }

    @Test func aPlayerThatFailsToStartIsNoLongerShownAsPlaying() throws {
        var model = try model()
        _ = model.press(.enter)
        #expect(model.playing[id(0)] != nil)
        _ = model.apply(.playerFailed(videoID: id(0), message: "the player exited at once with status 1"))
        #expect(model.playing.isEmpty)
        #expect(model.message == FooterMessage(text: "cannot play \(id(0)): the player exited at once with status 1", isError: true))
    }
}

extension ScreenModel {
    /// Gives the model a library with `position` saved (as a sync or another process would).
    mutating func save(_ position: PlaybackPosition) {
        var changed = library
        changed.apply(position)
        _ = apply(.libraryChanged(changed))
    }
}
