import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// A chapter of the details pane played in the real mpv: the real `metube` binary in tmux, `]`
/// selects the description's second chapter and `P` starts the tracked mpv there (`--start`).
@Suite("Details pane chapter playback end to end in tmux")
struct DetailsChapterPlaybackEndToEndTests {
    @Test("] then P plays from the 5:00 chapter: the row's live position starts there, and quitting saves past it")
    func playsFromTheChapter() throws {
        let directory = TemporaryDirectory("metube-chap")
        defer { directory.remove() }
        let storeURL = try DetailsPaneEndToEndTests.makeStore(count: 20, in: directory) { $0.description = "A test video.\n0:00 Intro\n5:00 Middle\n9:00 End" }
        try """
            [tui]
            player = "mpv"
            thumbnails = "off"
            open = "mpv --no-config --vo=null --ao=null --ytdl=no --speed=10 --title={url} av://lavfi:testsrc=duration=600:rate=10"
            """.write(to: directory.url.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let tmux = try EndToEndTests.start(storeURL, in: directory, width: 130, height: 30, extraEnvironment: ["XDG_RUNTIME_DIR": directory.url.path])
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }
        try tmux.send("Tab")
        try tmux.waitFor { $0.contains("▸ 0:00 Intro") }
        try tmux.send("]")
        try tmux.waitFor { $0.contains("▸ 5:00 Middle") }
        try tmux.send("P")
        // (every position seen on the way to 5:10 is kept: one before the chapter means it
        // played from the start; `▶ 0:00` is shown until mpv says where it is)
        var seen: [Int] = []
        try tmux.waitFor { screen in
            guard let position = EndToEndTests.livePosition(line: 1, of: screen) else { return false }
            seen.append(position)
            return position >= 310
        }
        #expect(seen.allSatisfy { $0 == 0 || $0 >= 300 }, "positions shown: \(seen)")
        try tmux.send("q")
        try tmux.waitFor { _ in (try? tmux.exitStatus()) != nil }
        #expect(try tmux.exitStatus() == 0)
        let saved = try #require(try Store.open(at: storeURL).library().playbackPositions.values.first)
        #expect(saved.seconds >= 310)
    }
}
