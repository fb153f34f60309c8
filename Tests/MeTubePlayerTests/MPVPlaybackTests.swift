import Foundation
import MeTubeCore
import MeTubePlayer
import MeTubeStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Tracked playback with the real mpv: positions saved while playing and when mpv is killed,
/// resume, the watched share, and players that fail.
@Suite(.serialized) struct MPVPlaybackTests {
    @Test func savesWhilePlayingAndKeepsTheLastPositionWhenMPVIsKilled() async throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        // Given mpv playing 10 min of test source at 10x (a minute of real time: far more than the test needs, even on a busy machine)
        let (recorder, updates) = try harness.play(PlayerHarness.testSource(seconds: 600, speed: 10))
        // When it has played past 12 s
        let playing = await PlayerHarness.first(updates) { ($0.seconds ?? 0) >= 12 }
        // Then a save was made while playing (every 5 s of playback)
        #expect(playing != nil)
        let whilePlaying = try #require(try harness.reopened().playbackPositions[harness.video.id])
        #expect(whilePlaying.seconds >= 5 && whilePlaying.syncState == .pending)
        // When mpv is killed with SIGKILL
        kill(recorder.session.processID, SIGKILL)
        let outcome = recorder.waitUntilEnded()
        // Then the last position it reported is saved, durably, and nothing is marked
        #expect(outcome.ending.killedBySignal)
        let saved = try #require(try harness.reopened().playbackPositions[harness.video.id])
        #expect(saved.seconds >= 12 && saved.seconds < 600)
        #expect(outcome.savedPosition == saved)
        #expect(try harness.reopened().marks[harness.video.id] == nil)
        #expect(outcome.summary.contains("saved position"))
    }

    @Test func resumeStartsMPVAtTheGivenPosition() async throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        let (recorder, updates) = try harness.play(PlayerHarness.testSource(seconds: 600), startSeconds: 30)
        let first = await PlayerHarness.first(updates) { $0.seconds != nil }
        recorder.session.quit()
        _ = recorder.waitUntilEnded()
        let seconds = try #require(first?.seconds)
        #expect(seconds >= 29.5 && seconds < 35, "mpv reported \(seconds) right after a start at 30")
    }

    @Test func reachingTheWatchedShareMarksWatchedWhilePlaying() async throws {
        let harness = try PlayerHarness(duration: 20)
        defer { harness.remove() }
        // Given a 20 s video (as the feed says) played at 10x
        let (recorder, updates) = try harness.play(PlayerHarness.testSource(seconds: 60, speed: 10))
        // When it passes 90 % (18 s), it is marked watched while still playing
        _ = await PlayerHarness.first(updates) { ($0.seconds ?? 0) >= 18.5 }
        let whilePlaying = try harness.reopened().marks[harness.video.id]
        recorder.session.quit()
        _ = recorder.waitUntilEnded()
        #expect(whilePlaying?.status == .watched)
    }

    @Test func reachingTheEndMarksWatched() async throws {
        let harness = try PlayerHarness(duration: nil)
        defer { harness.remove() }
        let (recorder, _) = try harness.play(PlayerHarness.testSource(seconds: 10, speed: 10))
        let outcome = recorder.waitUntilEnded()
        #expect(outcome.markedWatched)
        let library = try harness.reopened()
        #expect(library.marks[harness.video.id]?.status == .watched)
        #expect(library.marks[harness.video.id]?.syncState == .pending)
        #expect((library.playbackPositions[harness.video.id]?.fraction ?? 0) >= 0.9)
    }

    @Test func stoppingEarlyLeavesTheVideoUnwatchedWithItsPosition() async throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        let (recorder, updates) = try harness.play(PlayerHarness.testSource(seconds: 600, speed: 10))
        _ = await PlayerHarness.first(updates) { ($0.seconds ?? 0) >= 8 }
        recorder.session.quit()
        let outcome = recorder.waitUntilEnded()
        #expect(!outcome.markedWatched && !outcome.ending.killedBySignal)
        let library = try harness.reopened()
        #expect(library.marks[harness.video.id] == nil)
        let saved = try #require(library.playbackPositions[harness.video.id])
        #expect(saved.seconds >= 8 && saved.duration == 600)
    }

    @Test func aPlayerThatExitsAtOnceGivesAClearErrorAndSavesNothing() throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        #expect {
            try harness.play(MPVCommand(template: "false {url}"))
        } throws: { error in
            guard case PlayerError.exitedAtOnce(_, let status)? = error as? PlayerError else { return false }
            return status == 1 && "\(error)".contains("exited at once")
        }
        #expect(try harness.reopened().playbackPositions.isEmpty)
    }

    @Test func aPlayerThatCannotPlayTheVideoEndsWithAClearMessageAndSavesNothing() throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        // mpv fails to open the source either before its IPC socket appears (an error from
        // start) or just after (a failed ending); which one depends on the machine's speed, and
        // both must say what happened.
        do {
            let (recorder, _) = try harness.play(MPVCommand(template: "mpv --no-config --vo=null --ao=null --title={url} av://lavfi:no-such-filter"))
            let outcome = recorder.waitUntilEnded()
            #expect(outcome.failure?.contains("exited with status") == true)
            #expect(outcome.summary == outcome.failure)
        } catch let PlayerError.exitedAtOnce(_, status) {
            #expect(status != 0)
        }
        #expect(try harness.reopened().playbackPositions.isEmpty)
        #expect(try harness.reopened().marks.isEmpty)
    }

    @Test func aSocketThatNeverAppearsStopsThePlayerWithAClearError() throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        #expect {
            try harness.play(MPVCommand(template: "sleep 30 #{url}"), socketTimeout: 0.5)
        } throws: { error in
            guard case PlayerError.socketNeverAppeared? = error as? PlayerError else { return false }
            return "\(error)".contains("no IPC socket")
        }
        #expect(try harness.reopened().playbackPositions.isEmpty)
    }

    @Test func twoPlayersAtOnceAreEachTrackedIntoTheOneStore() async throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        let second = Video(id: "9bZkp7q19f0", channelID: harness.video.channelID, title: "second source", published: Date(timeIntervalSince1970: 0),
                           duration: 600)
        try harness.store.apply(StoreChange(videos: [second]))
        let (first, firstUpdates) = try harness.play(PlayerHarness.testSource(seconds: 600, speed: 4))
        let (other, otherUpdates) = try harness.play(PlayerHarness.testSource(seconds: 600, speed: 4), video: second)
        #expect(await PlayerHarness.first(firstUpdates, where: { ($0.seconds ?? 0) >= 2 }) != nil)
        #expect(await PlayerHarness.first(otherUpdates, where: { ($0.seconds ?? 0) >= 2 }) != nil)
        let outcomes = [first.stop(waitingAtMost: 10), other.stop(waitingAtMost: 10)]
        #expect(outcomes.map { $0?.savedPosition?.videoID } == [harness.video.id, second.id])
        let positions = try harness.reopened().playbackPositions
        #expect((positions[harness.video.id]?.seconds ?? 0) >= 2)
        #expect((positions[second.id]?.seconds ?? 0) >= 2)
    }

    /// A player that writes garbage, an over-long line and out-of-range values on its IPC socket
    /// before one readable position, then hangs up: the garbage is counted and said, the readable
    /// position is saved, and a late quit to the closed socket ends nothing but the player.
    @Test func garbageOnTheSocketIsCountedAndTheReadablePositionIsSaved() throws {
        let harness = try PlayerHarness()
        defer { harness.remove() }
        let script = harness.directory.url.appendingPathComponent("hostile-player.py")
        try Self.hostilePlayer.write(to: script, atomically: true, encoding: .utf8)
        let (recorder, _) = try harness.play(MPVCommand(template: "python3 \(script.path) {url}"))
        let outcome = recorder.waitUntilEnded()
        #expect(recorder.stop(waitingAtMost: 1) == outcome)
        #expect(outcome.ending.garbageLines >= 4)
        #expect(outcome.savedPosition?.seconds == 42.5)
        #expect(outcome.failure == nil)
        #expect(outcome.summary.contains("unreadable IPC line(s) ignored"))
        let library = try harness.reopened()
        #expect(library.playbackPositions[harness.video.id]?.seconds == 42.5)
        #expect(library.marks.isEmpty)
    }

    /// Listens where metube asks mpv to (`--input-ipc-server=PATH`), sends its lines at once and
    /// hangs up without reading a byte.
    private static let hostilePlayer = """
        import socket, sys
        path = next(a.split("=", 1)[1] for a in sys.argv if a.startswith("--input-ipc-server="))
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(1)
        connection, _ = server.accept()
        connection.sendall(
            b"\\x00\\xff\\xfe not json\\n"
            + b"{" * 70000 + b"\\n"
            + b'{"event":"property-change","name":"time-pos","data":"soon"}\\n'
            + b'{"event":"property-change","name":"time-pos","data":-5}\\n'
            + b'{"event":"property-change","name":"duration","data":600}\\n'
            + b'{"event":"property-change","name":"time-pos","data":42.5}\\n'
        )
        connection.close()
        """
}
