import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// The TUI folds a grown journal into new snapshots by itself, off the key path.
@Suite("TUI compaction in tmux")
struct CompactionEndToEndTests {
    @Test("a journal past the threshold is compacted while the TUI runs, and keys keep working")
    func compactsAGrownJournal() throws {
        // Given a store whose journal holds 12,000 videos (over the 2 MiB threshold), never compacted
        let directory = TemporaryDirectory("metube-tui-compaction")
        defer { directory.remove() }
        let generator = SyntheticLibrary(channelCount: 20, videoCount: 12_000, markCount: 0)
        let storeURL = directory.url.appendingPathComponent("data", isDirectory: true)
        let store = try Store.open(at: storeURL)
        try store.apply(StoreChange(videos: generator.videos(), channels: generator.channels()))
        #expect(store.needsCompaction)

        // When the TUI runs on it
        let tmux = try EndToEndTests.start(storeURL, in: directory)
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }

        // Then the journal is folded in without a key press, and a mark afterwards still lands
        let deadline = ContinuousClock.now + .seconds(30)
        while try Store.open(at: storeURL).needsCompaction, ContinuousClock.now < deadline { usleep(100_000) }
        #expect(try Store.open(at: storeURL).needsCompaction == false)
        try tmux.send("w")
        try tmux.send("q")
        #expect(try EndToEndTests.waitForExit(tmux) == 0)
        let reopened = try Store.open(at: storeURL).library()
        #expect(reopened.videos.count == 12_000)
        #expect(reopened.marks[generator.video(0).id]?.status == .watched)
    }
}
