import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
import TestSupport
import Testing

/// `a` in the channels view of the real binary, with the stand-in yt-dlp as `[download] command`:
/// a pasted handle link is resolved while the screen keeps working and the channel is followed,
/// pending for the mark sync; a slow lookup is stopped by Esc; a bad link and an unknown handle
/// each give one line and change nothing.
@Suite("Follow a channel by link in tmux")
struct FollowChannelEndToEndTests {
    static let veritasium = "UCHnyfMqiRRG1u-2MsSQLbXA"

    @Test("a pasted @handle link is followed; Esc stops a slow lookup; a bad link and an unknown handle say why")
    func followByLink() throws {
        // Given the TUI on a store of four channels, with the stand-in yt-dlp knowing one handle but slow for now
        let directory = TemporaryDirectory("metube-tui-follow")
        let standIn = try YTDLPStandIn()
        defer { directory.remove(); standIn.remove() }
        try standIn.setLinks([ChannelLink.handle("veritasium").url: Self.veritasium])
        try standIn.setMode(.slow)
        try "[download]\ncommand = \"\(standIn.executable.path)\"\nbackground = false\n"
            .write(to: directory.url.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let storeURL = try EndToEndTests.makeStore(SyntheticLibrary(channelCount: 4, videoCount: 40, markCount: 0), in: directory)
        let tmux = try EndToEndTests.start(storeURL, in: directory)
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }
        try tmux.send("c")
        try tmux.waitFor { $0.contains("4 channels") }

        // When a handle is pasted while yt-dlp hangs, Then the line says it resolves, and Esc stops it at once
        try tmux.send("a")
        try tmux.waitFor { $0.contains("follow (link, @handle or id):") }
        try tmux.type("https://m.youtube.com/@Veritasium?si=abc&feature=share")
        try tmux.send("Enter")
        try tmux.waitFor { $0.contains("follow @Veritasium: resolving… (Esc cancels)") }
        try tmux.send("Escape")
        try tmux.waitFor { $0.contains("stopped resolving; nothing was followed") && $0.contains("4 channels") }
        // And the hanging yt-dlp is killed, not left to run
        #expect(Self.noProcessRuns(standIn.executable.path, within: .seconds(10)))

        // When it is pasted again with yt-dlp answering, Then the channel is followed and shown
        try standIn.setMode(.ok)
        try tmux.send("a")
        try tmux.type("https://m.youtube.com/@Veritasium?si=abc&feature=share")
        try tmux.send("Enter")
        try tmux.waitFor { $0.contains("following \(Self.veritasium)") && $0.contains("5 channels") }

        // When a link of another site and an unknown handle are pasted, Then each says why on one line
        try tmux.send("a")
        try tmux.type("https://example.com/watch?v=dQw4w9WgXcQ")
        try tmux.send("Enter")
        try tmux.waitFor { $0.contains("not a YouTube URL (host example.com); nothing was followed") }
        try tmux.send("a")
        try tmux.type("@nobody_here")
        try tmux.send("Enter")
        try tmux.waitFor { $0.contains("@nobody_here: @nobody_here does not exist on YouTube; nothing was followed") && $0.contains("5 channels") }
        try tmux.send("q")

        // Then the store follows exactly the four channels and the resolved one, pending for the mark sync
        let store = try Store.open(at: storeURL)
        #expect(store.library().channels.count == 5)
        #expect(store.library().subscription(of: Self.veritasium, deviceID: store.syncSnapshot().deviceID)?.syncState == .pending)
    }

    /// Whether, within `timeout`, no process has `path` in its command line (read from `/proc`).
    static func noProcessRuns(_ path: String, within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let running = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains { entry in
                guard entry.allSatisfy(\.isNumber), let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
                return String(decoding: line, as: UTF8.self).contains(path)
            }
            if !running { return true }
            usleep(20_000)
        }
        return false
    }
}
