import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// The watch-later queue in the real `metube` binary in tmux: `l`, `L`, `J`, a queue change by
/// another process, and what the store holds afterwards.
@Suite("TUI queue end to end in tmux")
struct QueueEndToEndTests {
    @Test("l queues, L shows the queue in order, J moves a video, another process's add shows; the queue is on disk")
    func queueSession() throws {
        let directory = TemporaryDirectory("metube-tui-queue")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 4, videoCount: 40, markCount: 0)
        let storeURL = try EndToEndTests.makeStore(library, in: directory)
        // (the queued videos are not downloaded: no yt-dlp against youtube.com from a test)
        try "[download]\nbackground = false\n".write(to: directory.url.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let tmux = try EndToEndTests.start(storeURL, in: directory)
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }
        // (the feed is newest first: rows 1 and 3 are videos 0 and 2)
        let (firstTitle, thirdTitle) = (String(library.video(0).title.prefix(15)), String(library.video(2).title.prefix(15)))

        // When the third row, then the first, are queued and the queue is shown
        try tmux.send("j", "j", "l")
        try tmux.waitFor { $0.contains("1 video in the queue") }
        try tmux.send("g", "l")
        try tmux.waitFor { $0.contains("2 videos in the queue") }
        try tmux.send("L")
        // Then the queue holds them in the order queued
        let queue = try tmux.waitFor { $0.contains("queue (2 videos)") }
        #expect(EndToEndTests.line(1, of: queue).contains(thirdTitle), "\(queue)")
        #expect(EndToEndTests.line(2, of: queue).contains(firstTitle), "\(queue)")

        // When J moves the selected (first) one down
        try tmux.send("J")
        try tmux.waitFor { EndToEndTests.line(1, of: $0).contains(firstTitle) }
        // And another process queues a video
        let other = library.video(30)
        let added = try runProcess(EndToEndTests.binary, ["queue", "add", other.id, "--data-dir", storeURL.path])
        #expect(added.status == 0, "\(added.stderr)")
        try tmux.waitFor { $0.contains("queue (3 videos)") }
        try tmux.send("q")
        _ = try EndToEndTests.waitForExit(tmux)

        // Then the store holds the queue in the order shown
        let stored = try Store.open(at: storeURL).library().queuedVideoIDs
        #expect(stored.count == 3 && stored.last == other.id)
        #expect(stored == [library.video(0).id, library.video(2).id, other.id])
    }
}
