import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// The real `metube` binary in tmux with the real mpv on a generated source: play, see the live
/// position, quit, and see the saved progress in the row on the next start.
@Suite("Playback end to end in tmux")
struct PlaybackEndToEndTests {
    @Test("Enter plays in mpv with the live position in the row; quitting saves it; the next start shows ◔")
    func playQuitAndSeeProgress() throws {
        let directory = TemporaryDirectory("metube-tui-play")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 2, videoCount: 20, markCount: 0)
        let storeURL = try EndToEndTests.makeStore(library, in: directory)
        try """
            [tui]
            player = "mpv"
            open = "mpv --no-config --vo=null --ao=null --ytdl=no --speed=10 --title={url} av://lavfi:testsrc=duration=600:rate=10"
            """.write(to: directory.url.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let environment = ["XDG_RUNTIME_DIR": directory.url.path]
        let first = try EndToEndTests.start(storeURL, in: directory, extraEnvironment: environment)
        defer { first.close() }
        let opened = try first.waitFor { $0.contains("hub: not configured") }
        let videoID = try #require(library.videos().first { opened.contains(String($0.title.prefix(12))) }?.id)
        // When Enter plays the first row: its right-hand column shows the live position
        try first.send("Enter")
        // (at least ten seconds in: a condition that stays true, which a look cannot miss)
        try first.waitFor { (EndToEndTests.livePosition(line: 1, of: $0) ?? 0) >= 10 }
        // And keys still work while it plays
        try first.send("j")
        try first.send("q")
        try first.waitFor { _ in (try? first.exitStatus()) != nil }
        #expect(try first.exitStatus() == 0)
        // Then the position is on disk, unwatched
        let saved = try #require(try Store.open(at: storeURL).library().playbackPositions.values.first)
        #expect(saved.seconds >= 10)
        #expect(try Store.open(at: storeURL).library().marks[saved.videoID] == nil)
        // And the next start shows the progress in that row (a share of the feed's duration)
        let second = try EndToEndTests.start(storeURL, in: directory, extraEnvironment: environment)
        defer { second.close() }
        try second.waitFor { EndToEndTests.line(1, of: $0).contains("◔ ") && EndToEndTests.line(1, of: $0).hasSuffix("%") }
        #expect(saved.videoID == videoID)
        try second.send("q")
    }
}
